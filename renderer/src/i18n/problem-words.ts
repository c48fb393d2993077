import type { BridgeError } from '../../../electron/bridge/contract';
import { describeError } from '../state/app-store';
import { messageFor } from './i18n';

/**
 * A refusal's problems (an import's rows, an item's fields) in the window's language: each by its id in
 * the `errors` catalog when the core sent one, else as the core worded it.
 */
export function problemTexts(error: BridgeError): string[] {
  return (error.problems ?? []).map((p, i) => {
    const words = error.problemWords?.[i];
    return (words && messageFor(`errors:${words.messageId}`, words.params ?? {})) ?? p;
  });
}

/** The refusal's own sentence, without its problems (they are listed apart). */
export function headlineText(error: BridgeError): string {
  if (error.messageId !== undefined) return describeError(error);
  return error.message;
}
