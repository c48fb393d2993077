import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refundableCents } from '../../../common/transaction-amounts';
import { storeDay } from '../../../common/store-time';
import { priceTicket } from '../../../common/ticket-pricing';
import type { BridgeConnection } from '../../../electron/bridge/connection';
import type { BridgeResult, TicketView, TransactionView } from '../../../common/bridge/contract';
import { JournalStore, openJournalDatabase } from '../../../electron/journal/journal-store';
import { defaultOrder, planReturn, type TenderFunds } from '../../../electron/returns/return-rules';
import { ControlledProcessor } from '../../support/controlled-processor';
import { merchant1, startGateway, type TestGateway } from '../../support/gateway-harness';
import { assertProperty, propertyRun } from '../../support/property-run';
import { eventually, openTill, startLane, value, type Lane } from '../helpers';

/**
 * Issue 19, "Returns from a receipt", through the bridge on a real terminal core (real SQLite journal and
 * catalog, the sandbox gateway over loopback, simulated devices and printer): a sale found by its receipt
 * number, by store days, last four and amount, on any day (a clock the test moves); its lines with what
 * earlier returns took; never more than was sold across every return, also from two windows at once and a
 * request sent twice; the money in proportion to the cent (a property over the real core); back to the
 * sale's own tenders — the card by DoRefund (or DoVoid while unsettled and whole), cash out of the till —
 * in the cashier's order; without a receipt only with a manager, to cash or a gift card; its own receipt;
 * the till's X report and the manager's figures by tender; every statement of the returns read along an
 * index.
 */

const code = <T>(r: BridgeResult<T>) => (r.ok ? 'ok' : r.error.code);
const message = <T>(r: BridgeResult<T>) => (r.ok ? '' : r.error.message);
const CARD = { cardNumber: '4111111111111111', expiry: '1230' };
const DAY = 86_400_000;

let gw: TestGateway;
/** The sandbox processor, with a hand to refuse its refunds for a while (processor unreachable). */
const processor = new ControlledProcessor();
let lane: Lane;
let manager: BridgeConnection;
let offset = 0;
const clock = { now: () => Date.now() + offset };
let requests = 0;
const requestId = () => `test-return-${++requests}-${process.pid}`;

async function signedIn(pin: string): Promise<BridgeConnection> {
  const b = lane.core.connect();
  value(await b.send('session.signIn', { pin }));
  return b;
}

async function itemId(sku: string): Promise<number> {
  return value(await lane.bridge.send('catalog.lookup', { sku })).item.id;
}

/** A ticket of lines from the demo catalog, open. */
async function ticketOf(items: [string, number][], b: BridgeConnection = lane.bridge): Promise<TicketView> {
  let t = value(await b.send('ticket.open', {}));
  for (const [sku, quantity] of items)
    t = value(await b.send('ticket.addItem', { ticketId: t.ticketId, itemId: await itemId(sku), quantity }));
  return t;
}

async function payCash(t: TicketView, amountCents?: number, b = lane.bridge) {
  const due = amountCents ?? t.remainingCents;
  return value(
    await b.send('sale.pay', {
      ticketId: t.ticketId,
      ...(amountCents !== undefined ? { amountCents } : {}),
      tender: { kind: 'cash', tenderedCents: due },
    }),
  );
}

async function payCard(t: TicketView, b = lane.bridge) {
  return value(
    await b.send('sale.pay', {
      ticketId: t.ticketId,
      tender: { kind: 'credit', entry: 'keyed', keyed: CARD },
    }),
  );
}

async function tx(utn: string): Promise<TransactionView> {
  const row = await lane.core.journal.get(utn);
  if (!row) throw new Error(`no row ${utn}`);
  return {
    userTransactionNumber: row.utn,
    operation: row.operation,
    state: row.state,
    amountCents: row.amountCents,
    tipCents: row.tipCents,
    cashBackCents: row.cashBackCents,
    approvedCents: row.approvedCents,
    refundedCents: row.refundedCents,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    ...(row.originalSrn ? { originalServiceReferenceNumber: row.originalSrn } : {}),
    ...(row.last4 ? { last4: row.last4 } : {}),
  };
}

async function lineNo(ticketId: string, name: string): Promise<number> {
  const s = value(await lane.bridge.send('returns.sale', { ticketId }));
  const l = s.lines.find((x) => x.name === name);
  if (!l) throw new Error(`no line ${name}`);
  return l.lineNo;
}

async function expectedInDrawer(): Promise<number> {
  const status = value(await manager.send('till.status', {}));
  const tillId = status.active?.tillId;
  if (tillId === undefined) throw new Error('no till open');
  return value(await manager.send('till.report', { tillId })).tills[0]?.figures.expectedCents ?? NaN;
}

beforeAll(async () => {
  gw = await startGateway({ processor });
  lane = await startLane({ gateway: gw, core: { clock } });
  manager = await signedIn('9999');
  await openTill(lane.bridge);
});

afterAll(async () => {
  await lane?.close();
  await gw?.close();
});

describe('finding the sale: by its receipt number, by store days, last four and amount — any day, paged', () => {
  let yesterday: TicketView;
  let today: TicketView;
  beforeAll(async () => {
    offset = -DAY;
    yesterday = await ticketOf([['GM-TOWEL-6', 1]]);
    yesterday = (await payCard(yesterday)).ticket;
    offset = 0;
    today = await ticketOf([['GR-CHOC-BAR', 2]]);
    today = (await payCash(today)).ticket;
  });

  it('finds yesterday’s sale by its number in every form a scan or a cashier gives it', async () => {
    const forms = [
      yesterday.ticketId,
      `TICKET ${yesterday.ticketId}`,
      `  ${yesterday.ticketId.toUpperCase()}  `,
      `tillpoint:receipt:${yesterday.ticketId}:9.73`,
    ];
    for (const receipt of forms) {
      const found = value(await lane.bridge.send('returns.find', { receipt }));
      expect(
        found.sales.map((s) => s.ticketId),
        receipt,
      ).toEqual([yesterday.ticketId]);
    }
    const s = value(await lane.bridge.send('returns.find', { receipt: yesterday.ticketId })).sales[0];
    expect(s).toMatchObject({ totalCents: 899 + 74, units: 1 });
    expect(s?.tenders).toEqual([
      {
        kind: 'credit',
        tender: 'Credit',
        label: expect.stringMatching(/\*\*\*\*1111$/) as unknown,
        amountCents: 973,
      },
    ]);
    expect(value(await lane.bridge.send('returns.find', { receipt: 'T-nothing-00000000' })).sales).toEqual(
      [],
    );
    expect(code(await lane.bridge.send('returns.find', { receipt: 'T-x', last4: '1111' }))).toBe('invalid');
    expect(code(await lane.bridge.send('returns.find', {}))).toBe('invalid');
  });

  it('reads store days in the store’s time zone: yesterday’s range finds yesterday’s sale and not today’s', async () => {
    const zone = value(await lane.bridge.send('terminal.status', {})).timeZone ?? 'UTC';
    const day = storeDay(clock.now() - DAY, zone);
    const found = value(await lane.bridge.send('returns.find', { fromDay: day, toDay: day }));
    const ids = found.sales.map((s) => s.ticketId);
    expect(ids).toContain(yesterday.ticketId);
    expect(ids).not.toContain(today.ticketId);
    const both = value(
      await lane.bridge.send('returns.find', { fromDay: day, toDay: storeDay(clock.now(), zone) }),
    ).sales.map((s) => s.ticketId);
    expect(both.indexOf(today.ticketId)).toBeLessThan(both.indexOf(yesterday.ticketId));
    expect(code(await lane.bridge.send('returns.find', { fromDay: '2030-01-02', toDay: '2030-01-01' }))).toBe(
      'invalid',
    );
  });

  it('finds by the card’s last four and by the sale’s total, on any day', async () => {
    const byCard = value(await lane.bridge.send('returns.find', { last4: '1111' })).sales.map(
      (s) => s.ticketId,
    );
    expect(byCard).toContain(yesterday.ticketId);
    expect(byCard).not.toContain(today.ticketId);
    const byAmount = value(await lane.bridge.send('returns.find', { amountCents: today.totalCents })).sales;
    expect(byAmount.map((s) => s.ticketId)).toContain(today.ticketId);
    for (const s of byAmount) expect(s.totalCents).toBe(today.totalCents);
    const both = value(
      await lane.bridge.send('returns.find', { last4: '1111', amountCents: yesterday.totalCents }),
    ).sales;
    expect(both.map((s) => s.ticketId)).toEqual([yesterday.ticketId]);
  });

  it('pages newest first on a keyset: every sale once, none skipped', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const t = await ticketOf([['GM-BAG', 1]]);
      made.push((await payCash(t)).ticket.ticketId);
    }
    const zone = value(await lane.bridge.send('terminal.status', {})).timeZone ?? 'UTC';
    const today0 = storeDay(clock.now(), zone);
    const seen: string[] = [];
    let after: { at: number; key: string } | undefined;
    for (let page = 0; page < 20; page += 1) {
      const r = value(
        await lane.bridge.send('returns.find', {
          fromDay: today0,
          toDay: today0,
          limit: 2,
          ...(after ? { after } : {}),
        }),
      );
      seen.push(...r.sales.map((s) => s.ticketId));
      if (!r.next) break;
      after = r.next;
    }
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of made) expect(seen).toContain(id);
    // Newest first: the last sale made comes before the first.
    expect(seen.indexOf(made[4] ?? '')).toBeLessThan(seen.indexOf(made[0] ?? ''));
  });
});

describe('what comes back: the lines with what earlier returns took, never more than was sold', () => {
  it('returns units in parts; the next return sees what the earlier took; one unit too many is refused and changes nothing', async () => {
    let t = await ticketOf([
      ['GR-CHOC-BAR', 3],
      ['PR-BANANA', 2],
    ]);
    t = (await payCash(t)).ticket;
    const choc = await lineNo(t.ticketId, 'Chocolate bar');
    const first = value(
      await lane.bridge.send('returns.create', {
        requestId: requestId(),
        ticketId: t.ticketId,
        lines: [{ lineNo: choc, quantity: 2 }],
      }),
    );
    expect(first.state).toBe('done');
    const sale = value(await lane.bridge.send('returns.sale', { ticketId: t.ticketId }));
    expect(sale.lines.map((l) => [l.name, l.quantity, l.returnedQuantity])).toEqual([
      ['Chocolate bar', 3, 2],
      ['Banana', 2, 0],
    ]);
    const before = await expectedInDrawer();
    const tooMany = await lane.bridge.send('returns.create', {
      requestId: requestId(),
      ticketId: t.ticketId,
      lines: [{ lineNo: choc, quantity: 2 }],
    });
    expect(code(tooMany)).toBe('conflict');
    expect(message(tooMany)).toBe('Chocolate bar: only 1 of the 3 sold can still be returned.');
    expect(await expectedInDrawer()).toBe(before);
    expect(value(await lane.bridge.send('returns.sale', { ticketId: t.ticketId })).returns).toHaveLength(1);
    value(
      await lane.bridge.send('returns.create', {
        requestId: requestId(),
        ticketId: t.ticketId,
        lines: [{ lineNo: choc, quantity: 1 }],
      }),
    );
    const none = await lane.bridge.send('returns.create', {
      requestId: requestId(),
      ticketId: t.ticketId,
      lines: [{ lineNo: choc, quantity: 1 }],
    });
    expect(message(none)).toBe('Chocolate bar: all 3 sold were returned already.');
    expect(
      code(
        await lane.bridge.send('returns.create', {
          requestId: requestId(),
          ticketId: t.ticketId,
          lines: [{ lineNo: choc, quantity: 0 }],
        }),
      ),
    ).toBe('invalid');
  });

  it('an open-amount sale is one line: its amount and tax come back, not its tip', async () => {
    const t = value(
      await lane.bridge.send('sale.open', { subtotalCents: 1000, taxCents: 80, tipCents: 200 }),
    );
    const cash = (await payCash(t)).tender.userTransactionNumber ?? '';
    const sale = value(await lane.bridge.send('returns.sale', { ticketId: t.ticketId }));
    expect(sale.itemized).toBe(false);
    expect(sale.lines).toEqual([
      expect.objectContaining({
        lineNo: 0,
        name: 'Sale amount',
        quantity: 1,
        totalCents: 1080,
        taxCents: 80,
      }),
    ]);
    const r = value(
      await lane.bridge.send('returns.create', {
        requestId: requestId(),
        ticketId: t.ticketId,
        lines: [{ lineNo: 0, quantity: 1 }],
      }),
    );
    expect(r).toMatchObject({ state: 'done', totalCents: 1080, taxCents: 80, netCents: 1000 });
    // The tip stays with the cash sale: 2.00 of the 12.80 taken is still there to refund.
    expect(refundableCents(await tx(cash))).toBe(200);
  });

  it('two windows returning the last unit at once: one return, the other refused; a request sent twice is one return', async () => {
    let t = await ticketOf([['GM-CARD', 1]]);
    t = (await payCash(t)).ticket;
    const second = await signedIn('1111');
    const line = await lineNo(t.ticketId, 'Greeting card');
    const before = await expectedInDrawer();
    const [a, b] = await Promise.all([
      lane.bridge.send('returns.create', {
        requestId: requestId(),
        ticketId: t.ticketId,
        lines: [{ lineNo: line, quantity: 1 }],
      }),
      second.send('returns.create', {
        requestId: requestId(),
        ticketId: t.ticketId,
        lines: [{ lineNo: line, quantity: 1 }],
      }),
    ]);
    expect([code(a), code(b)].sort()).toEqual(['conflict', 'ok']);
    expect(before - (await expectedInDrawer())).toBe(t.totalCents);

    let u = await ticketOf([['GM-CARD', 2]]);
    u = (await payCash(u)).ticket;
    const same = requestId();
    const ask = { requestId: same, ticketId: u.ticketId, lines: [{ lineNo: 0, quantity: 1 }] };
    const [x, y] = await Promise.all([
      lane.bridge.send('returns.create', ask),
      second.send('returns.create', ask),
    ]);
    expect(value(x).returnId).toBe(value(y).returnId);
    expect(
      value(await lane.bridge.send('returns.sale', { ticketId: u.ticketId })).lines[0]?.returnedQuantity,
    ).toBe(1);
    const again = value(await lane.bridge.send('returns.create', ask));
    expect(again.returnId).toBe(value(x).returnId);
    expect(code(await lane.bridge.send('returns.create', { ...ask, ticketId: t.ticketId }))).toBe('conflict');
  });
});

describe('the money goes back to the sale’s own tenders, in an order the cashier sees and can change', () => {
  it('a split card + cash sale: the default order gives the card back first (all of it: voided while unsettled), then cash out of the till', async () => {
    let t = await ticketOf([
      ['GM-TOWEL-6', 2],
      ['GR-OIL-500', 1],
    ]);
    // 2 × 8.99 + 1.48 tax = 19.46 taxable total; oil 7.49 exempt: 26.95 in all.
    expect(t.totalCents).toBe(1798 + 148 + 749);
    t = (await payCash(t, 1000)).ticket;
    t = (await payCard(t)).ticket;
    expect(t.status).toBe('paid');
    const sale = value(await lane.bridge.send('returns.sale', { ticketId: t.ticketId }));
    const card = sale.tenders.find((x) => x.kind === 'card');
    const cash = sale.tenders.find((x) => x.kind === 'cash');
    expect(sale.order).toEqual([card?.key, cash?.key]);

    const towels = await lineNo(t.ticketId, 'Paper towels 6 roll');
    const oil = await lineNo(t.ticketId, 'Olive oil 500 ml');
    const q = value(
      await lane.bridge.send('returns.quote', {
        ticketId: t.ticketId,
        lines: [
          { lineNo: towels, quantity: 1 },
          { lineNo: oil, quantity: 1 },
        ],
      }),
    );
    // Half the towels' line (973 of 1946, 74 of 148 tax) and the whole oil line.
    expect(q).toMatchObject({ totalCents: 973 + 749, taxCents: 74 });
    // The card paid 16.95 and all of it comes back: its batch is open, so it is voided, not refunded.
    expect(q.legs.map((l) => [l.kind, l.amountCents, l.method])).toEqual([
      ['card', 1695, 'void'],
      ['cash', 27, 'drawer'],
    ]);

    const drawer = await expectedInDrawer();
    const r = value(
      await lane.bridge.send('returns.create', {
        requestId: requestId(),
        ticketId: t.ticketId,
        lines: [
          { lineNo: towels, quantity: 1 },
          { lineNo: oil, quantity: 1 },
        ],
      }),
    );
    expect(r).toMatchObject({
      state: 'done',
      totalCents: 1722,
      taxCents: 74,
      refundedCents: 1722,
      owedCents: 0,
    });
    const [cardLeg, cashLeg] = r.legs;
    expect(cardLeg).toMatchObject({ kind: 'card', method: 'void', amountCents: 1695, state: 'done' });
    expect(await tx(cardLeg?.userTransactionNumber ?? '')).toMatchObject({
      operation: 'void',
      state: 'approved',
    });
    expect((await tx(card?.key ?? '')).state).toBe('voided');
    expect(cashLeg).toMatchObject({ kind: 'cash', method: 'drawer', amountCents: 27, state: 'done' });
    expect(drawer - (await expectedInDrawer())).toBe(27);
    expect((await tx(cash?.key ?? '')).refundedCents).toBe(27);
  });

  it('the cashier’s order puts cash first: the drawer gives what the cash paid, the card the rest by DoRefund', async () => {
    let t = await ticketOf([['GM-TOWEL-6', 2]]);
    t = (await payCash(t, 500)).ticket;
    t = (await payCard(t)).ticket;
    const sale = value(await lane.bridge.send('returns.sale', { ticketId: t.ticketId }));
    const order = [...sale.order].reverse();
    const drawer = await expectedInDrawer();
    const r = value(
      await lane.bridge.send('returns.create', {
        requestId: requestId(),
        ticketId: t.ticketId,
        lines: [{ lineNo: 0, quantity: 1 }],
        order,
      }),
    );
    // One of two towels: 8.99 + 0.74 of the 1.48 tax. Cash first (5.00), the card the rest: part of it, refunded.
    expect(r.totalCents).toBe(973);
    expect(r.legs.map((l) => [l.kind, l.amountCents, l.method, l.state])).toEqual([
      ['cash', 500, 'drawer', 'done'],
      ['card', 473, 'refund', 'done'],
    ]);
    expect(drawer - (await expectedInDrawer())).toBe(500);
    const refund = await tx(r.legs[1]?.userTransactionNumber ?? '');
    expect(refund).toMatchObject({
      operation: 'refund',
      state: 'approved',
      approvedCents: 473,
      last4: '1111',
    });
    const card = sale.tenders.find((x) => x.kind === 'card');
    expect((await tx(card?.key ?? '')).refundedCents).toBe(473);
    // The next return of the other towel: the cash is spent, so the default order gives it all to the card.
    const rest = value(
      await lane.bridge.send('returns.quote', { ticketId: t.ticketId, lines: [{ lineNo: 0, quantity: 1 }] }),
    );
    expect(rest.legs.map((l) => [l.kind, l.amountCents, l.method])).toEqual([
      ['card', t.totalCents - 973, 'refund'],
    ]);
    expect(
      code(
        await lane.bridge.send('returns.quote', {
          ticketId: t.ticketId,
          lines: [{ lineNo: 0, quantity: 1 }],
          order: ['nope'],
        }),
      ),
    ).not.toBe('ok');
  });

  it('an unsettled card payment returned whole is voided, not refunded', async () => {
    let t = await ticketOf([['GR-GUM', 1]]);
    t = (await payCard(t)).ticket;
    const q = value(
      await lane.bridge.send('returns.quote', { ticketId: t.ticketId, lines: [{ lineNo: 0, quantity: 1 }] }),
    );
    expect(q.legs.map((l) => l.method)).toEqual(['void']);
    const r = value(
      await lane.bridge.send('returns.create', {
        requestId: requestId(),
        ticketId: t.ticketId,
        lines: [{ lineNo: 0, quantity: 1 }],
      }),
    );
    expect(r.legs[0]).toMatchObject({ method: 'void', state: 'done', amountCents: t.totalCents });
    expect((await tx(t.tenders[0]?.userTransactionNumber ?? '')).state).toBe('voided');
    expect((await tx(r.legs[0]?.userTransactionNumber ?? '')).operation).toBe('void');
    // Nothing is left to give back on it: a second return of the (already returned) line is refused anyway.
    expect(
      code(
        await lane.bridge.send('returns.quote', {
          ticketId: t.ticketId,
          lines: [{ lineNo: 0, quantity: 1 }],
        }),
      ),
    ).toBe('conflict');
  });

  it('a return that moves no money changes nothing: cash with no till open is refused before anything happens', async () => {
    let t = await ticketOf([['GR-GUM', 1]]);
    t = (await payCash(t)).ticket;
    const till = value(await lane.bridge.send('till.handOver', {}));
    try {
      const r = await lane.bridge.send('returns.create', {
        requestId: requestId(),
        ticketId: t.ticketId,
        lines: [{ lineNo: 0, quantity: 1 }],
      });
      expect(code(r)).toBe('conflict');
      expect(message(r)).toMatch(/No till is open/);
      expect(
        value(await lane.bridge.send('returns.sale', { ticketId: t.ticketId })).lines[0]?.returnedQuantity,
      ).toBe(0);
    } finally {
      value(await manager.send('till.count', { tillId: till.tillId, count: { totalCents: 0 } }));
      await openTill(lane.bridge);
    }
  });
});

describe('the money, to the cent (property over the real core): every part in proportion, the whole exactly what was paid', () => {
  it('random tickets of lines with discounts and tax classes, returned in random parts, give back exactly their total and tax', async () => {
    const classes = value(await manager.send('catalog.taxClasses.list', {}));
    const run = propertyRun({ seed: 1919, numRuns: 12, timeMs: 60_000 });
    await assertProperty(
      'returns in parts',
      fc.asyncProperty(
        fc.array(
          fc.record({
            priceCents: fc.integer({ min: 1, max: 5_000 }),
            quantity: fc.integer({ min: 1, max: 5 }),
            taxClass: fc.integer({ min: 0, max: classes.length - 1 }),
            discountPercent: fc.integer({ min: 0, max: 100 }),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        fc.integer({ min: 0, max: 100 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
        async (lines, ticketPercent, choices) => {
          let t = value(await manager.send('ticket.open', {}));
          for (const l of lines) {
            t = value(
              await manager.send('ticket.addOpenItem', {
                ticketId: t.ticketId,
                priceCents: l.priceCents,
                quantity: l.quantity,
                taxClassId: classes[l.taxClass]?.id ?? 1,
              }),
            );
            const lineId = t.itemized?.lines.at(-1)?.lineId ?? '';
            if (l.discountPercent > 0)
              t = value(
                await manager.send('ticket.setLineDiscount', {
                  ticketId: t.ticketId,
                  lineId,
                  discount: { kind: 'percent', percent: l.discountPercent / 10 },
                }),
              );
          }
          if (ticketPercent > 0)
            t = value(
              await manager.send('ticket.setDiscount', {
                ticketId: t.ticketId,
                discount: { kind: 'percent', percent: ticketPercent / 10 },
              }),
            );
          t = (await payCash(t, undefined, manager)).ticket;
          const priced = priceTicket(t.itemized?.lines ?? [], t.itemized?.discount);
          const left = (t.itemized?.lines ?? []).map((l) => l.quantity);
          let back = 0;
          let tax = 0;
          const give = async (counts: number[]) => {
            const ask = counts.flatMap((q, lineNo) => (q > 0 ? [{ lineNo, quantity: q }] : []));
            if (ask.length === 0) return;
            const r = value(
              await manager.send('returns.create', {
                requestId: requestId(),
                ticketId: t.ticketId,
                lines: ask,
              }),
            );
            expect(r.state).toBe('done');
            expect(r.legs.reduce((s, l) => s + l.amountCents, 0)).toBe(r.totalCents);
            back += r.totalCents;
            tax += r.taxCents;
            counts.forEach((q, i) => (left[i] = (left[i] ?? 0) - q));
            expect(back).toBeLessThanOrEqual(t.totalCents);
          };
          for (const c of choices) await give(left.map((q, i) => (q === 0 ? 0 : (c + i) % (q + 1))));
          await give(left.map((q) => q));
          expect(back).toBe(priced.totalCents);
          expect(back).toBe(t.totalCents);
          expect(tax).toBe(priced.taxCents);
          const cash = t.tenders[0]?.userTransactionNumber ?? '';
          expect(refundableCents(await tx(cash))).toBe(0);
        },
      ),
      run,
    );
  });

  it('the plan spreads the money over the tenders in order, each up to what it can take, the parts adding up to the whole (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 40_000 }),
        fc.boolean(),
        (drawn, quantity, totalCents, reversed) => {
          // The tenders can always take the whole sale back: the last one holds the rest of it.
          const caps = drawn.map((c, i) => (i === drawn.length - 1 ? c + totalCents : c));
          const funds: TenderFunds[] = caps.map((c, i) => ({
            key: `U${i}`,
            kind: i % 2 === 0 ? 'card' : 'cash',
            tender: i % 2 === 0 ? 'Credit' : 'Cash',
            label: '',
            paidCents: c,
            refundableCents: c,
            operation: i % 2 === 0 ? 'sale' : 'cash',
          }));
          const sold = [
            { lineNo: 0, name: 'X', quantity, unitPriceCents: 0, totalCents, taxCents: 0, discountCents: 0 },
          ];
          const order = reversed ? [...defaultOrder(funds)].reverse() : defaultOrder(funds);
          const plan = planReturn({
            sold,
            returnedBefore: [0],
            returning: [{ lineNo: 0, quantity: Math.ceil(quantity / 2) }],
            funds,
            order,
          });
          expect(plan.legs.reduce((s, l) => s + l.amountCents, 0)).toBe(plan.refund.totalCents);
          // In the order given, each tender taking all it can before the next is asked.
          const at = plan.legs.map((l) => order.indexOf(l.key ?? ''));
          expect(at).toEqual([...at].sort((a, b) => a - b));
          const lastAt = at.at(-1) ?? -1;
          const taken = (key: string) => plan.legs.find((l) => l.key === key)?.amountCents ?? 0;
          for (const f of funds) expect(taken(f.key)).toBeLessThanOrEqual(f.refundableCents);
          const before = funds.filter((f) => order.indexOf(f.key) < lastAt);
          expect(before.map((f) => taken(f.key))).toEqual(before.map((f) => f.refundableCents));
        },
      ),
    );
  });

  it('the plan is refused, naming what the tenders can still take, when they cannot take the money back', () => {
    const funds: TenderFunds[] = [
      {
        key: 'U1',
        kind: 'card',
        tender: 'Credit',
        label: '',
        paidCents: 500,
        refundableCents: 200,
        operation: 'sale',
      },
    ];
    const sold = [
      {
        lineNo: 0,
        name: 'X',
        quantity: 1,
        unitPriceCents: 500,
        totalCents: 500,
        taxCents: 0,
        discountCents: 0,
      },
    ];
    expect(() =>
      planReturn({ sold, returnedBefore: [0], returning: [{ lineNo: 0, quantity: 1 }], funds }),
    ).toThrow(
      "5.00 comes back, but the sale's payments can take back only 2.00 (refunded or in a return already).",
    );
  });
});

describe('a return without a receipt needs the manager, and refunds to cash or a gift card as the store chose', () => {
  it('a cashier alone is refused; with the manager’s PIN the cash comes out of the till; the audit names both', async () => {
    const ask = {
      requestId: requestId(),
      items: [{ barcode: '036000241457', quantity: 1 }],
      reason: 'Customer lost the receipt',
    };
    const alone = await lane.bridge.send('returns.createWithoutReceipt', ask);
    expect(code(alone)).toBe('forbidden');
    const wrong = await lane.bridge.send('returns.createWithoutReceipt', {
      ...ask,
      approval: { managerPin: '1111' },
    });
    expect(code(wrong)).not.toBe('ok');
    const drawer = await expectedInDrawer();
    const r = value(
      await lane.bridge.send('returns.createWithoutReceipt', { ...ask, approval: { managerPin: '9999' } }),
    );
    expect(r).toMatchObject({ state: 'done', totalCents: 899 + 74, taxCents: 74, approvedByName: 'Manager' });
    expect(r.ticketId).toBeUndefined();
    expect(r.legs).toEqual([
      expect.objectContaining({ kind: 'cash', method: 'drawer', state: 'done', amountCents: 973 }),
    ]);
    expect(drawer - (await expectedInDrawer())).toBe(973);
    const audit = value(await manager.send('audit.list', { limit: 20 }));
    expect(audit.find((a) => a.action === 'return-without-receipt')).toMatchObject({
      employeeName: 'Cashier',
      approvedByName: 'Manager',
      detail: expect.stringContaining(`return ${r.returnId} without a receipt`) as unknown,
    });
    const receipt = value(await lane.bridge.send('returns.receipt.get', { returnId: r.returnId }));
    expect(receipt.text).toMatch(/NO RECEIPT/);
    expect(receipt.text).toMatch(/APPROVED BY MANAGER/);
  });

  it('set to gift card: the card is asked for, and the return is credited to it at the gateway', async () => {
    expect(code(await lane.bridge.send('returns.settings.set', { noReceiptRefund: 'gift-card' }))).toBe(
      'forbidden',
    );
    value(await manager.send('returns.settings.set', { noReceiptRefund: 'gift-card' }));
    try {
      const ask = {
        requestId: requestId(),
        items: [{ name: 'Mug', priceCents: 1200, quantity: 1 }],
        reason: 'No receipt',
      };
      const noCard = await manager.send('returns.createWithoutReceipt', ask);
      expect(message(noCard)).toMatch(/gift card/);
      const r = value(
        await manager.send('returns.createWithoutReceipt', {
          ...ask,
          giftCard: { entry: 'keyed', cardNumber: '6035710000000018' },
        }),
      );
      expect(r.legs).toEqual([
        expect.objectContaining({
          kind: 'gift-card',
          method: 'gift-card',
          state: 'done',
          amountCents: 1200,
          last4: '0018',
        }),
      ]);
      expect(await tx(r.legs[0]?.userTransactionNumber ?? '')).toMatchObject({
        operation: 'refund',
        state: 'approved',
        approvedCents: 1200,
      });
      const text = value(await manager.send('returns.receipt.get', { returnId: r.returnId })).text;
      expect(text).toMatch(/CREDITED TO GIFT CARD \*\*\*\*0018 +12\.00/);
      expect(text).not.toMatch(/603571/);
    } finally {
      value(await manager.send('returns.settings.set', { noReceiptRefund: 'cash' }));
    }
  });
});

describe('a return prints its own receipt and shows on the reports as a return, by tender', () => {
  it('the customer copy: items and tax returned, each tender refunded by its last four only', async () => {
    let t = await ticketOf([
      ['GM-TOWEL-6', 1],
      ['GR-CHOC-BAR', 1],
    ]);
    t = (await payCash(t, 300)).ticket;
    t = (await payCard(t)).ticket;
    const r = value(
      await lane.bridge.send('returns.create', {
        requestId: requestId(),
        ticketId: t.ticketId,
        lines: [
          { lineNo: 0, quantity: 1 },
          { lineNo: 1, quantity: 1 },
        ],
      }),
    );
    const receipt = value(await lane.bridge.send('returns.receipt.get', { returnId: r.returnId }));
    const text = receipt.text;
    expect(text).toContain(`RETURN NO. ${r.returnId}`);
    expect(text).toContain(`SALE TICKET ${t.ticketId}`);
    expect(text).toMatch(/Paper towels 6 roll +-8\.99/);
    expect(text).toMatch(/Chocolate bar +-1\.79/);
    expect(text).toMatch(new RegExp(`TAX RETURNED +-${(r.taxCents / 100).toFixed(2).replace('.', '\\.')}`));
    expect(text).toMatch(
      new RegExp(`TOTAL RETURNED +-${(r.totalCents / 100).toFixed(2).replace('.', '\\.')}`),
    );
    expect(text).toMatch(/(REFUNDED TO|VOIDED) VISA \*\*\*\*1111/);
    expect(text).toMatch(/CASH BACK +3\.00/);
    expect(text).toContain('CUSTOMER COPY');
    expect(text).not.toMatch(/411111/);
    // It printed by itself on the lane's printer (receipts print automatically in the sandbox).
    await eventually(async () =>
      value(await lane.bridge.send('simulator.state', {})).receiptPrinter.receipts.some((p) =>
        p.join('\n').includes(`RETURN NO. ${r.returnId}`),
      ),
    );
  });

  it('the till’s X report and the manager’s figures count the returns by tender; the drawer expects the cash refunds', async () => {
    const status = value(await manager.send('till.status', {}));
    const tillId = status.active?.tillId ?? 0;
    const before = value(await manager.send('till.report', { tillId }));
    let t = await ticketOf([['GM-TOWEL-6', 1]]);
    t = (await payCash(t, 400)).ticket;
    t = (await payCard(t)).ticket;
    const r = value(
      await lane.bridge.send('returns.create', {
        requestId: requestId(),
        ticketId: t.ticketId,
        lines: [{ lineNo: 0, quantity: 1 }],
      }),
    );
    const after = value(await manager.send('till.report', { tillId }));
    const by = (rep: typeof after, key: string) =>
      rep.returns.byTender?.find((l) => l.key === key)?.amountCents ?? 0;
    const card = r.legs.find((l) => l.kind === 'card');
    const cardKey = card?.method === 'void' ? 'Credit (voided)' : 'Credit';
    expect(by(after, cardKey) - by(before, cardKey)).toBe(card?.amountCents);
    expect(by(after, 'Cash') - by(before, 'Cash')).toBe(400);
    expect((after.returns.total?.cents ?? 0) - (before.returns.total?.cents ?? 0)).toBe(t.totalCents);
    expect(after.returns.cash.cents - before.returns.cash.cents).toBe(400);
    const tillNow = after.tills[0]?.figures;
    const tillThen = before.tills[0]?.figures;
    expect((tillNow?.expectedCents ?? 0) - (tillThen?.expectedCents ?? 0)).toBe(400 - 400);
    const figures = value(await manager.send('reports.figures', {}));
    expect(figures.returns?.byTender.find((l) => l.key === 'Cash')?.amountCents).toBeGreaterThanOrEqual(400);
    // On paper too: the X report printed on the lane's printer lists the returns by tender.
    expect(value(await manager.send('till.print', { tillId }))).toEqual({ printed: true });
    let paper = '';
    await eventually(async () => {
      paper = (value(await manager.send('simulator.state', {})).receiptPrinter.receipts.at(-1) ?? []).join(
        '\n',
      );
      return paper.includes('END OF');
    });
    expect(paper).toMatch(/Returns by tender/i);
    expect(paper).toMatch(/Cash \(\d+\) +\d+\.\d\d/);
  });
});

describe('every statement of the returns is read along an index (EXPLAIN QUERY PLAN)', () => {
  it('no statement of the return store scans a growing table', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tillpoint-return-plans-'));
    const db = openJournalDatabase(join(dir, 'journal.sqlite'));
    try {
      const store = new JournalStore(db);
      const statements = Object.entries(
        (store as unknown as { returns: { stmt: Record<string, Database.Statement> } }).returns.stmt,
      );
      expect(statements.length).toBeGreaterThan(15);
      const growing = /^SCAN (returns|return_lines|return_tenders|tickets|journal|t|j|r|l)\b/;
      const problems: string[] = [];
      const plans: Record<string, string> = {};
      for (const [name, s] of statements) {
        const n = (s.source.match(/\?/g) ?? []).length;
        const named = [...s.source.matchAll(/@(\w+)/g)].map((m) => m[1] ?? '');
        const explain = db.prepare(`EXPLAIN QUERY PLAN ${s.source}`);
        const rows = (
          named.length
            ? explain.all(Object.fromEntries(named.map((k) => [k, null])))
            : explain.all(...Array.from({ length: n }, () => null))
        ) as { detail: string }[];
        plans[name] = rows.map((r) => r.detail).join('; ');
        for (const r of rows) {
          if (growing.test(r.detail) || r.detail.startsWith('USE TEMP B-TREE FOR ORDER BY'))
            problems.push(`${name}: ${r.detail}`);
        }
      }
      expect(problems).toEqual([]);
      expect(plans['findClosed']).toMatch(/USING (COVERING )?INDEX tickets_closed_id/);
      expect(plans['findTotal']).toMatch(/USING INDEX tickets_total/);
      expect(plans['findLast4']).toMatch(/USING INDEX journal_last4/);
      expect(plans['returned']).toMatch(/USING INDEX returns_ticket/);
      expect(plans['reserved']).toMatch(/USING INDEX return_tenders_original/);
      expect(plans['figures']).toMatch(/USING INDEX return_tenders_done/);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('when the money cannot all go back at once', () => {
  it('a return whose first refund fails moves nothing: the cashier reads why, and its items can be returned again', async () => {
    let t = await ticketOf([['GM-TOWEL-6', 2]]);
    t = (await payCard(t)).ticket;
    processor.refuse('refund');
    try {
      const r = await lane.bridge.send('returns.create', {
        requestId: requestId(),
        ticketId: t.ticketId,
        lines: [{ lineNo: 0, quantity: 1 }],
      });
      expect(code(r)).toBe('unreachable');
      const sale = value(await lane.bridge.send('returns.sale', { ticketId: t.ticketId }));
      expect(sale.lines[0]?.returnedQuantity).toBe(0);
      expect(sale.returns.map((x) => x.state)).toEqual(['cancelled']);
      expect(sale.tenders[0]?.refundableCents).toBe(t.totalCents);
    } finally {
      processor.accept('refund');
    }
  });

  it('cash given and the card refused: the return owes the card’s part; a retry gives it back', async () => {
    // Three towels: a card amount of its own (the gateway refuses a repeat of a card and amount as a duplicate).
    let t = await ticketOf([['GM-TOWEL-6', 3]]);
    t = (await payCash(t, 500)).ticket;
    t = (await payCard(t)).ticket;
    const order = [
      ...value(await lane.bridge.send('returns.sale', { ticketId: t.ticketId })).order,
    ].reverse();
    processor.refuse('refund');
    let r;
    try {
      r = value(
        await lane.bridge.send('returns.create', {
          requestId: requestId(),
          ticketId: t.ticketId,
          lines: [{ lineNo: 0, quantity: 1 }],
          order,
        }),
      );
      // One of three towels: 8.99 + 0.74 of the 2.23 tax (cumulative rounding: 0.74, 0.75, 0.74).
      expect(r).toMatchObject({ state: 'incomplete', refundedCents: 500, owedCents: 473 });
      expect(r.legs.map((l) => [l.kind, l.state])).toEqual([
        ['cash', 'done'],
        ['card', 'failed'],
      ]);
      expect(r.legs[1]?.message).toMatch(/unavailable|unreachable/i);
      // The unit and the card's 4.73 stay the return's: nobody else can take them meanwhile.
      const sale = value(await lane.bridge.send('returns.sale', { ticketId: t.ticketId }));
      expect(sale.lines[0]?.returnedQuantity).toBe(1);
      const card = sale.tenders.find((x) => x.kind === 'card');
      expect(card?.refundableCents).toBe((card?.paidCents ?? 0) - 473);
      expect(code(await lane.bridge.send('returns.retry', { returnId: r.returnId }))).toBe('unreachable');
    } finally {
      processor.accept('refund');
    }
    const done = value(await lane.bridge.send('returns.retry', { returnId: r.returnId }));
    expect(done).toMatchObject({ state: 'done', refundedCents: 973, owedCents: 0 });
    expect(done.legs[1]).toMatchObject({ method: 'refund', state: 'done' });
    expect(code(await lane.bridge.send('returns.retry', { returnId: r.returnId }))).toBe('conflict');
    const audit = value(await manager.send('audit.list', { limit: 10 }));
    expect(audit.find((a) => a.action === 'return-retried')?.detail).toContain(
      `return ${r.returnId} of sale ${t.ticketId}`,
    );
  });

  it('a batch the gateway settled behind the lane’s back: the void is refused there, and the money goes back as a refund', async () => {
    let t = await ticketOf([['GR-GUM', 1]]);
    t = (await payCard(t)).ticket;
    expect(
      value(
        await lane.bridge.send('returns.quote', {
          ticketId: t.ticketId,
          lines: [{ lineNo: 0, quantity: 1 }],
        }),
      ).legs[0]?.method,
    ).toBe('void');
    const closed = await gw.post('/api/Transactions/DoSettlement', merchant1);
    expect(closed.status).toBe(200);
    const r = value(
      await lane.bridge.send('returns.create', {
        requestId: requestId(),
        ticketId: t.ticketId,
        lines: [{ lineNo: 0, quantity: 1 }],
      }),
    );
    expect(r.legs[0]).toMatchObject({ method: 'refund', state: 'done', amountCents: t.totalCents });
    expect(await tx(r.legs[0]?.userTransactionNumber ?? '')).toMatchObject({
      operation: 'refund',
      state: 'approved',
    });
  });
});
