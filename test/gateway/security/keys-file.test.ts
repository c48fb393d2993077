import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadKeys } from '../../../gateway/security/keys';
import { repoRoot } from '../../support/spawn-gateway';

const run = promisify(execFile);

/**
 * Two gateway processes started at once on a fresh data folder (`--workers` on PostgreSQL, or two
 * services behind a balancer) both find no key file. Each writing its own would leave one process with a
 * vault key the other cannot read; exactly one file must win and every process must use it.
 */
describe('the key file of a fresh data folder', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('is created once when several processes start together, and all of them load the same keys', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tillpoint-keys-'));
    dirs.push(dir);
    const file = join(dir, 'keys.json');
    const script =
      "import { loadKeys } from './gateway/security/keys.ts';" +
      "import { createHash } from 'node:crypto';" +
      // Every process spins until the same instant, so their checks and creations really overlap.
      'const at = Number(process.argv[2]); while (Date.now() < at) {}' +
      'const k = loadKeys(process.argv[1], true);' +
      "process.stdout.write(createHash('sha256').update(Buffer.concat([k.vaultKey, k.fingerprintKey, k.tokenKey])).digest('hex'));";
    const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');
    const at = String(Date.now() + 4_000);
    const digests = await Promise.all(
      Array.from({ length: 6 }, () =>
        run(tsx, ['--eval', script, file, at], { cwd: repoRoot }).then((r) => r.stdout),
      ),
    );
    expect(digests).toHaveLength(6);
    expect(new Set(digests).size).toBe(1);
    expect(digests[0]).toMatch(/^[0-9a-f]{64}$/);
    // No draft left behind, and the one file is owner-only.
    expect(readdirSync(dir)).toEqual(['keys.json']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = loadKeys(file, true);
    expect(again.vaultKey).toHaveLength(32);
  }, 60_000);
});
