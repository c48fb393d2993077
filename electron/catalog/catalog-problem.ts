import { CATALOG_LIMITS } from '../../common/bridge/retail-limits';

/**
 * A catalog request refused for a reason the person can fix: it crosses the catalog worker as data and
 * becomes the bridge's answer (`invalid`, `not-found`, `conflict`) with every problem listed. Nothing was
 * changed when one is thrown: each request is one transaction.
 */
export type CatalogProblemCode = 'invalid' | 'not-found' | 'conflict';

export class CatalogProblem extends Error {
  readonly code: CatalogProblemCode;
  readonly problems: string[] | undefined;

  constructor(code: CatalogProblemCode, message: string, problems?: string[]) {
    super(message);
    this.name = 'CatalogProblem';
    this.code = code;
    this.problems = problems;
  }
}

/** An import refused: every problem found (each naming its line), the first hundred listed. */
export function importRefused(problems: readonly string[]): CatalogProblem {
  const shown = problems.slice(0, CATALOG_LIMITS.importMaxProblems);
  if (problems.length > shown.length) shown.push(`… and ${problems.length - shown.length} more.`);
  return new CatalogProblem(
    'invalid',
    `Nothing was imported: the file has ${problems.length} problem${problems.length === 1 ? '' : 's'}.`,
    shown,
  );
}
