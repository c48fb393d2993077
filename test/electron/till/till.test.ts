import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { moneyFigures, tenderLines, tillFigures, type MovementRow } from '../../../common/money-figures';
import type { BridgeConnection } from '../../../electron/bridge/connection';
import type { BridgeResult, TillReportView } from '../../../common/bridge/contract';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import { eventually, openTill, startLane, value, type Lane } from '../helpers';

/**
 * Issue 20, "Cash": the lane's tills through the bridge, on a real terminal core (real SQLite journal,
 * sandbox gateway, simulated devices and ESC/POS printer): cash needs a till, every movement and who made
 * it, the drawer opening, the cash refund, the hand-over, the blind count, the sign-off, the X and Z
 * reports — on paper, decoded from what the simulated printer received — against the journal.
 */

const code = <T>(r: BridgeResult<T>) => (r.ok ? 'ok' : r.error.code);
const message = <T>(r: BridgeResult<T>) => (r.ok ? '' : r.error.message);

async function signedIn(lane: Lane, pin: string): Promise<BridgeConnection> {
  const b = lane.core.connect();
  value(await b.send('session.signIn', { pin }));
  return b;
}

/** A cash sale, once its receipt has printed (and kicked the drawer open: change goes back from it). */
async function cashSale(b: BridgeConnection, subtotalCents: number, tenderedCents: number) {
  const printed = (await printer(b)).receipts.length;
  const t = value(await b.send('sale.open', { subtotalCents }));
  const out = value(
    await b.send('sale.pay', { ticketId: t.ticketId, tender: { kind: 'cash', tenderedCents } }),
  );
  await eventually(async () => (await printer(b)).receipts.length > printed);
  return out;
}

async function keyedSale(b: BridgeConnection, subtotalCents: number) {
  const t = value(await b.send('sale.open', { subtotalCents }));
  return value(
    await b.send('sale.pay', {
      ticketId: t.ticketId,
      tender: { kind: 'credit', entry: 'keyed', keyed: { cardNumber: '4111111111111111', expiry: '1230' } },
    }),
  );
}

async function printer(b: BridgeConnection) {
  return value(await b.send('simulator.state', {})).receiptPrinter;
}

/** Figures recomputed straight from the journal file: the rows of [from, until), and the tills' movements. */
function fromJournal(dataDir: string, from: number, until: number) {
  const db = new Database(join(dataDir, 'journal.sqlite'), { readonly: true });
  try {
    const rows = db
      .prepare<
        [number, number],
        {
          operation: string;
          state: string;
          approved_cents: number;
          cashback_cents: number;
          tip_cents: number;
          card_type: string | null;
        }
      >(
        'SELECT operation, state, approved_cents, cashback_cents, tip_cents, card_type FROM journal WHERE created_at >= ? AND created_at < ?',
      )
      .all(from, until)
      .map((r) => ({
        operation: r.operation,
        state: r.state,
        approvedCents: r.approved_cents,
        cashBackCents: r.cashback_cents,
        tipCents: r.tip_cents,
        cardType: r.card_type,
      }));
    const moves = db
      .prepare<[], { kind: MovementRow['kind']; amount_cents: number }>(
        'SELECT kind, amount_cents FROM till_movements',
      )
      .all()
      .map((m) => ({ kind: m.kind, amountCents: m.amount_cents }));
    const counts = db
      .prepare<[], { counted: number; os: number }>(
        'SELECT sum(counted_cents) AS counted, sum(over_short_cents) AS os FROM tills',
      )
      .get();
    return { money: moneyFigures(rows), till: tillFigures(rows, moves), counts };
  } finally {
    db.close();
  }
}

describe('tills: cash goes through a till in the lane’s drawer', () => {
  let gw: TestGateway;
  let lane: Lane;
  let manager: BridgeConnection;
  beforeAll(async () => {
    gw = await startGateway({ sandboxSlowMs: 400 });
  });
  afterAll(async () => {
    await gw.close();
  });
  beforeEach(async () => {
    lane = await startLane({ gateway: gw });
    manager = await signedIn(lane, '9999');
  });
  afterEach(async () => {
    manager.close();
    await lane.close();
  });

  it('cash is refused while no till is open — nothing journaled, no change given; the same for cash back, before the card is read', async () => {
    const { bridge } = lane;
    const t = value(await bridge.send('sale.open', { subtotalCents: 1000 }));
    const cash = await bridge.send('sale.pay', {
      ticketId: t.ticketId,
      tender: { kind: 'cash', tenderedCents: 2000 },
    });
    expect(code(cash)).toBe('conflict');
    expect(message(cash)).toBe('No till is open on this lane: open a till on the Till screen to take cash.');
    const prompts: string[] = [];
    const off = bridge.on('sale.progress', (p) => prompts.push(p.prompt));
    const debit = await bridge.send('sale.pay', {
      ticketId: t.ticketId,
      tender: { kind: 'debit', entry: 'swipe', cashBackCents: 2000 },
    });
    off();
    expect(code(debit)).toBe('conflict');
    expect(message(debit)).toBe(
      'No till is open on this lane: open a till on the Till screen to pay cash back.',
    );
    expect(prompts).toEqual([]);
    expect(await lane.core.journal.list({})).toEqual([]);
    expect((await printer(bridge)).drawerKicks).toBe(0);
    // A card sale needs no till.
    expect((await keyedSale(bridge, 1500)).tender.status).toBe('approved');
    // Once a till is open, the same cash sale goes through.
    await openTill(bridge, 10_000);
    const paid = value(
      await bridge.send('sale.pay', { ticketId: t.ticketId, tender: { kind: 'cash', tenderedCents: 2000 } }),
    );
    expect(paid.tender).toMatchObject({ status: 'approved', approvedCents: 1000, changeCents: 1000 });
  });

  it('a till opens with its float counted by denomination; the drawer opens; the cashier sees the till, never an expected figure', async () => {
    const { bridge } = lane;
    const events: unknown[] = [];
    bridge.on('till.changed', (s) => events.push(s));
    const till = value(
      await bridge.send('till.open', {
        float: {
          denominations: {
            'bill-2000': 2,
            'bill-1000': 3,
            'bill-500': 4,
            'bill-100': 5,
            'coin-25': 20,
            'roll-10': 1,
          },
        },
      }),
    );
    expect(till).toMatchObject({
      state: 'open',
      employee: 'Cashier',
      floatCents: 4000 + 3000 + 2000 + 500 + 500 + 500,
    });
    expect((await printer(bridge)).drawerKicks).toBe(1);
    await cashSale(bridge, 2340, 3000);
    const status = value(await bridge.send('till.status', {}));
    expect(status.active?.tillId).toBe(till.tillId);
    expect(status.settings).toEqual({ toleranceCents: 500, defaultFloatCents: 10_000 });
    expect(JSON.stringify(status)).not.toMatch(/expected/i);
    expect(events.length).toBeGreaterThan(0);
    // A second till cannot open while this one is in the drawer; a bad count changes nothing.
    const second = await manager.send('till.open', { float: { totalCents: 5000 } });
    expect(code(second)).toBe('conflict');
    expect(message(second)).toMatch(/Till 1 \(Cashier\) is in the drawer/);
    const bad = await bridge.send('till.open', { float: { denominations: { 'bill-300': 1 } } });
    expect(code(bad)).toBe('invalid');
    // The cashier reads no report: they show expected cash.
    expect(code(await bridge.send('till.report', { tillId: till.tillId }))).toBe('forbidden');
    expect(code(await bridge.send('till.closeDay', {}))).toBe('forbidden');
  });

  it('paid in, paid out, safe drop and "No sale": a reason each, the drawer opens, who did it recorded and audited', async () => {
    const { bridge } = lane;
    const till = await openTill(bridge, 10_000);
    const kicks = (await printer(bridge)).drawerKicks;
    const noReason = await bridge.send('till.move', { kind: 'paid-out', amountCents: 1200, reason: '   ' });
    expect(code(noReason)).toBe('invalid');
    const noAmount = await bridge.send('till.move', { kind: 'paid-out', reason: 'Window cleaner' });
    expect(code(noAmount)).toBe('invalid');
    const out = value(
      await bridge.send('till.move', { kind: 'paid-out', amountCents: 1200, reason: 'Window cleaner' }),
    );
    const inn = value(
      await bridge.send('till.move', { kind: 'paid-in', amountCents: 350, reason: 'Coffee fund' }),
    );
    const drop = value(
      await manager.send('till.move', {
        kind: 'safe-drop',
        amountCents: 5000,
        reason: 'Twenties to the safe',
      }),
    );
    const noSale = value(await bridge.send('till.move', { kind: 'no-sale', reason: 'Change for lane 2' }));
    expect(out).toMatchObject({
      tillId: till.tillId,
      kind: 'paid-out',
      amountCents: 1200,
      reason: 'Window cleaner',
      employee: 'Cashier',
    });
    expect(inn).toMatchObject({ kind: 'paid-in', amountCents: 350, employee: 'Cashier' });
    expect(drop).toMatchObject({ kind: 'safe-drop', amountCents: 5000, employee: 'Manager' });
    expect(noSale).toMatchObject({ kind: 'no-sale', amountCents: 0, reason: 'Change for lane 2' });
    expect((await printer(bridge)).drawerKicks).toBe(kicks + 4);
    const listed = value(await bridge.send('till.movements', {}));
    expect(listed.map((m) => m.kind)).toEqual(['no-sale', 'safe-drop', 'paid-in', 'paid-out', 'float']);
    const audit = value(await manager.send('audit.list', {}));
    const actions = audit.map((a) => `${a.role} ${a.action} ${a.detail}`);
    expect(actions).toContain(`cashier till-no-sale till ${till.tillId}: drawer opened (Change for lane 2)`);
    expect(actions).toContain(`cashier till-paid-out till ${till.tillId}: $12.00 (Window cleaner)`);
    expect(actions).toContain(`manager till-safe-drop till ${till.tillId}: $50.00 (Twenties to the safe)`);
  });

  it('a cash refund: the manager’s PIN, out of the till in the drawer; the sale learns it; never more than it took', async () => {
    const { bridge } = lane;
    await openTill(bridge, 10_000);
    const sale = await cashSale(bridge, 2340, 3000);
    const utn = sale.tender.userTransactionNumber ?? '';
    expect(code(await bridge.send('till.refund', { userTransactionNumber: utn, amountCents: 500 }))).toBe(
      'forbidden',
    );
    const kicks = (await printer(bridge)).drawerKicks;
    const r = value(
      await bridge.send('till.refund', {
        userTransactionNumber: utn,
        amountCents: 500,
        approval: { managerPin: '9999' },
      }),
    );
    expect(r.movement).toMatchObject({
      kind: 'refund',
      amountCents: 500,
      employee: 'Cashier',
      approvedBy: 'Manager',
      userTransactionNumber: utn,
    });
    expect(r.transaction).toMatchObject({
      operation: 'cash',
      state: 'approved',
      approvedCents: 2340,
      refundedCents: 500,
    });
    expect((await printer(bridge)).drawerKicks).toBe(kicks + 1);
    const tooMuch = await bridge.send('till.refund', {
      userTransactionNumber: utn,
      amountCents: 1841,
      approval: { managerPin: '9999' },
    });
    expect(code(tooMuch)).toBe('invalid');
    expect(message(tooMuch)).toBe('At most 18.40 can be refunded on that sale.');
    const card = await keyedSale(bridge, 1500);
    const notCash = await bridge.send('till.refund', {
      userTransactionNumber: card.tender.userTransactionNumber ?? '',
      approval: { managerPin: '9999' },
    });
    expect(code(notCash)).toBe('not-found');
    const audit = value(await manager.send('audit.list', {}));
    expect(audit.find((a) => a.action === 'till-cash-refund')).toMatchObject({
      role: 'cashier',
      approvedBy: 'manager',
    });
  });

  it('hand-over: not under an open sale; the next cashier opens their own till; each till has its own cash', async () => {
    const { bridge } = lane;
    const first = await openTill(bridge, 10_000);
    await cashSale(bridge, 2340, 2340);
    const open = value(await bridge.send('sale.open', { subtotalCents: 500 }));
    const busy = await bridge.send('till.handOver', {});
    expect(code(busy)).toBe('busy');
    value(await bridge.send('sale.abandon', { ticketId: open.ticketId }));
    const handed = value(await bridge.send('till.handOver', {}));
    expect(handed).toMatchObject({ tillId: first.tillId, state: 'handed-over', endedBy: 'Cashier' });
    // Between tills, cash waits for one.
    const between = value(await bridge.send('sale.open', { subtotalCents: 100 }));
    const refusedCash = await bridge.send('sale.pay', {
      ticketId: between.ticketId,
      tender: { kind: 'cash', tenderedCents: 100 },
    });
    expect(code(refusedCash)).toBe('conflict');
    value(await bridge.send('sale.abandon', { ticketId: between.ticketId }));
    const second = await openTill(manager, 15_000);
    await cashSale(manager, 1000, 1000);
    const status = value(await bridge.send('till.status', {}));
    expect(status.active?.tillId).toBe(second.tillId);
    expect(status.waiting.map((t) => [t.tillId, t.state])).toEqual([[first.tillId, 'handed-over']]);
    const a = value(
      await manager.send('till.count', { tillId: first.tillId, count: { totalCents: 12_340 } }),
    );
    expect(a.count).toMatchObject({ expectedCents: 12_340, overShortCents: 0 });
    const x = value(await manager.send('till.report', { tillId: second.tillId }));
    expect(x.drawer.expectedCents).toBe(16_000);
  });

  it('the blind count: the answer is where expected first appears; within the tolerance it closes, beyond it waits for a manager’s sign-off', async () => {
    const { bridge } = lane;
    const till = await openTill(bridge, 10_000);
    await cashSale(bridge, 2340, 5000);
    const counted = value(
      await bridge.send('till.count', {
        tillId: till.tillId,
        count: { denominations: { 'bill-10000': 1, 'bill-2000': 1, 'bill-500': 2, 'coin-25': 4 } },
      }),
    );
    // 100 + 20 + 10 + 1.00 = 131.00 against 123.40: 7.60 over, beyond 5.00.
    expect(counted.state).toBe('counted');
    expect(counted.count).toMatchObject({
      countedCents: 13_100,
      expectedCents: 12_340,
      overShortCents: 760,
      needsSignOff: true,
      countedBy: 'Cashier',
    });
    expect(
      code(await bridge.send('till.count', { tillId: till.tillId, count: { totalCents: 12_340 } })),
    ).toBe('conflict');
    expect(code(await bridge.send('till.signOff', { tillId: till.tillId }))).toBe('forbidden');
    const signed = value(
      await bridge.send('till.signOff', {
        tillId: till.tillId,
        note: 'Customer left change',
        approval: { managerPin: '9999' },
      }),
    );
    expect(signed).toMatchObject({
      state: 'closed',
      count: { signedOffBy: 'Manager', note: 'Customer left change' },
    });
    const audit = value(await manager.send('audit.list', {}));
    expect(audit.find((a) => a.action === 'till-signed-off')).toMatchObject({
      role: 'cashier',
      approvedBy: 'manager',
    });
    expect(audit.find((a) => a.action === 'till-counted')?.detail).toBe(
      'till 1: counted $131.00, expected $123.40, over $7.60, waits for a sign-off',
    );
    // Within the tolerance it closes at once.
    const next = await openTill(bridge, 5000);
    const short = value(
      await bridge.send('till.count', { tillId: next.tillId, count: { totalCents: 4875 } }),
    );
    expect(short).toMatchObject({ state: 'closed', count: { overShortCents: -125, needsSignOff: false } });
  });

  it('an abandoned ticket’s cash goes back to the customer: it is not cash taken, and the till does not expect it', async () => {
    const { bridge } = lane;
    const till = await openTill(bridge, 10_000);
    const t = value(await bridge.send('sale.open', { subtotalCents: 3000 }));
    const part = value(
      await bridge.send('sale.pay', {
        ticketId: t.ticketId,
        amountCents: 1000,
        tender: { kind: 'cash', tenderedCents: 1000 },
      }),
    );
    expect(part.needsAnotherTender).toBe(true);
    value(await bridge.send('sale.abandon', { ticketId: t.ticketId, approval: { managerPin: '9999' } }));
    const row = await lane.core.journal.get(part.tender.userTransactionNumber ?? '');
    expect(row?.state).toBe('voided');
    const x = value(await manager.send('till.report', { tillId: till.tillId }));
    expect(x.drawer.cashTaken).toEqual({ count: 0, cents: 0 });
    expect(x.drawer.expectedCents).toBe(10_000);
  });

  it('the day: two tills, X reports, the Z refused until both are closed, then numbered, printed and matching the journal to the cent', async () => {
    const cashier = lane.bridge;
    // Till 1: the cashier's shift.
    const t1 = await openTill(cashier, 10_000);
    const sale1 = await cashSale(cashier, 2340, 3000);
    await keyedSale(cashier, 4567);
    value(
      await cashier.send('till.refund', {
        userTransactionNumber: sale1.tender.userTransactionNumber ?? '',
        amountCents: 500,
        approval: { managerPin: '9999' },
      }),
    );
    value(await cashier.send('till.move', { kind: 'paid-out', amountCents: 1200, reason: 'Window cleaner' }));
    value(await cashier.send('till.move', { kind: 'no-sale', reason: 'Change for lane 2' }));
    value(await cashier.send('till.handOver', {}));
    // Till 2: the second person's shift.
    const t2 = await openTill(manager, 15_000);
    const sale2 = await cashSale(manager, 1000, 1000);
    value(
      await manager.send('till.refund', {
        userTransactionNumber: sale2.tender.userTransactionNumber ?? '',
        amountCents: 250,
      }),
    );
    value(await manager.send('till.move', { kind: 'paid-out', amountCents: 300, reason: 'Stamps' }));
    value(await manager.send('till.move', { kind: 'no-sale', reason: 'Wrong change check' }));
    value(await manager.send('till.handOver', {}));

    const xDay = value(await manager.send('till.report', { day: true }));
    expect(xDay).toMatchObject({ kind: 'x', scope: 'day' });
    expect(xDay.counted.tills).toBe(0);
    const refused = await manager.send('till.closeDay', {});
    expect(code(refused)).toBe('conflict');
    expect(message(refused)).toMatch(
      /till 1 \(Cashier\) is handed over and not counted yet; till 2 \(Manager\)/,
    );

    // Till 1: 100.00 + 23.40 − 5.00 − 12.00 = 106.40, counted 113.40 (7.00 over: a sign-off).
    const c1 = value(await manager.send('till.count', { tillId: t1.tillId, count: { totalCents: 11_340 } }));
    expect(c1.count).toMatchObject({ expectedCents: 10_640, overShortCents: 700, needsSignOff: true });
    // Till 2: 150.00 + 10.00 − 2.50 − 3.00 = 154.50, counted 153.25 (1.25 short: within the tolerance).
    const c2 = value(await manager.send('till.count', { tillId: t2.tillId, count: { totalCents: 15_325 } }));
    expect(c2).toMatchObject({ state: 'closed', count: { expectedCents: 15_450, overShortCents: -125 } });
    expect(code(await manager.send('till.closeDay', {}))).toBe('conflict');
    value(await manager.send('till.signOff', { tillId: t1.tillId, note: 'Counted twice' }));

    const before = (await printer(cashier)).receipts.length;
    const closed = value(await manager.send('till.closeDay', {}));
    const z: TillReportView = closed.report;
    expect(closed.print).toEqual({ printed: true });
    expect(z).toMatchObject({ kind: 'z', zNumber: 1, closedBy: 'Manager' });
    const j = fromJournal(lane.dataDir, z.from, z.until);
    expect(z.byTender).toEqual(tenderLines(j.money));
    expect(z.card).toEqual(j.money.card);
    expect(z.drawer).toEqual(j.till);
    expect(z.drawer.expectedCents).toBe(10_640 + 15_450);
    expect(z.counted).toEqual({
      tills: 2,
      countedCents: 11_340 + 15_325,
      expectedCents: 26_090,
      overShortCents: 575,
    });
    expect(z.counted.countedCents).toBe(j.counts?.counted);
    expect(z.counted.overShortCents).toBe(j.counts?.os);
    // Cash refunds from Transactions are refunds, not returns of a sale's items: no return by tender.
    expect(z.returns).toEqual({
      card: { count: 0, cents: 0 },
      cash: { count: 2, cents: 750 },
      total: { count: 0, cents: 0 },
      byTender: [],
    });
    expect(
      z.byEmployee.map((e) => [
        e.employee,
        e.tills,
        e.sales.cents,
        e.cashRefunds.cents,
        e.paidOut.cents,
        e.noSales,
        e.overShortCents,
      ]),
    ).toEqual([
      ['Cashier', 1, 2340 + 4567, 500, 1200, 1, 700],
      ['Manager', 1, 1000, 250, 300, 1, -125],
    ]);
    expect(z.taxByClass).toEqual([
      { taxClass: 'Sales tax', tickets: 3, taxableCents: 2340 + 4567 + 1000, taxCents: 0 },
    ]);

    // On paper: what the simulated printer decoded from the ESC/POS it received.
    await eventually(async () => (await printer(cashier)).receipts.length > before);
    const paper = ((await printer(cashier)).receipts[before] ?? []).join('\n');
    expect(paper).toMatch(/Z REPORT 1/);
    expect(paper).toMatch(/Cash \(2\)\s+33\.40/);
    expect(paper).toMatch(/Credit \(1\)\s+45\.67/);
    expect(paper).toMatch(/Expected in drawer\s+260\.90/);
    expect(paper).toMatch(/Counted \(2 tills\)\s+266\.65/);
    expect(paper).toMatch(/Over \(\+\) \/ short \(-\)\s+\+5\.75/);
    expect(paper).toMatch(/Cash refunds \(2\)\s+7\.50/);
    expect(paper).toMatch(/Card net \(goes to the bank\)\s+45\.67/);

    // Kept as closed: the reprint reads the same; the next day numbers on and starts where this ended.
    expect(value(await manager.send('till.report', { zNumber: 1 }))).toEqual(z);
    expect(value(await manager.send('till.print', { zNumber: 1 }))).toEqual({ printed: true });
    expect(value(await manager.send('till.zList', {}))).toEqual([
      {
        zNumber: 1,
        from: z.from,
        until: z.until,
        closedBy: 'Manager',
        tills: 2,
        salesCents: 2340 + 4567 + 1000,
        overShortCents: 575,
      },
    ]);
    expect(value(await manager.send('till.list', {}))).toEqual([]);
    const audit = value(await manager.send('audit.list', {}));
    expect(audit.find((a) => a.action === 'z-report')?.detail).toBe(
      'Z 1: 2 till(s), sales $79.07, over/short $5.75',
    );
  });

  it('without a printer the report comes back to show on screen', async () => {
    value(await manager.send('simulator.unplug', { role: 'receiptPrinter' }));
    await eventually(
      async () =>
        value(await manager.send('devices.list', {})).find((d) => d.role === 'receiptPrinter')?.state !==
        'connected',
    );
    const r = value(await manager.send('till.print', { day: true }));
    expect(r.printed).toBe(false);
    expect(r.printed ? [] : r.lines.map((l) => (l.kind === 'text' ? l.text : '')).join('\n')).toMatch(
      /X REPORT - DAY SO FAR/,
    );
  });
});
