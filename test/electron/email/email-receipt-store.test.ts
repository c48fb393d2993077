import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { JournalStore, migrate, openJournalDatabase } from '../../../electron/journal/journal-store';
import type { NewEmailReceipt } from '../../../electron/journal/email-receipt-store';
import { journalMigrations } from '../../../electron/journal/migrations/index';

/**
 * Migration 009 and the emailed-receipt queue's store: once per receipt and address, the lifecycle the
 * sender drives, and the address kept only while it is needed (the table refuses a sent row with one).
 */

const dirs: string[] = [];
function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tillpoint-email-store-'));
  dirs.push(dir);
  return join(dir, 'journal.sqlite');
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const ADDRESS = Buffer.from('sealed:ana@example.com');

function entry(over: Partial<NewEmailReceipt> = {}): NewEmailReceipt {
  return {
    receiptKey: 'ticket:T1',
    addressKey: 'k-ana',
    addressMasked: 'a***@example.com',
    messageId: '<m1@example.com>',
    sealedAddress: { ciphertext: ADDRESS, iv: Buffer.from([1, 2]), tag: Buffer.from([3, 4]) },
    content: '{"receipt":"CUSTOMER COPY ****4444"}',
    now: 1_000,
    giveUpAt: 1_000 + 86_400_000,
    maxAddresses: 5,
    ...over,
  };
}

/** The row queued (or found): a refusal for too many addresses fails the test here. */
function enqueue(s: JournalStore, e: NewEmailReceipt) {
  const r = s.emailEnqueue(e);
  if (!r.row) throw new Error(`not queued: ${r.outcome}`);
  return { row: r.row, outcome: r.outcome };
}

describe('migration 009: the emailed-receipt queue', () => {
  it('migrates a version-7 journal with real rows to version 9, keeping them, and the queue works', () => {
    const path = tempDb();
    const v7 = new Database(path);
    migrate(
      v7,
      journalMigrations.filter((m) => m.version <= 7),
    );
    expect(v7.pragma('user_version', { simple: true })).toBe(7);
    v7.prepare('INSERT INTO lane_counter (id, last_seq, epoch) VALUES (1, 7, ?)').run('abc');
    v7.prepare(
      `INSERT INTO journal (utn, seq, lane_id, ticket_id, operation, state, amount_cents, approved_cents, last4,
         created_at, updated_at) VALUES ('L1-abc-7', 7, 'L1', 'T1', 'sale', 'approved', 500, 500, '4444', 1, 1)`,
    ).run();
    v7.prepare(
      "INSERT INTO tickets (ticket_id, status, data, opened_at, closed_at) VALUES ('T1', 'paid', '{}', 1, 2)",
    ).run();
    v7.close();

    const db = openJournalDatabase(path);
    // Through 009 and every later migration.
    expect(db.pragma('user_version', { simple: true })).toBe(journalMigrations.at(-1)?.version);
    const s = new JournalStore(db);
    expect(s.get('L1-abc-7')?.approvedCents).toBe(500);
    expect(s.getTicket('T1')?.status).toBe('paid');
    const { row, outcome } = enqueue(s, entry());
    expect(outcome).toBe('queued');
    expect(row).toMatchObject({ receiptKey: 'ticket:T1', state: 'queued', attempts: 0, hasAddress: true });
    db.close();
  });

  it('a sent row cannot keep the address, and a waiting row must have it (CHECK)', () => {
    const db = openJournalDatabase(tempDb());
    const s = new JournalStore(db);
    const { row } = enqueue(s, entry());
    expect(() => db.prepare("UPDATE email_receipts SET state = 'sent' WHERE id = ?").run(row.id)).toThrow(
      /CHECK constraint failed/,
    );
    expect(() =>
      db
        .prepare(
          'UPDATE email_receipts SET address_ciphertext = NULL, address_iv = NULL, address_tag = NULL WHERE id = ?',
        )
        .run(row.id),
    ).toThrow(/CHECK constraint failed/);
    db.close();
  });
});

describe('the emailed-receipt queue', () => {
  it('once per receipt and address: a second request is the same row, whatever its state', () => {
    const db = openJournalDatabase(tempDb());
    const s = new JournalStore(db);
    const first = enqueue(s, entry());
    const again = enqueue(s, entry({ messageId: '<m2@example.com>', now: 2_000 }));
    expect(again.outcome).toBe('already-queued');
    expect(again.row.id).toBe(first.row.id);
    expect(again.row.messageId).toBe('<m1@example.com>');
    // Another address for the same receipt, and the same address for another receipt, are new rows.
    expect(enqueue(s, entry({ addressKey: 'k-bob', messageId: '<m3@x>' })).outcome).toBe('queued');
    expect(enqueue(s, entry({ receiptKey: 'ticket:T2', messageId: '<m4@x>' })).outcome).toBe('queued');

    expect(s.emailSending(first.row.id)).toBe(true);
    expect(s.emailSending(first.row.id)).toBe(false);
    const sent = s.emailSent(first.row.id, 3_000);
    expect(sent).toMatchObject({ state: 'sent', attempts: 1, finishedAt: 3_000, hasAddress: false });
    const after = enqueue(s, entry({ messageId: '<m5@x>', now: 4_000 }));
    expect(after.outcome).toBe('already-sent');
    expect(after.row.id).toBe(first.row.id);
    db.close();
  });

  it('sent: the address and the receipt are gone from the file, not only from the row', () => {
    const path = tempDb();
    const db = openJournalDatabase(path);
    const s = new JournalStore(db);
    const { row } = enqueue(s, entry());
    s.emailSending(row.id);
    s.emailSent(row.id, 2_000);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const bytes = readFileSync(path);
    // secure_delete overwrites freed bytes: neither the sealed address nor the receipt text remain.
    expect(bytes.includes(ADDRESS)).toBe(false);
    expect(bytes.includes(Buffer.from('CUSTOMER COPY ****4444'))).toBe(false);
  });

  it('due rows in order of their next attempt; retry later with backoff; recover a lost attempt', () => {
    const db = openJournalDatabase(tempDb());
    const s = new JournalStore(db);
    const a = enqueue(s, entry()).row;
    const b = enqueue(s, entry({ receiptKey: 'ticket:T2', messageId: '<b@x>', now: 1_500 })).row;
    expect(s.emailDue(1_200, 10).map((r) => r.id)).toEqual([a.id]);
    const due = s.emailDue(2_000, 10);
    expect(due.map((r) => r.id)).toEqual([a.id, b.id]);
    expect(Buffer.from(due[0]?.sealedAddress.ciphertext ?? []).equals(ADDRESS)).toBe(true);
    expect(due[0]?.content).toContain('CUSTOMER COPY');

    s.emailSending(a.id);
    const later = s.emailRetryLater(a.id, 60_000, 'The mail server did not answer.');
    expect(later).toMatchObject({ state: 'queued', attempts: 1, nextAttemptAt: 60_000 });
    expect(later.lastError).toBe('The mail server did not answer.');
    expect(s.emailNextAttemptAt()).toBe(1_500);
    expect(s.emailDue(2_000, 10).map((r) => r.id)).toEqual([b.id]);

    // A stop in the middle of an attempt: the row goes back to the queue with its Message-ID.
    s.emailSending(b.id);
    expect(s.emailCounts(0)).toEqual({ waiting: 2, failed: 0 });
    expect(s.emailRecover()).toBe(1);
    expect(s.emailDue(2_000, 10).map((r) => [r.id, r.state, r.messageId])).toEqual([
      [b.id, 'queued', '<b@x>'],
    ]);
    // New mail settings: every waiting row is due now.
    expect(s.emailRetryAll(5_000)).toBe(1);
    expect(
      s
        .emailDue(5_000, 10)
        .map((r) => r.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    db.close();
  });

  it('failed: kept for a retry until the purge erases the address; Retry and a new request queue it again', () => {
    const db = openJournalDatabase(tempDb());
    const s = new JournalStore(db);
    const { row } = enqueue(s, entry());
    s.emailSending(row.id);
    const failed = s.emailFailed(row.id, 10_000, 'The mail server refused the address (550).');
    expect(failed).toMatchObject({ state: 'failed', finishedAt: 10_000, hasAddress: true });
    expect(s.emailCounts(9_000)).toEqual({ waiting: 0, failed: 1 });
    expect(s.emailCounts(11_000)).toEqual({ waiting: 0, failed: 0 });

    const retried = s.emailRetry(row.id, 20_000, 99_000);
    expect(retried).toMatchObject({ state: 'queued', attempts: 0, nextAttemptAt: 20_000, giveUpAt: 99_000 });
    s.emailSending(row.id);
    s.emailFailed(row.id, 30_000, 'again');

    expect(s.emailPurge(30_000)).toBe(0);
    expect(s.emailPurge(30_001)).toBe(1);
    const purged = s.emailList(10)[0];
    expect(purged).toMatchObject({ state: 'failed', hasAddress: false, addressMasked: 'a***@example.com' });
    // Its address is gone: Retry cannot send it; the cashier asks the customer again (a new request).
    expect(s.emailRetry(row.id, 40_000, 99_000)?.state).toBe('failed');
    const again = enqueue(s, entry({ messageId: '<new@x>', now: 50_000, giveUpAt: 150_000 }));
    expect(again.outcome).toBe('requeued');
    expect(again.row).toMatchObject({
      id: row.id,
      state: 'queued',
      hasAddress: true,
      messageId: '<m1@example.com>',
    });
    expect(s.emailRetry(12345, 1, 2)).toBeUndefined();
    db.close();
  });

  it('a receipt goes to at most maxAddresses addresses; asking again for one of them is still answered', () => {
    const db = openJournalDatabase(tempDb());
    const s = new JournalStore(db);
    for (let i = 0; i < 3; i += 1)
      enqueue(s, entry({ addressKey: `k${i}`, messageId: `<${i}@x>`, maxAddresses: 3 }));
    expect(s.emailEnqueue(entry({ addressKey: 'k3', messageId: '<3@x>', maxAddresses: 3 }))).toEqual({
      outcome: 'too-many',
    });
    expect(s.emailEnqueue(entry({ addressKey: 'k1', messageId: '<4@x>', maxAddresses: 3 })).outcome).toBe(
      'already-queued',
    );
    // Another receipt is not counted against this one.
    expect(
      enqueue(s, entry({ receiptKey: 'ticket:T9', addressKey: 'k3', messageId: '<5@x>', maxAddresses: 3 }))
        .outcome,
    ).toBe('queued');
    db.close();
  });

  it('lists newest first, paged by (created_at, id)', () => {
    const db = openJournalDatabase(tempDb());
    const s = new JournalStore(db);
    for (let i = 0; i < 5; i += 1)
      s.emailEnqueue(
        entry({ receiptKey: `ticket:T${i}`, messageId: `<${i}@x>`, now: 1_000 + Math.floor(i / 2) }),
      );
    const first = s.emailList(3);
    expect(first.map((r) => r.receiptKey)).toEqual(['ticket:T4', 'ticket:T3', 'ticket:T2']);
    const last = first.at(-1);
    const next = s.emailList(3, { createdAt: last?.createdAt ?? 0, id: last?.id ?? 0 });
    expect(next.map((r) => r.receiptKey)).toEqual(['ticket:T1', 'ticket:T0']);
    db.close();
  });
});
