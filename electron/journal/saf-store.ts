import type Database from 'better-sqlite3';
import type { EntryPatch, JournalRow, SalesStore } from './sales-store';

export type SafRow = {
  utn: string;
  state: 'queued' | 'forwarding' | 'forwarded' | 'declined' | 'expired' | 'failed';
  amountCents: number;
  last4: string;
  cardType: string | null;
  storedAt: number;
  forwardedAt: number | null;
  message: string | null;
};

export type SafSealed = { ciphertext: Uint8Array; iv: Uint8Array; tag: Uint8Array };

/**
 * The `saf_queue` table: sales stored offline (store-forward/saf.ts), their card data sealed, deleted in
 * the statement that records the forwarded answer.
 */
export class SafStore {
  private readonly stmt;

  constructor(
    private readonly db: Database.Database,
    private readonly sales: SalesStore,
  ) {
    this.stmt = {
      safInsert: db.prepare(
        `INSERT INTO saf_queue (utn, state, amount_cents, last4, card_type, ciphertext, iv, tag, stored_at)
         VALUES (?, 'queued', ?, ?, ?, ?, ?, ?, ?)`,
      ),
      safList: db.prepare<[number], SqlSaf>(
        'SELECT utn, state, amount_cents, last4, card_type, stored_at, forwarded_at, message FROM saf_queue ORDER BY stored_at DESC LIMIT ?',
      ),
      safQueued: db.prepare<[], SqlSaf>(
        "SELECT utn, state, amount_cents, last4, card_type, stored_at, forwarded_at, message FROM saf_queue WHERE state IN ('queued', 'forwarding') ORDER BY stored_at",
      ),
      safExposure: db.prepare<[], { total: number | null; n: number }>(
        "SELECT SUM(amount_cents) AS total, COUNT(*) AS n FROM saf_queue WHERE state IN ('queued', 'forwarding')",
      ),
      safSealed: db.prepare<[string], { ciphertext: Buffer | null; iv: Buffer | null; tag: Buffer | null }>(
        'SELECT ciphertext, iv, tag FROM saf_queue WHERE utn = ?',
      ),
      safState: db.prepare('UPDATE saf_queue SET state = ?, message = ? WHERE utn = ?'),
      safFinish: db.prepare(
        'UPDATE saf_queue SET state = ?, message = ?, forwarded_at = ?, ciphertext = NULL, iv = NULL, tag = NULL WHERE utn = ?',
      ),
    };
  }

  /** The entry and its sealed card data, in one transaction: a stored sale is journaled and queued together. */
  safStore(
    utn: string,
    amountCents: number,
    last4: string,
    cardType: string | null,
    sealed: SafSealed,
    now: number,
  ): JournalRow {
    return this.db.transaction(() => {
      this.stmt.safInsert.run(
        utn,
        amountCents,
        last4,
        cardType,
        Buffer.from(sealed.ciphertext),
        Buffer.from(sealed.iv),
        Buffer.from(sealed.tag),
        now,
      );
      return this.sales.update(
        utn,
        {
          state: 'stored',
          approvedCents: amountCents,
          message: 'Stored offline; forwarded when the gateway returns',
        },
        now,
      );
    })();
  }

  safList(limit: number): SafRow[] {
    return this.stmt.safList.all(limit).map(toSaf);
  }

  safQueued(): SafRow[] {
    return this.stmt.safQueued.all().map(toSaf);
  }

  safExposure(): { exposureCents: number; count: number } {
    const r = this.stmt.safExposure.get();
    return { exposureCents: r?.total ?? 0, count: r?.n ?? 0 };
  }

  safSealed(utn: string): SafSealed | undefined {
    const r = this.stmt.safSealed.get(utn);
    if (!r?.ciphertext || !r.iv || !r.tag) return undefined;
    return { ciphertext: r.ciphertext, iv: r.iv, tag: r.tag };
  }

  safMark(utn: string, state: SafRow['state'], message: string | null): void {
    this.stmt.safState.run(state, message, utn);
  }

  /** Final state of a stored sale; its card data is deleted in the same statement. */
  safFinish(
    utn: string,
    state: SafRow['state'],
    message: string,
    now: number,
    journal: EntryPatch,
  ): JournalRow {
    return this.db.transaction(() => {
      this.stmt.safFinish.run(state, message, now, utn);
      return this.sales.update(utn, journal, now);
    })();
  }
}

type SqlSaf = {
  utn: string;
  state: SafRow['state'];
  amount_cents: number;
  last4: string;
  card_type: string | null;
  stored_at: number;
  forwarded_at: number | null;
  message: string | null;
};

function toSaf(r: SqlSaf): SafRow {
  return {
    utn: r.utn,
    state: r.state,
    amountCents: r.amount_cents,
    last4: r.last4,
    cardType: r.card_type,
    storedAt: r.stored_at,
    forwardedAt: r.forwarded_at,
    message: r.message,
  };
}
