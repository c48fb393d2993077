import type { MessageWords } from '../../common/bridge/errors';
import { CATALOG_LIMITS } from '../../common/bridge/retail-limits';

/**
 * A catalog request refused for a reason the person can fix: it crosses the catalog worker as data and
 * becomes the bridge's answer (`invalid`, `not-found`, `conflict`) with every problem listed. Nothing was
 * changed when one is thrown: each request is one transaction.
 *
 * Each refusal and each problem carries its id in the screens' catalogs (namespace `errors`, `catalog.*`)
 * with the values it names, beside the English words, so a screen says it in its own language. A problem
 * found on a CSV line names it as `line`: the screen puts "Line n:" before it in its language.
 */
export type CatalogProblemCode = 'invalid' | 'not-found' | 'conflict';

type Params = Record<string, string | number>;

/** Problems as they are found: the English words and, in the same order, their ids. */
export class Problems {
  readonly texts: string[] = [];
  readonly words: MessageWords[] = [];

  add(text: string, messageId: string, params?: Params): void {
    this.texts.push(text);
    this.words.push({ messageId: `catalog.${messageId}`, ...(params ? { params } : {}) });
  }

  /** Another list's problems, each now naming the CSV line it was found on. */
  addOnLine(line: number, found: Problems, text: (problem: string) => string): void {
    found.texts.forEach((p, i) => {
      const w = found.words[i];
      this.texts.push(text(p));
      if (w) this.words.push({ messageId: w.messageId, params: { ...w.params, line } });
    });
  }

  get length(): number {
    return this.texts.length;
  }
}

export class CatalogProblem extends Error {
  readonly code: CatalogProblemCode;
  readonly problems: string[] | undefined;
  readonly problemWords: MessageWords[] | undefined;
  readonly messageId: string | undefined;
  readonly params: Params | undefined;

  constructor(
    code: CatalogProblemCode,
    message: string,
    words: { messageId?: string; params?: Params; problems?: Problems } = {},
  ) {
    super(message);
    this.name = 'CatalogProblem';
    this.code = code;
    this.problems = words.problems?.texts;
    this.problemWords = words.problems?.words;
    this.messageId = words.messageId === undefined ? undefined : `catalog.${words.messageId}`;
    this.params = words.params;
  }
}

/** An item's or a tax class's problems, all at once. */
export function refusedFor(problems: Problems): CatalogProblem {
  return new CatalogProblem('invalid', problems.texts.join(' '), { problems });
}

/** An import refused: every problem found (each naming its line), the first hundred listed. */
export function importRefused(problems: Problems): CatalogProblem {
  const shown = new Problems();
  const max = CATALOG_LIMITS.importMaxProblems;
  shown.texts.push(...problems.texts.slice(0, max));
  shown.words.push(...problems.words.slice(0, max));
  const more = problems.length - shown.length;
  if (more > 0) shown.add(`… and ${more} more.`, 'importMore', { count: more });
  return new CatalogProblem(
    'invalid',
    `Nothing was imported: the file has ${problems.length} problem${problems.length === 1 ? '' : 's'}.`,
    { messageId: 'importRefused', params: { count: problems.length }, problems: shown },
  );
}

/** A file refused for one reason (too large, empty, not CSV). */
export function importRefusedFor(text: string, messageId: string, params?: Params): CatalogProblem {
  const one = new Problems();
  one.add(text, messageId, params);
  return importRefused(one);
}
