import { randomBytes, scryptSync } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTerminalCore } from '../../../electron/core/wiring';
import { JournalStore, migrate, openJournalDatabase } from '../../../electron/journal/journal-store';
import { journalMigrations } from '../../../electron/journal/migrations/index';
import { isWeakPin } from '../../../electron/roles/pin-rules';
import { pinDigest, pinKeys, verifyWrapped } from '../../../electron/roles/pins';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import { openTill, sandboxGatewayDefaults, startLane, value } from '../helpers';

/**
 * The PIN store against someone holding a copy of the journal (issue 20, from a review: 4-digit PINs under
 * unkeyed scrypt in a 0644 journal). What the journal keeps verifies a PIN only together with the data
 * folder's key file; an older journal's three role PINs keep working, wrapped under the key at the first
 * start and re-keyed at each one's first sign-in, and nothing of the unkeyed hashes stays in the files.
 */

type EmployeeDbRow = {
  name: string;
  role: string;
  pin_lookup: string | null;
  pin_state: string;
  pin_legacy: string | null;
};

/** A PIN hash exactly as the terminal wrote it before employees (roles/pins.ts, `scrypt$N$r$p$salt$hash`). */
function oldHash(pin: string): { stored: string; hash: string } {
  const salt = randomBytes(16);
  const hash = scryptSync(pin, salt, 32, { N: 16384, r: 8, p: 1 }).toString('base64');
  return { stored: `scrypt$16384$8$1$${salt.toString('base64')}$${hash}`, hash };
}

function employeesOf(path: string): EmployeeDbRow[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT * FROM employees ORDER BY id').all() as EmployeeDbRow[];
  } finally {
    db.close();
  }
}

/** The journal as a thief would take it: the database file and its WAL, without the key file. */
function copyJournal(dataDir: string): string {
  const to = mkdtempSync(join(tmpdir(), 'tillpoint-stolen-'));
  copyFileSync(join(dataDir, 'journal.sqlite'), join(to, 'journal.sqlite'));
  if (existsSync(join(dataDir, 'journal.sqlite-wal')))
    copyFileSync(join(dataDir, 'journal.sqlite-wal'), join(to, 'journal.sqlite-wal'));
  return join(to, 'journal.sqlite');
}

describe('the keyed PIN store', () => {
  let gw: TestGateway;
  const dirs: string[] = [];
  const tempDir = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'tillpoint-pins-'));
    dirs.push(d);
    return d;
  };
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a copy of the journal without the key verifies no PIN; with the key, each digest is its own employee’s', async () => {
    const dataDir = tempDir();
    const lane = await startLane({ gateway: gw, dataDir, signIn: '9999' });
    let path: string;
    try {
      path = copyJournal(dataDir);
    } finally {
      await lane.close();
    }
    dirs.push(join(path, '..'));
    const stolen = employeesOf(path);
    expect(stolen.map((e) => [e.name, e.pin_state])).toEqual([
      ['Cashier', 'demo'],
      ['Manager', 'demo'],
      ['Tech', 'demo'],
    ]);
    const digests = stolen.map((e) => e.pin_lookup);
    const guesses = ['1111', '9999', '7777', '2580', '0000', '1234'];
    // The best an attacker without the key can do is guess a key: another terminal's digests match nothing.
    const otherTerminal = pinKeys(randomBytes(32));
    for (const pin of guesses) expect(digests).not.toContain(await pinDigest(pin, otherTerminal));
    // With the key file, the digest of each demo PIN is exactly its own employee's.
    const keys = pinKeys(readFileSync(join(dataDir, 'terminal.key')));
    expect(await Promise.all(['1111', '9999', '7777'].map((p) => pinDigest(p, keys)))).toEqual(digests);
    expect(digests).not.toContain(await pinDigest('2580', keys));
  });

  it('two employees never hold one PIN: the journal refuses a second copy of a digest', () => {
    const store = new JournalStore(openJournalDatabase(join(tempDir(), 'journal.sqlite')));
    const pin = { lookup: 'k1$same', state: 'own' as const, legacy: null, expiresAt: null };
    store.addEmployee({ name: 'One', role: 'cashier', pin, now: 1 });
    expect(() => store.addEmployee({ name: 'Two', role: 'cashier', pin, now: 1 })).toThrow(/UNIQUE/);
    // Any number may hold no PIN (inactive, or from before employees).
    const none = { lookup: null, state: 'none' as const, legacy: null, expiresAt: null };
    store.addEmployee({ name: 'Three', role: 'cashier', pin: none, now: 1 });
    store.addEmployee({ name: 'Four', role: 'cashier', pin: none, now: 1 });
    expect(store.employees().map((e) => e.name)).toEqual(['One', 'Three', 'Four']);
    store.close();
  });

  it('weak PINs: one digit repeated, runs, repeated pairs; not an ordinary PIN', () => {
    expect(
      ['0000', '1111', '1234', '9876', '0123', '3210', '1212', '696969', '12345678'].filter(isWeakPin),
    ).toHaveLength(9);
    expect(['2580', '1357', '2468', '6047', '1122', '90210', '1235'].filter(isWeakPin)).toEqual([]);
  });

  it('an older journal: its three role PINs become three employees that still sign in, and nothing unkeyed stays', async () => {
    const dataDir = tempDir();
    const path = join(dataDir, 'journal.sqlite');
    // The data folder of a terminal from before employees: its key, and a version-7 journal with real rows.
    writeFileSync(join(dataDir, 'terminal.key'), randomBytes(32), { mode: 0o600 });
    const old = new Database(path);
    old.pragma('journal_mode = WAL');
    migrate(
      old,
      journalMigrations.filter((m) => m.version <= 7),
    );
    const hashes = { cashier: oldHash('1111'), manager: oldHash('2580'), tech: oldHash('7777') };
    const addUser = old.prepare('INSERT INTO users (role, name, pin_hash, updated_at) VALUES (?, ?, ?, ?)');
    addUser.run('cashier', 'Cashier', hashes.cashier.stored, 1);
    addUser.run('manager', 'Manager', hashes.manager.stored, 1);
    addUser.run('tech', 'Tech', hashes.tech.stored, 1);
    old.prepare('INSERT INTO lane_counter (id, last_seq, epoch) VALUES (1, 7, ?)').run('oldlane');
    old
      .prepare(
        `INSERT INTO journal (utn, seq, lane_id, operation, state, amount_cents, approved_cents, last4, card_type,
           srn, created_at, updated_at) VALUES ('L1-oldlane-7', 7, 'L1', 'sale', 'approved', 4200, 4200, '1111', 'Visa',
           'S-OLD', ?, ?)`,
      )
      .run(Date.now() - 60_000, Date.now() - 60_000);
    const addAudit = old.prepare(
      'INSERT INTO audit (at, role, action, detail, approved_by) VALUES (?, ?, ?, ?, ?)',
    );
    addAudit.run(1, 'cashier', 'sign-in', 'cashier signed in', null);
    addAudit.run(2, 'cashier', 'refund', 'refund L1-oldlane-8 of S-OLD: 100 cents', 'manager');
    addAudit.run(3, 'system', 'sign-in-failed', 'Wrong PIN.', null);
    old.close();

    const core = await createTerminalCore({
      dataDir,
      gateway: sandboxGatewayDefaults(gw.baseUrl),
      devices: { kind: 'simulated' },
      sandbox: true,
      deviceManager: { heartbeatMs: 60_000, rediscoveryMs: 0 },
    });
    await core.start();
    try {
      // Started, nobody signed in yet: the unkeyed hashes are gone from the database file and its WAL.
      const files = ['journal.sqlite', 'journal.sqlite-wal']
        .filter((f) => existsSync(join(dataDir, f)))
        .map((f) => readFileSync(join(dataDir, f)).toString('latin1'));
      for (const h of Object.values(hashes)) for (const f of files) expect(f).not.toContain(h.hash);
      const stolen = copyJournal(dataDir);
      dirs.push(join(stolen, '..'));
      const rows = employeesOf(stolen);
      expect(rows.map((e) => [e.name, e.role, e.pin_state, e.pin_lookup])).toEqual([
        ['Cashier', 'cashier', 'legacy', null],
        ['Manager', 'manager', 'legacy', null],
        ['Tech', 'tech', 'legacy', null],
      ]);
      const wrapped = rows[1]?.pin_legacy ?? '';
      expect(wrapped).toMatch(/^w1\$/);
      // Without the key the wrapped hash verifies nothing; with it, the manager's PIN.
      expect(await verifyWrapped('2580', wrapped, pinKeys(randomBytes(32)))).toBe(false);
      const keys = pinKeys(readFileSync(join(dataDir, 'terminal.key')));
      expect(await verifyWrapped('2580', wrapped, keys)).toBe(true);

      // The old PINs sign in, as the employees the roles became; each is re-keyed at that moment.
      const m = core.connect();
      expect(value(await m.send('session.signIn', { pin: '2580' }))).toMatchObject({
        name: 'Manager',
        role: 'manager',
      });
      expect(value(await core.connect().send('session.signIn', { pin: '1111' })).name).toBe('Cashier');
      const after = await core.journal.employees();
      expect(after.map((e) => [e.name, e.pinState, e.pinLegacy === null])).toEqual([
        ['Cashier', 'demo', true],
        ['Manager', 'own', true],
        ['Tech', 'legacy', false],
      ]);
      expect(after[1]?.pinLookup).toBe(await pinDigest('2580', keys));
      // A new employee cannot be handed the tech's PIN while it waits to be re-keyed: it is not free.
      expect(value(await core.connect().send('session.signIn', { pin: '7777' })).name).toBe('Tech');

      // The old rows are kept: a sale from before employees names nobody; audit lines name the one
      // person each role was.
      const list = value(await m.send('transactions.list', { since: 0 }));
      const oldSale = list.find((t) => t.userTransactionNumber === 'L1-oldlane-7');
      expect(oldSale).toMatchObject({ amountCents: 4200, state: 'approved' });
      expect(oldSale?.employeeName).toBeUndefined();
      const audit = value(await m.send('audit.list', { limit: 500 }));
      const refund = audit.find((a) => a.detail.startsWith('refund L1-oldlane-8'));
      expect(refund).toMatchObject({
        role: 'cashier',
        employeeName: 'Cashier',
        approvedBy: 'manager',
        approvedByName: 'Manager',
      });
      expect(audit.find((a) => a.at === 3)?.employeeName).toBeUndefined();
      // The numbering carries on from the old counter.
      await openTill(m);
      const t = value(await m.send('sale.open', { subtotalCents: 100 }));
      value(await m.send('sale.pay', { ticketId: t.ticketId, tender: { kind: 'cash', tenderedCents: 100 } }));
      expect(value(await m.send('transactions.list', {}))[0]).toMatchObject({
        userTransactionNumber: 'L1-oldlane-8',
        employeeName: 'Manager',
      });
    } finally {
      await core.stop();
    }
  });

  it('a replaced key file is refused at start with words that say what to do, not a terminal nobody can sign in to', async () => {
    const dataDir = tempDir();
    const first = await startLane({ gateway: gw, dataDir, signIn: null });
    await first.close();
    writeFileSync(join(dataDir, 'terminal.key'), randomBytes(32), { mode: 0o600 });
    const core = await createTerminalCore({
      dataDir,
      gateway: sandboxGatewayDefaults(gw.baseUrl),
      devices: { kind: 'simulated' },
      sandbox: true,
      deviceManager: { heartbeatMs: 60_000, rediscoveryMs: 0 },
    });
    try {
      await expect(core.start()).rejects.toThrow(
        /terminal\.key is not the key this journal's employee PINs were kept with/,
      );
    } finally {
      await core.stop();
    }
  });
});
