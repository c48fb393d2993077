import type { BridgeError } from '../../../common/bridge/contract';
import { describeError } from '../state/app-store';
import { messageFor } from './i18n';

/**
 * A refusal's problems (an import's rows, an item's fields) in the window's language: each by its id in
 * the `errors` catalog when the core sent one, else as the core worded it.
 */
export function problemTexts(error: BridgeError): string[] {
  return (error.problems ?? []).map((p, i) => {
    const words = error.problemWords?.[i];
    const said = words && messageFor(`errors:${words.messageId}`, words.params ?? {});
    if (said === undefined) return p;
    // A problem found on a CSV line names it: "Line 7: …" in the window's language.
    const line = words?.params?.['line'];
    return line === undefined ? said : (messageFor('errors:catalog.onLine', { line, problem: said }) ?? said);
  });
}

/** The refusal's own sentence, without its problems (they are listed apart). */
export function headlineText(error: BridgeError): string {
  if (error.messageId !== undefined) return describeError(error);
  return error.message;
}

/** A refusal in one sentence or more: its problems when it lists them, else its own words. */
export function refusalText(error: BridgeError): string {
  if (error.problemWords && error.problemWords.length > 0) {
    const problems = problemTexts(error);
    return error.messageId !== undefined ? [describeError(error), ...problems].join(' ') : problems.join(' ');
  }
  return describeError(error);
}
