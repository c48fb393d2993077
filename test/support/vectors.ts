import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/**
 * The published test vectors and the interface's endpoint list, kept in the repository under
 * test/vectors/ (one folder per set; origin and licence of each in test/vectors/SOURCES.md). Found
 * relative to this file, so a clone anywhere runs the same tests with nothing beside it.
 */
export const vectorsDir = fileURLToPath(new URL('../vectors/', import.meta.url));

/** A vector file by its path under test/vectors/, e.g. `ansi-x9.24-dukpt/dukpt-tdes.json`. */
export function loadVector<T>(file: string): T {
  return JSON.parse(readFileSync(join(vectorsDir, file), 'utf8')) as T;
}
