import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTill, startLane, value, type Lane } from '../helpers';

/**
 * transactions.list in pages: each row carries an opaque cursor, `before` continues after it along the
 * journal's (created_at, seq) index, and every page is bounded by `limit`. Rows made within the same
 * millisecond (cash sales in a row) are neither lost nor repeated across pages.
 */
describe('transactions.list pages with a cursor', () => {
  let lane: Lane;
  const made: string[] = [];

  beforeAll(async () => {
    lane = await startLane();
    // Cash goes through the till in the drawer.
    await openTill(lane.bridge);
    for (let i = 1; i <= 7; i += 1) {
      const t = value(await lane.bridge.send('sale.open', { subtotalCents: 100 * i, taxCents: 0 }));
      const paid = value(
        await lane.bridge.send('sale.pay', {
          ticketId: t.ticketId,
          tender: { kind: 'cash', tenderedCents: 100 * i },
        }),
      );
      made.push(paid.tender.userTransactionNumber ?? '');
    }
  }, 60_000);
  afterAll(async () => {
    await lane?.close();
  });

  it('pages of three walk the whole list, newest first, without gaps or repeats', async () => {
    const whole = value(await lane.bridge.send('transactions.list', {}));
    expect(whole.map((r) => r.userTransactionNumber)).toEqual(expect.arrayContaining(made));
    const pages: string[][] = [];
    let before: string | undefined;
    for (let i = 0; i < 10; i += 1) {
      const page = value(
        await lane.bridge.send('transactions.list', { limit: 3, ...(before ? { before } : {}) }),
      );
      expect(page.length).toBeLessThanOrEqual(3);
      if (page.length === 0) break;
      pages.push(page.map((r) => r.userTransactionNumber));
      before = page.at(-1)?.cursor;
      expect(typeof before).toBe('string');
    }
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(whole.map((r) => r.userTransactionNumber));
  });

  it('a search pages the same way', async () => {
    const first = value(await lane.bridge.send('transactions.list', { amountCents: 300, limit: 1 }));
    expect(first.map((r) => r.amountCents)).toEqual([300]);
    const cursor = first[0]?.cursor ?? '';
    const next = value(
      await lane.bridge.send('transactions.list', { amountCents: 300, limit: 1, before: cursor }),
    );
    expect(next).toEqual([]);
  });

  it('refuses a cursor it did not give, and any page larger than the bound', async () => {
    for (const before of ['', 'not-a-cursor', '1.2.3', 'zzzzzzzzzzzzzzzzzzzz-1', '-1-1']) {
      const r = await lane.bridge.send('transactions.list', { before });
      expect(r.ok ? 'ok' : r.error.code, before).toBe('invalid');
    }
    const big = value(await lane.bridge.send('transactions.list', { limit: 1_000_000 }));
    expect(big.length).toBeLessThanOrEqual(5000);
  });
});
