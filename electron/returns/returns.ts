import type {
  Events,
  ReceiptPrintResult,
  ReceiptView,
  ReturnCreate,
  ReturnFind,
  ReturnFindResult,
  ReturnGiftCard,
  ReturnLegView,
  ReturnQuote,
  ReturnQuoteView,
  ReturnableSaleView,
  ReturnSettingsView,
  ReturnView,
  ReturnWithoutReceipt,
  TicketTaxClass,
  TicketView,
} from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import type { Catalog } from '../catalog/catalog';
import type { DeviceHost } from '../devices/device-host';
import type { Journal } from '../journal/journal-protocol';
import type { ReturnBy, ReturnRecord } from '../journal/return-store';
import type { Actor } from '../roles/roles';
import type { SaleEngine } from '../sale/sale-engine';
import { header, printReceipt } from '../sale/receipt-printing';
import type { Settings } from '../settings';
import { laneTimeZone } from '../store-time-zone';
import type { Tills } from '../till/tills';
import type { Clock } from '../util/clock';
import { dollars } from '../util/money';
import { priceTicket, type PricingLine } from '../../common/ticket-pricing';
import { findQuery, receiptTicketId, saleSummary } from './return-lookup';
import { buildReturnReceipt } from './return-receipt';
import { legMethod, type ReturnPlan } from './return-rules';

/**
 * Returns from a receipt (docs/terminal.md "Returns"): the service the bridge's `returns.*` commands call.
 * The journal decides and records (journal/return-store.ts: one transaction per return, so nothing is
 * returned twice); here each leg then moves its money through the paths that already exist — a card
 * refund or void through the sale engine's journaled call (DoRefund, DoVoid), cash out of the till in the
 * drawer, a gift card credited (GiftCard/Refund) — and the return's receipt prints.
 */
export type Returns = {
  find(q: ReturnFind): Promise<ReturnFindResult>;
  sale(ticketId: string): Promise<ReturnableSaleView>;
  quote(q: ReturnQuote): Promise<ReturnQuoteView>;
  create(req: ReturnCreate, by: ReturnPeople): Promise<Made>;
  createWithoutReceipt(req: ReturnWithoutReceipt, by: ReturnPeople): Promise<Made>;
  retry(returnId: number, giftCard: ReturnGiftCard | undefined, by: ReturnPeople): Promise<Made>;
  get(returnId: number): Promise<ReturnView>;
  receipt(returnId: number, copy: 'customer' | 'merchant'): Promise<ReceiptView>;
  print(returnId: number, copy: 'customer' | 'merchant'): Promise<ReceiptPrintResult>;
  settings(): ReturnSettingsView;
  setSettings(next: ReturnSettingsView): Promise<ReturnSettingsView>;
};

/** Who returns, and the manager who approved it when one had to. */
export type ReturnPeople = { employee: Actor; approver?: Actor | undefined };

/** A return as it stands after this call, and whether this call made it (a retried request did not). */
export type Made = { view: ReturnView; replay: boolean };

export type ReturnsDeps = {
  journal: Journal;
  engine: SaleEngine;
  catalog: Catalog;
  settings: Settings;
  clock: Clock;
  devices: Pick<DeviceHost, 'devices' | 'connected'>;
  tills: Pick<Tills, 'status'>;
  /** When this lane last closed its batch: a payment before it is settled (refunded, not voided). */
  settledBefore: () => Promise<number>;
  emit: <E extends keyof Events>(event: E, payload: Events[E]) => void;
  merchantName: () => string;
};

/** The store's refusals cross the journal's thread as errors named for the bridge's code. */
function refusal(error: unknown): unknown {
  if (error instanceof Error) {
    const m = /^(?:Return|Till)Refusal-(conflict|not-found|invalid)$/.exec(error.name);
    const words = error as { messageId?: string; params?: Record<string, string | number> };
    if (m?.[1])
      return new BridgeFailure(m[1] as 'conflict' | 'not-found' | 'invalid', error.message, {
        ...(words.messageId !== undefined ? { messageId: words.messageId } : {}),
        ...(words.params ? { params: words.params } : {}),
      });
  }
  return error;
}

async function guarded<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw refusal(error);
  }
}

function asFailure(error: unknown): BridgeFailure {
  const e = refusal(error);
  return e instanceof BridgeFailure ? e : new BridgeFailure('internal', 'The refund failed unexpectedly.');
}

type Leg = ReturnRecord['legs'][number];

function legLabel(leg: Pick<Leg, 'kind' | 'tender' | 'last4' | 'cardType'>): string {
  if (leg.kind === 'cash') return 'Cash';
  return leg.last4 ? `${leg.cardType ?? leg.tender} ****${leg.last4}` : leg.tender;
}

export function toReturnView(r: ReturnRecord): ReturnView {
  const legs: ReturnLegView[] = r.legs.map((l) => ({
    position: l.position,
    kind: l.kind,
    tender: l.tender,
    label: legLabel(l),
    amountCents: l.amountCents,
    state: l.state,
    ...(l.method ? { method: l.method } : {}),
    ...(l.utn ? { userTransactionNumber: l.utn } : {}),
    ...(l.last4 ? { last4: l.last4 } : {}),
    ...(l.cardType ? { cardType: l.cardType } : {}),
    ...(l.message ? { message: l.message } : {}),
    ...(l.doneAt !== null ? { doneAt: l.doneAt } : {}),
  }));
  const sum = (f: (l: Leg) => boolean) => r.legs.filter(f).reduce((s, l) => s + l.amountCents, 0);
  return {
    returnId: r.id,
    ...(r.ticketId ? { ticketId: r.ticketId } : {}),
    state: r.state,
    createdAt: r.createdAt,
    employeeName: r.employee,
    ...(r.approvedBy ? { approvedByName: r.approvedBy } : {}),
    ...(r.reason ? { reason: r.reason } : {}),
    lines: r.lines.map((l) => ({
      lineNo: l.lineNo,
      name: l.name,
      quantity: l.quantity,
      totalCents: l.totalCents,
      taxCents: l.taxCents,
    })),
    totalCents: r.totalCents,
    taxCents: r.taxCents,
    netCents: r.totalCents - r.taxCents,
    legs,
    refundedCents: sum((l) => l.state === 'done'),
    owedCents: sum((l) => l.state !== 'done' && l.state !== 'cancelled'),
  };
}

function parseTicket(data: string): TicketView {
  return JSON.parse(data) as TicketView;
}

export function createReturns(deps: ReturnsDeps): Returns {
  const { journal, engine, clock } = deps;
  /** Returns moving money now in this process: one run per return at a time. */
  const running = new Set<number>();

  const receiptDeps = {
    settings: () => deps.settings.value,
    merchantName: deps.merchantName,
    clock,
    connected: (role: 'cardReader' | 'pinPad' | 'contactless' | 'signaturePad' | 'receiptPrinter') =>
      deps.devices.connected(role),
    devices: () => deps.devices.devices,
    emit: deps.emit,
  };

  const byOf = (p: ReturnPeople): ReturnBy => ({
    employeeId: p.employee.employeeId,
    employee: p.employee.name,
    approvedById:
      p.approver && p.approver.employeeId !== p.employee.employeeId ? p.approver.employeeId : null,
    approvedBy: p.approver && p.approver.employeeId !== p.employee.employeeId ? p.approver.name : null,
  });

  const planView = async (plan: ReturnPlan): Promise<ReturnQuoteView> => {
    const settled = await deps.settledBefore();
    const legs = await Promise.all(
      plan.legs.map(async (l) => {
        const row = l.key ? await journal.get(l.key) : undefined;
        const others = l.key ? await journal.returnReservedByOthers(l.key, 0) : 0;
        return {
          key: l.key,
          kind: l.kind,
          tender: l.tender,
          label: l.label,
          amountCents: l.amountCents,
          method: legMethod(l.kind, l.amountCents, row, settled, others),
        };
      }),
    );
    return {
      lines: plan.lines.map((l) => ({
        lineNo: l.line.lineNo,
        name: l.line.name,
        quantity: l.quantity,
        totalCents: l.totalCents,
        taxCents: l.taxCents,
      })),
      totalCents: plan.refund.totalCents,
      taxCents: plan.refund.taxCents,
      netCents: plan.refund.netCents,
      legs,
    };
  };

  /** A leg left `sending` by a stop: its journal row (numbered before it left) says what happened. */
  const settleStale = async (r: ReturnRecord): Promise<ReturnRecord> => {
    const stale = r.legs.filter((l) => l.state === 'sending');
    if (stale.length === 0) return r;
    const now = clock.now();
    for (const leg of stale) {
      const row = leg.utn ? await journal.get(leg.utn) : undefined;
      if (row?.state === 'approved')
        await journal.returnLegDone(
          r.id,
          leg.position,
          { method: leg.method ?? 'refund', utn: row.utn },
          now,
        );
      else if (row && leg.method === 'void' && (row.state === 'unknown' || row.state === 'sending'))
        await journal.returnLegFailed(
          r.id,
          leg.position,
          'unknown',
          'The void’s answer was lost: check the reconciliation view before trying again.',
          now,
        );
      else
        await journal.returnLegFailed(
          r.id,
          leg.position,
          'failed',
          row
            ? `The refund ended ${row.state}: try again.`
            : 'The terminal stopped before this refund was sent: try again.',
          now,
        );
    }
    return journal.returnFinish(r.id, now);
  };

  const fail = async (
    r: ReturnRecord,
    leg: Leg,
    error: BridgeFailure,
    state: 'failed' | 'unknown' = 'failed',
  ): Promise<BridgeFailure> => {
    await journal.returnLegFailed(r.id, leg.position, state, error.message, clock.now());
    return error;
  };

  /** Moves one leg's money; answers the failure that stops the return, or nothing. */
  const runLeg = async (
    r: ReturnRecord,
    leg: Leg,
    giftCard: ReturnGiftCard | undefined,
    people: ReturnPeople,
  ): Promise<BridgeFailure | undefined> => {
    const by = byOf(people);
    const stamp = { employeeId: by.employeeId, approvedById: by.approvedById };
    if (leg.kind === 'cash') {
      try {
        await guarded(journal.returnCashLeg(r.id, leg.position, by, clock.now()));
        return undefined;
      } catch (error) {
        const failure = asFailure(error);
        if (await journal.returnClaim(r.id, leg.position, clock.now())) await fail(r, leg, failure);
        return failure;
      }
    }
    if (!(await journal.returnClaim(r.id, leg.position, clock.now())))
      return new BridgeFailure('busy', 'This return is being given back in another window.', {
        messageId: 'returns.anotherWindow',
      });
    const numberedAs = (method: 'refund' | 'void' | 'gift-card') => async (utn: string) =>
      journal.returnNumbered(r.id, leg.position, utn, method, clock.now());

    if (leg.kind === 'gift-card') {
      if (!giftCard)
        return fail(
          r,
          leg,
          new BridgeFailure('invalid', 'Swipe the gift card or type its number to credit it.', {
            messageId: 'returns.giftToCredit',
          }),
        );
      try {
        const tx = await engine.giftRefund(leg.amountCents, giftCard, stamp, numberedAs('gift-card'));
        await journal.returnLegDone(
          r.id,
          leg.position,
          {
            method: 'gift-card',
            utn: tx.userTransactionNumber,
            last4: tx.last4 ?? null,
            cardType: 'Gift card',
          },
          clock.now(),
        );
        return undefined;
      } catch (error) {
        const failure = asFailure(error);
        return fail(r, leg, failure);
      }
    }

    const row = leg.originalUtn ? await journal.get(leg.originalUtn) : undefined;
    if (!row?.srn)
      return fail(
        r,
        leg,
        new BridgeFailure(
          'conflict',
          'That card payment has no gateway reference yet (stored offline): try again once it is forwarded.',
          { messageId: 'returns.storedOffline' },
        ),
      );
    const method = legMethod(
      'card',
      leg.amountCents,
      row,
      await deps.settledBefore(),
      await journal.returnReservedByOthers(row.utn, r.id),
    );
    if (method === 'void') {
      try {
        const v = await engine.void(row.srn, stamp, { receipt: false, onNumber: numberedAs('void') });
        await journal.returnLegDone(
          r.id,
          leg.position,
          { method: 'void', utn: v.transaction.userTransactionNumber },
          clock.now(),
        );
        return undefined;
      } catch (error) {
        const failure = asFailure(error);
        // No answer to a void: nothing reverses one, so it may have happened — never refund on top of it.
        if (failure.code === 'unknown-outcome') return fail(r, leg, failure, 'unknown');
        if (failure.code === 'unreachable') return fail(r, leg, failure);
        // Refused (the batch closed at the gateway meanwhile, …): the money goes back as a refund instead.
      }
    }
    try {
      const done = await engine.refund(row.srn, leg.amountCents, stamp, {
        receipt: false,
        onNumber: numberedAs('refund'),
      });
      await journal.returnLegDone(
        r.id,
        leg.position,
        { method: 'refund', utn: done.transaction.userTransactionNumber },
        clock.now(),
      );
      return undefined;
    } catch (error) {
      // A refund with no answer is reversed (journaled-call.ts): the money did not go back; try again later.
      return fail(r, leg, asFailure(error));
    }
  };

  /** Prints the return's customer copy where receipts print by themselves; the drawer opens for cash. */
  const afterRun = async (r: ReturnRecord, cashGiven: boolean): Promise<void> => {
    if (cashGiven) deps.emit('till.changed', await deps.tills.status());
    const printer = deps.devices.connected('receiptPrinter');
    if (deps.settings.value.sale.autoPrint && printer && r.legs.some((l) => l.state === 'done')) {
      const view = await receiptOf(r, 'customer');
      void printReceipt(receiptDeps, view, { ticketId: r.ticketId ?? '' }, cashGiven).catch(() => undefined);
    } else if (cashGiven && printer)
      void deps.devices.devices?.receiptPrinter.kickDrawer().catch(() => undefined);
  };

  /** Moves the money the return still owes, leg by leg in its order; stops at the first that fails. */
  const run = async (
    returnId: number,
    giftCard: ReturnGiftCard | undefined,
    people: ReturnPeople,
  ): Promise<{ record: ReturnRecord; failure?: BridgeFailure }> => {
    if (running.has(returnId))
      throw new BridgeFailure('busy', 'This return is being given back in another window.', {
        messageId: 'returns.anotherWindow',
      });
    running.add(returnId);
    try {
      let r = await settleStale(await guarded(journal.returnGet(returnId)));
      let failure: BridgeFailure | undefined;
      let cashGiven = false;
      for (const leg of r.legs) {
        if (leg.state !== 'pending' && leg.state !== 'failed') continue;
        failure = await runLeg(r, leg, giftCard, people);
        if (failure) break;
        if (leg.kind === 'cash') cashGiven = true;
      }
      r = await journal.returnFinish(returnId, clock.now());
      await afterRun(r, cashGiven);
      return failure ? { record: r, failure } : { record: r };
    } finally {
      running.delete(returnId);
    }
  };

  /**
   * A run's answer: a return that moved no money at all was cancelled (its units released) and answers the
   * failure, as if nothing had been asked; otherwise the return as it stands, owing what failed.
   */
  const answer = (done: { record: ReturnRecord; failure?: BridgeFailure }): Made => {
    if (done.record.state === 'cancelled' && done.failure) throw done.failure;
    return { view: toReturnView(done.record), replay: false };
  };

  const receiptOf = async (r: ReturnRecord, copy: 'customer' | 'merchant'): Promise<ReceiptView> => {
    const authCodes = new Map<string, string>();
    for (const leg of r.legs)
      if (leg.utn) {
        const row = await journal.get(leg.utn);
        if (row?.authCode) authCodes.set(leg.utn, row.authCode);
      }
    return buildReturnReceipt(
      { record: r, authCodes, approvedBy: r.ticketId ? undefined : (r.approvedBy ?? undefined) },
      copy,
      header(receiptDeps),
    );
  };

  /** The lines of a return without a receipt, priced by the one rule as a ticket of them would be. */
  const pricedItems = async (items: ReturnWithoutReceipt['items']) => {
    const laneTax: TicketTaxClass = {
      code: 'lane',
      name: 'Tax',
      ratePercent: deps.settings.value.sale.taxRatePercent,
      mode: 'exclusive',
    };
    const lines: (PricingLine & { name: string })[] = [];
    for (const item of items) {
      if (item.itemId !== undefined || item.barcode !== undefined) {
        const found =
          item.itemId !== undefined
            ? await (async () => {
                const it = await deps.catalog.item(item.itemId as number);
                return {
                  item: it,
                  taxClass: await deps.catalog.taxClassRate(it.taxClassId),
                  price: undefined,
                };
              })()
            : await (async () => {
                const l = await deps.catalog.lookup({ barcode: item.barcode ?? '' });
                return { item: l.item, taxClass: l.taxClass, price: l.priceEmbedded?.priceCents };
              })();
        const price = item.priceCents ?? found.price ?? found.item.priceCents;
        if (price <= 0)
          throw new BridgeFailure('invalid', `Type the price of ${found.item.name}.`, {
            messageId: 'returns.typePrice',
            params: { name: found.item.name },
          });
        lines.push({
          name: found.item.name,
          quantity: item.quantity,
          unitPriceCents: price,
          taxClass: {
            code: found.taxClass.code,
            name: found.taxClass.name,
            ratePercent: found.taxClass.ratePercent,
            mode: found.taxClass.mode,
          },
        });
      } else {
        if (item.priceCents === undefined)
          throw new BridgeFailure('invalid', 'Scan the item, or type its price.', {
            messageId: 'returns.scanOrPrice',
          });
        lines.push({
          name: item.name?.trim() || 'Returned item',
          quantity: item.quantity,
          unitPriceCents: item.priceCents,
          taxClass: laneTax,
        });
      }
    }
    const priced = priceTicket(lines);
    return lines.map((l, i) => ({
      name: l.name,
      quantity: l.quantity,
      totalCents: priced.lines[i]?.totalCents ?? 0,
      taxCents: priced.lines[i]?.taxCents ?? 0,
    }));
  };

  return {
    async find(q) {
      if (q.receipt !== undefined) {
        if (q.fromDay ?? q.toDay ?? q.last4 ?? q.amountCents ?? q.after)
          throw new BridgeFailure(
            'invalid',
            'Search by the receipt number alone, or by dates, last four and amount.',
            { messageId: 'returns.receiptAlone' },
          );
        const ticketId = receiptTicketId(q.receipt);
        if (!ticketId)
          throw new BridgeFailure('invalid', 'That is not a receipt number.', {
            messageId: 'returns.notReceipt',
          });
        const sale = await guarded(journal.returnSale(ticketId)).catch((error: unknown) => {
          if (error instanceof BridgeFailure && error.code === 'not-found') return undefined;
          throw error;
        });
        return { sales: sale ? [saleSummary(parseTicket(sale.ticket.data))] : [] };
      }
      const found = await journal.returnFind(findQuery(q, laneTimeZone(deps.settings.value)));
      return {
        sales: found.tickets.map((t) => saleSummary(parseTicket(t.data))),
        ...(found.next ? { next: found.next } : {}),
      };
    },

    async sale(ticketId) {
      const s = await guarded(journal.returnSale(ticketId));
      const t = parseTicket(s.ticket.data);
      const order = [...s.funds.filter((f) => f.kind !== 'cash'), ...s.funds.filter((f) => f.kind === 'cash')]
        .filter((f) => !f.unavailable)
        .map((f) => f.key);
      return {
        ticketId: t.ticketId,
        closedAt: t.closedAt ?? t.openedAt,
        totalCents: t.totalCents,
        taxCents: t.taxCents,
        tipCents: t.tipCents,
        ...(t.employeeName ? { employeeName: t.employeeName } : {}),
        itemized: t.itemized !== undefined,
        lines: s.sold
          .filter((l) => l.quantity > 0)
          .map(({ lineId: _id, ...l }) => ({ ...l, returnedQuantity: s.returnedBefore[l.lineNo] ?? 0 })),
        tenders: s.funds.map(({ operation: _op, last4: _l, cardType: _c, ...f }) => f),
        order,
        returns: s.returns.map((r) => ({
          returnId: r.id,
          createdAt: r.createdAt,
          totalCents: r.totalCents,
          state: r.state,
        })),
      };
    },

    async quote(q) {
      return planView(await guarded(journal.returnQuote(q.ticketId, q.lines, q.order)));
    },

    async create(req, people) {
      const plan = await guarded(journal.returnQuote(req.ticketId, req.lines, req.order));
      if (plan.legs.some((l) => l.kind === 'gift-card') && !req.giftCard)
        throw new BridgeFailure(
          'invalid',
          'Part of the money goes back to a gift card: swipe it or type its number.',
          { messageId: 'returns.partGift' },
        );
      const reason = req.reason?.trim();
      const { record, replay } = await guarded(
        journal.returnReserve({
          kind: 'receipt',
          requestId: req.requestId,
          ticketId: req.ticketId,
          lines: req.lines,
          order: req.order,
          reason: reason ? reason : null,
          now: clock.now(),
          ...byOf(people),
        }),
      );
      if (replay) return { view: toReturnView(record), replay: true };
      return answer(await run(record.id, req.giftCard, people));
    },

    async createWithoutReceipt(req, people) {
      const refundTo = deps.settings.value.returns.noReceiptRefund;
      if (refundTo === 'gift-card' && !req.giftCard)
        throw new BridgeFailure(
          'invalid',
          'A return without a receipt goes on a gift card here: swipe it or type its number.',
          { messageId: 'returns.noReceiptGift' },
        );
      const lines = await pricedItems(req.items);
      const { record, replay } = await guarded(
        journal.returnReserve({
          kind: 'no-receipt',
          requestId: req.requestId,
          lines,
          refundTo,
          reason: req.reason.trim(),
          now: clock.now(),
          ...byOf(people),
        }),
      );
      if (replay) return { view: toReturnView(record), replay: true };
      return answer(await run(record.id, req.giftCard, people));
    },

    async retry(returnId, giftCard, people) {
      const r = await guarded(journal.returnGet(returnId));
      if (r.state === 'done' || r.state === 'cancelled')
        throw new BridgeFailure('conflict', `Return ${returnId} is ${r.state}: nothing is owed.`, {
          messageId: 'returns.nothingOwed',
          params: { returnId },
        });
      const done = await run(returnId, giftCard, people);
      if (done.failure) throw done.failure;
      return { view: toReturnView(done.record), replay: false };
    },

    async get(returnId) {
      const r = await guarded(journal.returnGet(returnId));
      if (running.has(returnId) || !r.legs.some((l) => l.state === 'sending')) return toReturnView(r);
      return toReturnView(await settleStale(r));
    },

    async receipt(returnId, copy) {
      return receiptOf(await guarded(journal.returnGet(returnId)), copy);
    },

    async print(returnId, copy) {
      const r = await guarded(journal.returnGet(returnId));
      return printReceipt(receiptDeps, await receiptOf(r, copy), { ticketId: r.ticketId ?? '' }, false);
    },

    settings: () => deps.settings.value.returns,

    async setSettings(next) {
      await deps.settings.set('returns', { ...next });
      return deps.settings.value.returns;
    },
  };
}

/** The audit line of a return: what came back and where its money went (ids and amounts, no card data). */
export function returnAuditDetail(v: ReturnView): string {
  const legs = v.legs
    .filter((l) => l.state !== 'cancelled')
    .map((l) =>
      `${l.tender} ${dollars(l.amountCents)} ${l.state === 'done' ? (l.method ?? '') : l.state}`.trim(),
    )
    .join(', ');
  const units = v.lines.reduce((s, l) => s + l.quantity, 0);
  return `return ${v.returnId} ${v.ticketId ? `of sale ${v.ticketId}` : 'without a receipt'}: ${units} item(s), ${dollars(v.totalCents)} (tax ${dollars(v.taxCents)}) back: ${legs}; ${v.state}`;
}
