import { describe, expect, it } from 'vitest';
import type { SaleOutcome, TenderView, TicketView, TransactionView } from '../../common/bridge/contract';
import { createSaleStore } from '../../renderer/src/state/sale-store';
import { FakeBridge } from './fake-bridge';

const ticket = (over: Partial<TicketView> = {}): TicketView => ({
  ticketId: 'TK1',
  status: 'open',
  subtotalCents: 2500,
  taxCents: 0,
  tipCents: 0,
  totalCents: 2500,
  paidCents: 0,
  remainingCents: 2500,
  tenders: [],
  openedAt: 1,
  ...over,
});

const tender = (over: Partial<TenderView> = {}): TenderView => ({
  tenderId: 'TD1',
  kind: 'credit',
  status: 'approved',
  requestedCents: 2500,
  approvedCents: 2500,
  tipCents: 0,
  cashBackCents: 0,
  card: { last4: '1111', cardType: 'Visa', entry: 'swipe' },
  authCode: 'A1B2C3',
  userTransactionNumber: 'L1-7',
  at: 2,
  ...over,
});

const outcome = (t: TenderView, tk: TicketView, signatureRequired = false): SaleOutcome => ({
  ticket: tk,
  tender: t,
  needsAnotherTender: tk.status === 'open' && tk.remainingCents > 0,
  signatureRequired,
});

function setup(pay: (b: FakeBridge) => SaleOutcome) {
  const bridge = new FakeBridge()
    .answer('sale.settings', {
      confirmAboveCents: 100_000,
      chipFallbackAfterFailures: 1,
      taxRatePercent: 8.25,
      tipPrompt: true,
      tipPresetsPercent: [15, 20],
    })
    .handle('sale.open', (p) => ({
      ok: true,
      value: ticket({ subtotalCents: p.subtotalCents, tipCents: p.tipCents ?? 0 }),
    }));
  bridge.handle('sale.pay', () => ({ ok: true, value: pay(bridge) }));
  const store = createSaleStore(bridge, () => 0);
  const off = store.getState().init();
  return { bridge, store, off };
}

describe('sale store: the cashier’s sale as a state machine over the bridge', () => {
  it('keys the amount, opens the ticket with the tip and leaves tax to the core, ends approved and paid', async () => {
    const { bridge, store } = setup(() =>
      outcome(tender(), ticket({ status: 'paid', paidCents: 2500, remainingCents: 0 })),
    );
    await Promise.resolve();
    for (const d of '2500') store.getState().digit(d);
    store.getState().setTip(375);
    await store.getState().pay({ kind: 'credit', entry: 'present' });
    expect(bridge.called('sale.open')).toEqual([{ subtotalCents: 2500, tipCents: 375 }]);
    expect(bridge.called('sale.pay')).toEqual([
      { ticketId: 'TK1', tender: { kind: 'credit', entry: 'present' } },
    ]);
    expect(store.getState().phase).toBe('done');
    expect(store.getState().outcome?.tender.authCode).toBe('A1B2C3');
    expect(store.getState().settings?.taxRatePercent).toBe(8.25);
  });

  it('refuses to start without an amount', async () => {
    const { bridge, store } = setup(() => outcome(tender(), ticket()));
    await store.getState().pay({ kind: 'credit', entry: 'present' });
    expect(store.getState().error).toBe('Enter the amount first.');
    expect(bridge.called('sale.open')).toEqual([]);
  });

  it('follows sale.progress for its own ticket only, and cancel stops the device', async () => {
    let release: (o: SaleOutcome) => void = () => undefined;
    const { bridge, store } = setup(() => outcome(tender(), ticket()));
    bridge.handle('sale.pay', () => new Promise((r) => (release = (o) => r({ ok: true, value: o }))));
    bridge.answer('sale.cancel', ticket());
    store.getState().setSubtotal(2500);
    const paying = store.getState().pay({ kind: 'credit', entry: 'present' });
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().phase).toBe('paying');
    bridge.emit('sale.progress', { ticketId: 'OTHER', tenderId: 'x', step: 'pin-entry', prompt: 'not ours' });
    expect(store.getState().progress).toBeNull();
    bridge.emit('sale.progress', {
      ticketId: 'TK1',
      tenderId: 'TD1',
      step: 'waiting-for-card',
      prompt: 'Insert, tap or swipe',
    });
    expect(store.getState().progress?.prompt).toBe('Insert, tap or swipe');
    await store.getState().cancel();
    expect(bridge.called('sale.cancel')).toEqual([{ ticketId: 'TK1' }]);
    release(
      outcome(
        tender({ status: 'cancelled', approvedCents: 0, message: 'Cancelled.' }),
        ticket({ tenders: [] }),
      ),
    );
    await paying;
    expect(store.getState().phase).toBe('result');
    expect(store.getState().outcome?.tender.status).toBe('cancelled');
  });

  it('a declined tender keeps the ticket open for the next tender', async () => {
    const { store } = setup(() =>
      outcome(
        tender({
          status: 'declined',
          approvedCents: 0,
          gatewayCode: 3,
          declineCode: 100,
          message: 'Declined by the card issuer.',
        }),
        ticket(),
      ),
    );
    store.getState().setSubtotal(2500);
    await store.getState().pay({ kind: 'credit', entry: 'present' });
    expect(store.getState().phase).toBe('result');
    expect(store.getState().ticket?.remainingCents).toBe(2500);
    // The amount is fixed once the ticket is open.
    store.getState().digit('9');
    expect(store.getState().subtotalCents).toBe(2500);
  });

  it('a partial approval asks for the rest, then cash finishes the ticket', async () => {
    let n = 0;
    const { store } = setup(() =>
      ++n === 1
        ? outcome(
            tender({ status: 'partial', approvedCents: 2000 }),
            ticket({ paidCents: 2000, remainingCents: 500 }),
          )
        : outcome(
            tender({ tenderId: 'TD2', kind: 'cash', approvedCents: 500, changeCents: 500, card: undefined }),
            ticket({ status: 'paid', paidCents: 2500, remainingCents: 0 }),
          ),
    );
    store.getState().setSubtotal(2500);
    await store.getState().pay({ kind: 'credit', entry: 'present' });
    expect(store.getState().phase).toBe('result');
    expect(store.getState().outcome?.needsAnotherTender).toBe(true);
    await store.getState().pay({ kind: 'cash', tenderedCents: 1000 });
    expect(store.getState().phase).toBe('done');
    expect(store.getState().outcome?.tender.changeCents).toBe(500);
  });

  it('a required signature holds the ticket until it is captured', async () => {
    const { bridge, store } = setup(() =>
      outcome(
        tender({ signature: { required: true, captured: false } }),
        ticket({ paidCents: 2500, remainingCents: 0 }),
        true,
      ),
    );
    bridge.answer('sale.signature', tender({ signature: { required: true, captured: true } }));
    bridge.answer('sale.get', ticket({ status: 'paid', paidCents: 2500, remainingCents: 0 }));
    store.getState().setSubtotal(7500);
    await store.getState().pay({ kind: 'credit', entry: 'chip' });
    expect(store.getState().phase).toBe('signature');
    expect(await store.getState().signature({ source: 'pad' })).toBe(true);
    expect(bridge.called('sale.signature')).toEqual([
      { ticketId: 'TK1', tenderId: 'TD1', signature: { source: 'pad' } },
    ]);
    expect(store.getState().phase).toBe('done');
  });

  it('an unknown outcome is followed until the journal says reversed', async () => {
    const { bridge, store } = setup(() =>
      outcome(tender({ status: 'unknown', approvedCents: 0, userTransactionNumber: 'L1-9' }), ticket()),
    );
    let state: TransactionView['state'] = 'reversing';
    bridge.handle('transactions.list', () => ({
      ok: true,
      value: [
        {
          cursor: 'mzx.9',
          userTransactionNumber: 'L1-9',
          operation: 'sale',
          state,
          amountCents: 2500,
          tipCents: 0,
          cashBackCents: 0,
          refundedCents: 0,
          createdAt: 1,
          updatedAt: 2,
        },
      ],
    }));
    store.getState().setSubtotal(2500);
    await store.getState().pay({ kind: 'credit', entry: 'present' });
    expect(store.getState().reversal?.state).toBe('reversing');
    state = 'reversed';
    bridge.emit('reversals.updated', { pending: 0, items: [] });
    await new Promise((r) => setTimeout(r, 10));
    expect(store.getState().reversal?.state).toBe('reversed');
    store.getState().newSale();
  });

  it('an approval the chip card refused is followed until reversed, like an unknown outcome; a plain reversal is not', async () => {
    const refused = tender({
      status: 'reversed',
      approvedCents: 0,
      userTransactionNumber: 'L1-10',
      cardRefusal: 'declined-by-card',
      message: 'Declined by card — payment reversed. The customer is not charged.',
      card: { last4: '0416', cardType: 'Visa', entry: 'chip' },
    });
    const { bridge, store } = setup(() => outcome(refused, ticket()));
    let state: TransactionView['state'] = 'reversing';
    bridge.handle('transactions.list', () => ({
      ok: true,
      value: [
        {
          cursor: 'mzx.0',
          userTransactionNumber: 'L1-10',
          operation: 'sale',
          state,
          amountCents: 2500,
          tipCents: 0,
          cashBackCents: 0,
          refundedCents: 0,
          cardDecision: 'AAC',
          createdAt: 1,
          updatedAt: 2,
        },
      ],
    }));
    store.getState().setSubtotal(2500);
    await store.getState().pay({ kind: 'credit', entry: 'chip' });
    expect(store.getState().phase).toBe('result');
    expect(store.getState().reversal).toEqual({ utn: 'L1-10', state: 'reversing' });
    state = 'reversed';
    bridge.emit('reversals.updated', { pending: 0, items: [] });
    await new Promise((r) => setTimeout(r, 10));
    expect(store.getState().reversal?.state).toBe('reversed');
    store.getState().newSale();
    // A tender reversed without the card's refusal (a voided cash or abandoned tender) has nothing to follow.
    const other = setup(() =>
      outcome(tender({ status: 'reversed', approvedCents: 0, userTransactionNumber: 'L1-11' }), ticket()),
    );
    other.store.getState().setSubtotal(2500);
    await other.store.getState().pay({ kind: 'credit', entry: 'present' });
    expect(other.store.getState().reversal).toBeNull();
  });

  it('offline: refused (nothing charged) keeps the ticket open; store-and-forward finishes it', async () => {
    let n = 0;
    const { store } = setup(() =>
      ++n === 1
        ? outcome(
            tender({
              status: 'offline-refused',
              approvedCents: 0,
              message: 'The gateway is unreachable (offline); nothing was charged.',
            }),
            ticket(),
          )
        : outcome(
            tender({ tenderId: 'TD2', status: 'stored' }),
            ticket({ status: 'paid', paidCents: 2500, remainingCents: 0 }),
          ),
    );
    store.getState().setSubtotal(2500);
    await store.getState().pay({ kind: 'credit', entry: 'present' });
    expect(store.getState().phase).toBe('result');
    expect(store.getState().outcome?.tender.status).toBe('offline-refused');
    await store.getState().pay({ kind: 'credit', entry: 'chip' });
    expect(store.getState().phase).toBe('done');
  });

  it('a refusal before any tender ran (busy, device) goes back with the reason', async () => {
    const { bridge, store } = setup(() => outcome(tender(), ticket()));
    bridge.handle('sale.pay', () => ({
      ok: false,
      error: { code: 'device', message: 'The PIN pad is not connected.' },
    }));
    bridge.answer('sale.get', ticket());
    store.getState().setSubtotal(2500);
    await store.getState().pay({ kind: 'debit' });
    expect(store.getState().phase).toBe('entry');
    expect(store.getState().error).toBe('The PIN pad is not connected.');
  });

  it('restores a ticket that still owes a signature after a restart', async () => {
    const { bridge, store } = setup(() => outcome(tender(), ticket()));
    bridge.answer(
      'sale.get',
      ticket({
        paidCents: 7500,
        remainingCents: 0,
        tenders: [tender({ signature: { required: true, captured: false } })],
      }),
    );
    await store.getState().restore('TK1');
    expect(store.getState().phase).toBe('signature');
  });

  it('“Change amount” gives up an empty ticket and keeps the amount', async () => {
    const { bridge, store } = setup(() => outcome(tender(), ticket()));
    bridge.answer('sale.abandon', ticket({ status: 'abandoned' }));
    store.getState().setSubtotal(2500);
    await store.getState().chooseForm('cash');
    expect(store.getState().phase).toBe('form');
    store.getState().closeForm();
    await store.getState().editAmount();
    expect(bridge.called('sale.abandon')).toEqual([{ ticketId: 'TK1' }]);
    expect(store.getState().ticket).toBeNull();
    expect(store.getState().subtotalCents).toBe(2500);
  });
  it('follows a tender another window started: the live prompt, then the outcome from sale.updated', async () => {
    const { bridge, store } = setup(() => outcome(tender(), ticket()));
    const running = ticket({ tenders: [tender({ status: 'in-progress', approvedCents: 0 })] });
    bridge.answer('sale.live', {
      ticket: running,
      tenderId: 'TD1',
      progress: {
        ticketId: 'TK1',
        tenderId: 'TD1',
        step: 'waiting-for-card',
        prompt: 'Insert, tap or swipe',
        timeoutSeconds: 41,
      },
    });
    bridge.emit('sale.progress', {
      ticketId: 'TK1',
      tenderId: 'TD1',
      step: 'waiting-for-card',
      prompt: 'Insert, tap or swipe',
    });
    await store.getState().attach();
    expect(store.getState().phase).toBe('paying');
    expect(store.getState().progress?.timeoutSeconds).toBe(41);
    // The ticket saved with nothing left to pay is not yet where the screen lands: the paid one is.
    const approved = tender();
    bridge.emit('sale.updated', ticket({ paidCents: 2500, remainingCents: 0, tenders: [approved] }));
    expect(store.getState().phase).toBe('paying');
    bridge.emit(
      'sale.updated',
      ticket({ status: 'paid', paidCents: 2500, remainingCents: 0, tenders: [approved] }),
    );
    expect(store.getState().phase).toBe('done');
    expect(store.getState().outcome?.tender.authCode).toBe('A1B2C3');
  });

  it('after a reload with nothing running, the ticket this window showed comes back with its outcome', async () => {
    let remembered: string | null = 'TK1';
    const bridge = new FakeBridge()
      .answer('sale.live', null)
      .answer(
        'sale.get',
        ticket({ status: 'paid', paidCents: 2500, remainingCents: 0, tenders: [tender()] }),
      );
    const store = createSaleStore(bridge, () => 0, {
      get: () => remembered,
      set: (id) => (remembered = id),
    });
    await store.getState().attach();
    expect(store.getState().phase).toBe('done');
    store.getState().newSale();
    expect(remembered).toBeNull();
  });
});
