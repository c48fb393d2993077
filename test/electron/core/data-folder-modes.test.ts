import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import { openTill, startLane, value } from '../helpers';

/**
 * The data folder is the owner's alone (issue 20, from a review that found the journal 0644): the folder
 * 0700, the journal with its WAL and shared-memory files, the key and the lock 0600 — whatever the umask,
 * and an older install's wider files are narrowed when the terminal starts on them.
 */

const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8).padStart(4, '0');

describe('the data folder is owner-only', () => {
  let gw: TestGateway;
  const previousUmask = process.umask(0o022);
  const roots: string[] = [];
  const root = (): string => {
    const r = mkdtempSync(join(tmpdir(), 'tillpoint-modes-'));
    roots.push(r);
    return r;
  };
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    process.umask(previousUmask);
    await gw.close();
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });

  it('a new data folder: 0700, and the journal, its WAL and SHM, the key and the lock 0600 (umask 022)', async () => {
    const dataDir = join(root(), 'lane');
    const lane = await startLane({ gateway: gw, dataDir });
    try {
      // A sale commits through the WAL, so the -wal and -shm files exist while the journal is open.
      await openTill(lane.bridge);
      const t = value(await lane.bridge.send('sale.open', { subtotalCents: 500 }));
      value(
        await lane.bridge.send('sale.pay', {
          ticketId: t.ticketId,
          tender: { kind: 'cash', tenderedCents: 500 },
        }),
      );
      const files = [
        'journal.sqlite',
        'journal.sqlite-wal',
        'journal.sqlite-shm',
        'terminal.key',
        'terminal.lock',
      ];
      for (const f of files) expect(existsSync(join(dataDir, f)), f).toBe(true);
      expect({
        dir: mode(dataDir),
        ...Object.fromEntries(files.map((f) => [f, mode(join(dataDir, f))])),
      }).toEqual({
        dir: '0700',
        ...Object.fromEntries(files.map((f) => [f, '0600'])),
      });
    } finally {
      await lane.close();
    }
  });

  it('an older install found 0755 / 0644 is narrowed when the terminal starts on it', async () => {
    const dataDir = join(root(), 'old-lane');
    const first = await startLane({ gateway: gw, dataDir });
    await first.close();
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'journal.sqlite'), 0o644);
    chmodSync(join(dataDir, 'terminal.key'), 0o644);
    // A WAL left by an earlier build, world-readable.
    writeFileSync(join(dataDir, 'journal.sqlite-wal'), '', { mode: 0o644 });
    chmodSync(join(dataDir, 'journal.sqlite-wal'), 0o644);
    const again = await startLane({ gateway: gw, dataDir });
    try {
      expect(
        [dataDir, 'journal.sqlite', 'journal.sqlite-wal', 'terminal.key'].map((f) =>
          mode(f === dataDir ? f : join(dataDir, f)),
        ),
      ).toEqual(['0700', '0600', '0600', '0600']);
    } finally {
      await again.close();
    }
  });
});
