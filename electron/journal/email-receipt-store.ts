import type Database from 'better-sqlite3';

/**
 * The emailed-receipt queue's table (migration 009), in the journal's worker thread like the rest of the
 * journal: JournalStore hands its `email*` methods here. Every statement is prepared once with bound
 * parameters and read along an index (test/electron/journal/journal-plans.test.ts).
 */

export type EmailReceiptState = 'queued' | 'sending' | 'sent' | 'failed';

/** AES-256-GCM output, as util/key-file.ts's sealer gives it. */
export type SealedAddress = { ciphertext: Uint8Array; iv: Uint8Array; tag: Uint8Array };

/** A queue row as the manager's list shows it: never the address, only its mask. */
export type EmailReceiptRow = {
  id: number;
  receiptKey: string;
  addressMasked: string;
  messageId: string;
  state: EmailReceiptState;
  attempts: number;
  nextAttemptAt: number;
  giveUpAt: number;
  lastError: string | null;
  createdAt: number;
  /** When it was sent or given up on. */
  finishedAt: number | null;
  /** False once the address was erased (sent, or failed longer than a retry is allowed). */
  hasAddress: boolean;
};

/**
 * A row the sender works on: its sealed address (sealed with `emailSealContext` as associated data, so a
 * sealed address copied onto another row does not open) and the receipt to render.
 */
export type EmailReceiptWork = EmailReceiptRow & {
  addressKey: string;
  sealedAddress: SealedAddress;
  content: string;
};

/** The associated data an address is sealed with: its receipt and its keyed hash, fixed for the row. */
export function emailSealContext(receiptKey: string, addressKey: string): string {
  return `email-receipt:${receiptKey}:${addressKey}`;
}

export type NewEmailReceipt = {
  receiptKey: string;
  addressKey: string;
  addressMasked: string;
  messageId: string;
  sealedAddress: SealedAddress;
  content: string;
  now: number;
  giveUpAt: number;
  /** How many addresses one receipt may go to: a receipt is the customer's, not a mailing list. */
  maxAddresses: number;
};

/**
 * - `queued`: a new row.
 * - `requeued`: the same receipt to the same address had been given up on; it goes again (same row,
 *   same Message-ID).
 * - `already-queued` / `already-sent`: nothing new; the lane sends a receipt to an address once.
 */
export type EmailEnqueueOutcome = 'queued' | 'requeued' | 'already-queued' | 'already-sent';

/** `too-many`: the receipt already went to `maxAddresses` addresses; nothing was queued. */
export type EmailEnqueueResult =
  { row: EmailReceiptRow; outcome: EmailEnqueueOutcome } | { row?: undefined; outcome: 'too-many' };

type SqlRow = {
  id: number;
  receipt_key: string;
  address_masked: string;
  message_id: string;
  state: EmailReceiptState;
  attempts: number;
  next_attempt_at: number;
  give_up_at: number;
  last_error: string | null;
  created_at: number;
  finished_at: number | null;
  has_address: number;
};
type SqlWork = SqlRow & {
  address_key: string;
  address_ciphertext: Buffer;
  address_iv: Buffer;
  address_tag: Buffer;
  content: string;
};

const ROW = `id, receipt_key, address_masked, message_id, state, attempts, next_attempt_at, give_up_at, last_error,
  created_at, finished_at, address_ciphertext IS NOT NULL AS has_address`;

function toRow(r: SqlRow): EmailReceiptRow {
  return {
    id: r.id,
    receiptKey: r.receipt_key,
    addressMasked: r.address_masked,
    messageId: r.message_id,
    state: r.state,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    giveUpAt: r.give_up_at,
    lastError: r.last_error,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
    hasAddress: r.has_address === 1,
  };
}

export class EmailReceiptStore {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      byId: db.prepare<[number], SqlRow>(`SELECT ${ROW} FROM email_receipts WHERE id = ?`),
      addresses: db.prepare<[string], { n: number }>(
        'SELECT count(*) AS n FROM email_receipts WHERE receipt_key = ?',
      ),
      once: db.prepare<[string, string], SqlRow>(
        `SELECT ${ROW} FROM email_receipts WHERE receipt_key = ? AND address_key = ?`,
      ),
      insert: db.prepare(
        `INSERT INTO email_receipts (receipt_key, address_key, address_masked, message_id, state, attempts,
           next_attempt_at, give_up_at, address_ciphertext, address_iv, address_tag, content, created_at)
         VALUES (@receiptKey, @addressKey, @addressMasked, @messageId, 'queued', 0, @now, @giveUpAt,
           @ciphertext, @iv, @tag, @content, @now)`,
      ),
      requeue: db.prepare(
        `UPDATE email_receipts SET state = 'queued', attempts = 0, next_attempt_at = @now, give_up_at = @giveUpAt,
           last_error = NULL, finished_at = NULL, address_masked = @addressMasked, address_ciphertext = @ciphertext,
           address_iv = @iv, address_tag = @tag, content = @content
         WHERE id = @id AND state = 'failed'`,
      ),
      due: db.prepare<[number, number], SqlWork>(
        `SELECT ${ROW}, address_key, address_ciphertext, address_iv, address_tag, content FROM email_receipts
         WHERE state = 'queued' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?`,
      ),
      nextDue: db.prepare<[], { at: number | null }>(
        "SELECT min(next_attempt_at) AS at FROM email_receipts WHERE state = 'queued'",
      ),
      sending: db.prepare("UPDATE email_receipts SET state = 'sending' WHERE id = ? AND state = 'queued'"),
      // The address and the receipt go in the statement that records the email sent (the table's CHECK).
      sent: db.prepare(
        `UPDATE email_receipts SET state = 'sent', attempts = attempts + 1, finished_at = ?, last_error = NULL,
           address_ciphertext = NULL, address_iv = NULL, address_tag = NULL, content = NULL
         WHERE id = ? AND state = 'sending'`,
      ),
      later: db.prepare(
        `UPDATE email_receipts SET state = 'queued', attempts = attempts + 1, next_attempt_at = ?, last_error = ?
         WHERE id = ? AND state = 'sending'`,
      ),
      failed: db.prepare(
        `UPDATE email_receipts SET state = 'failed', attempts = attempts + 1, finished_at = ?, last_error = ?
         WHERE id = ? AND state = 'sending'`,
      ),
      retryQueued: db.prepare(
        "UPDATE email_receipts SET next_attempt_at = ? WHERE id = ? AND state = 'queued'",
      ),
      retryFailed: db.prepare(
        `UPDATE email_receipts SET state = 'queued', attempts = 0, next_attempt_at = ?, give_up_at = ?, finished_at = NULL
         WHERE id = ? AND state = 'failed' AND address_ciphertext IS NOT NULL`,
      ),
      retryAll: db.prepare(
        "UPDATE email_receipts SET next_attempt_at = ? WHERE state = 'queued' AND next_attempt_at > ?",
      ),
      recover: db.prepare("UPDATE email_receipts SET state = 'queued' WHERE state = 'sending'"),
      newest: db.prepare<[number], SqlRow>(
        `SELECT ${ROW} FROM email_receipts ORDER BY created_at DESC, id DESC LIMIT ?`,
      ),
      before: db.prepare<[number, number, number], SqlRow>(
        `SELECT ${ROW} FROM email_receipts WHERE (created_at, id) < (?, ?)
         ORDER BY created_at DESC, id DESC LIMIT ?`,
      ),
      waiting: db.prepare<[], { n: number }>(
        "SELECT count(*) AS n FROM email_receipts WHERE state IN ('queued', 'sending')",
      ),
      failedSince: db.prepare<[number], { n: number }>(
        "SELECT count(*) AS n FROM email_receipts WHERE state = 'failed' AND finished_at >= ?",
      ),
      purge: db.prepare(
        `UPDATE email_receipts SET address_ciphertext = NULL, address_iv = NULL, address_tag = NULL, content = NULL
         WHERE state = 'failed' AND finished_at < ? AND address_ciphertext IS NOT NULL`,
      ),
    };
  }

  private row(id: number): EmailReceiptRow {
    const r = this.stmt.byId.get(id);
    if (!r) throw new Error(`email receipt ${id} does not exist`);
    return toRow(r);
  }

  /** Queues the receipt for the address, once: see EmailEnqueueOutcome. One transaction (the worker's). */
  enqueue(e: NewEmailReceipt): EmailEnqueueResult {
    const sealed = {
      ciphertext: Buffer.from(e.sealedAddress.ciphertext),
      iv: Buffer.from(e.sealedAddress.iv),
      tag: Buffer.from(e.sealedAddress.tag),
    };
    const existing = this.stmt.once.get(e.receiptKey, e.addressKey);
    if (!existing && (this.stmt.addresses.get(e.receiptKey)?.n ?? 0) >= e.maxAddresses)
      return { outcome: 'too-many' };
    if (!existing) {
      const r = this.stmt.insert.run({
        receiptKey: e.receiptKey,
        addressKey: e.addressKey,
        addressMasked: e.addressMasked,
        messageId: e.messageId,
        now: e.now,
        giveUpAt: e.giveUpAt,
        content: e.content,
        ...sealed,
      });
      return { row: this.row(Number(r.lastInsertRowid)), outcome: 'queued' };
    }
    if (existing.state === 'failed') {
      // The same row and Message-ID: the address is sealed to (receipt, address key), which have not changed.
      this.stmt.requeue.run({
        id: existing.id,
        now: e.now,
        giveUpAt: e.giveUpAt,
        addressMasked: e.addressMasked,
        content: e.content,
        ...sealed,
      });
      return { row: this.row(existing.id), outcome: 'requeued' };
    }
    return {
      row: toRow(existing),
      outcome: existing.state === 'sent' ? 'already-sent' : 'already-queued',
    };
  }

  due(now: number, limit: number): EmailReceiptWork[] {
    return this.stmt.due.all(now, limit).map((r) => ({
      ...toRow(r),
      addressKey: r.address_key,
      sealedAddress: { ciphertext: r.address_ciphertext, iv: r.address_iv, tag: r.address_tag },
      content: r.content,
    }));
  }

  nextAttemptAt(): number | undefined {
    return this.stmt.nextDue.get()?.at ?? undefined;
  }

  /** Claims a queued row for one attempt; false when it is no longer queued. */
  sending(id: number): boolean {
    return this.stmt.sending.run(id).changes === 1;
  }

  sent(id: number, now: number): EmailReceiptRow {
    this.stmt.sent.run(now, id);
    return this.row(id);
  }

  retryLater(id: number, nextAttemptAt: number, error: string): EmailReceiptRow {
    this.stmt.later.run(nextAttemptAt, error, id);
    return this.row(id);
  }

  failed(id: number, now: number, error: string): EmailReceiptRow {
    this.stmt.failed.run(now, error, id);
    return this.row(id);
  }

  /**
   * A manager's Retry: a queued row is tried now; one given up on is queued again (with a new deadline)
   * while its address is kept. Anything else is left as it is. Undefined for an unknown id.
   */
  retry(id: number, now: number, giveUpAt: number): EmailReceiptRow | undefined {
    const r = this.stmt.byId.get(id);
    if (!r) return undefined;
    if (r.state === 'queued') this.stmt.retryQueued.run(now, id);
    else if (r.state === 'failed') this.stmt.retryFailed.run(now, giveUpAt, id);
    return this.row(id);
  }

  /** Every waiting row is due now (the mail settings changed: the old backoff was for the old server). */
  retryAll(now: number): number {
    return this.stmt.retryAll.run(now, now).changes;
  }

  /** Rows left `sending` by a stop or a crash go back to the queue: their answer never arrived. */
  recover(): number {
    return this.stmt.recover.run().changes;
  }

  list(limit: number, before?: { createdAt: number; id: number }): EmailReceiptRow[] {
    const rows = before
      ? this.stmt.before.all(before.createdAt, before.id, limit)
      : this.stmt.newest.all(limit);
    return rows.map(toRow);
  }

  counts(failedSince: number): { waiting: number; failed: number } {
    return {
      waiting: this.stmt.waiting.get()?.n ?? 0,
      failed: this.stmt.failedSince.get(failedSince)?.n ?? 0,
    };
  }

  /** Erases the address (and the receipt) of emails given up on before `before`. */
  purge(before: number): number {
    return this.stmt.purge.run(before).changes;
  }
}
