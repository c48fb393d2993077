import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';

/**
 * The published vectors live in the team's shared folder beside the repository (`../shared/vectors`):
 * tests read them there, never from copies that could drift. A clone elsewhere on the machine finds the
 * same folder by walking up, or through TILLPOINT_VECTORS.
 */
function findVectorsDir(): string {
  const fromEnv = process.env.TILLPOINT_VECTORS;
  if (fromEnv) return fromEnv;
  let dir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  for (;;) {
    const candidate = join(dir, '..', 'shared', 'vectors');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  if (existsSync('/work/shared/vectors')) return '/work/shared/vectors';
  throw new Error('published test vectors not found: set TILLPOINT_VECTORS to the shared/vectors folder');
}

export const vectorsDir = findVectorsDir();

export function loadVector<T>(file: string): T {
  return JSON.parse(readFileSync(join(vectorsDir, file), 'utf8')) as T;
}
