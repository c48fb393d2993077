import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';

/**
 * The published vectors live in the team's shared folder beside the repository (`../shared/vectors`):
 * tests read them there, never from copies that could drift. A clone elsewhere on the machine finds the
 * same folder by walking up, or through TILLPOINT_VECTORS.
 */
/** The team's shared folder (vectors, the interface spec, DESIGN.md), found beside the repository or above it. */
function findSharedDir(): string {
  const fromEnv = process.env.TILLPOINT_SHARED;
  if (fromEnv) return fromEnv;
  let dir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  for (;;) {
    const candidate = join(dir, '..', 'shared');
    if (existsSync(join(candidate, 'vectors'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  if (existsSync('/work/shared/vectors')) return '/work/shared';
  throw new Error('the shared folder (vectors, spec) was not found: set TILLPOINT_SHARED to it');
}

export const sharedDir = findSharedDir();
export const vectorsDir = process.env.TILLPOINT_VECTORS ?? join(sharedDir, 'vectors');

export function loadVector<T>(file: string): T {
  return JSON.parse(readFileSync(join(vectorsDir, file), 'utf8')) as T;
}
