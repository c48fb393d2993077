import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  BridgeResult,
  CommandName,
  CustomerDisplayView,
  EventName,
} from '../../../common/bridge/contract';
import { commandAccess } from '../../../electron/roles/command-access';
import type { BridgeConnection } from '../../../electron/bridge/connection';
import { maxCustomTipCents } from '../../../common/tip-choice';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import { EMAIL_ADDRESS_PROBLEM } from '../../../common/email-address';
import { startSmtpSink } from '../../support/smtp-sink';
import { eventually, openTill, startLane, value, type Lane } from '../helpers';

/**
 * The customer's side in the core (docs/bridge.md "Customer display"): a customer display connection
 * hears the customer's view only and may answer only what the core asks — the tip (bounded by the one tip
 * rule), the signature (first capture wins), the receipt — while a cashier's connection cannot answer for
 * the customer. The pole display shows the line and the total, and a sale goes on without it.
 */

const SIGNATURE_CHIP = '4012888888881881'; // its CVM list asks for a signature

const codeOf = <T>(r: BridgeResult<T>): string => (r.ok ? 'ok' : r.error.code);

async function tipsOn(lane: Lane, presets = [15, 18, 20]): Promise<void> {
  const manager = lane.core.connect();
  value(await manager.send('session.signIn', { pin: '9999' }));
  value(await manager.send('business.update', { tipPrompt: true, tipPresetsPercent: presets }));
  manager.close();
}

/** The customer display's latest view, as its events deliver it. */
function follow(display: BridgeConnection): {
  last: () => CustomerDisplayView | undefined;
  events: EventName[];
} {
  let last: CustomerDisplayView | undefined;
  const events: EventName[] = [];
  display.onAny((event, payload) => {
    events.push(event);
    if (event === 'customer.updated') last = payload as CustomerDisplayView;
  });
  return { last: () => last, events };
}

describe('the customer display in the core', () => {
  let gw: TestGateway;
  let lane: Lane;
  const opened: BridgeConnection[] = [];
  const display = (): BridgeConnection => {
    const c = lane.core.connect('customer-display');
    opened.push(c);
    return c;
  };

  beforeAll(async () => {
    gw = await startGateway();
    lane = await startLane({ gateway: gw, core: { customerDisplay: { thanksMs: 200 } } });
    await tipsOn(lane);
    // Cash goes through a till.
    await openTill(lane.bridge);
  });
  afterEach(async () => {
    for (const c of opened.splice(0)) c.close();
    // Leave the lane without an open ticket for the next test.
    const open = value(await lane.bridge.send('sale.current', {}));
    if (open)
      await lane.bridge.send('sale.abandon', { ticketId: open.ticketId, approval: { managerPin: '9999' } });
  });
  afterAll(async () => {
    await lane.close();
    await gw.close();
  });

  it('a customer display’s connection is refused every command of the access table but its own', async () => {
    const c = display();
    const refused: string[] = [];
    const others = (Object.keys(commandAccess) as CommandName[]).filter(
      (k) => commandAccess[k] !== 'customer',
    );
    expect(others.length).toBeGreaterThan(80);
    for (const command of others) {
      const r = await c.dispatch(command, command === 'session.signIn' ? { pin: '1111' } : {});
      if (r.ok || r.error.code !== 'forbidden') refused.push(`${command}: ${codeOf(r)}`);
    }
    expect(refused).toEqual([]);
    // Not even signed in by a PIN: its session stays empty, and its own commands still answer.
    expect(value(await c.send('customer.view', {})).phase).toBe('idle');
  });

  it('a terminal connection cannot call the customer’s commands, signed in or not', async () => {
    const customerCommands = (Object.keys(commandAccess) as CommandName[]).filter(
      (k) => commandAccess[k] === 'customer',
    );
    expect(customerCommands).toEqual([
      'customer.view',
      'customer.tip',
      'customer.signature',
      'customer.receipt',
    ]);
    const stranger = lane.core.connect();
    for (const command of customerCommands) {
      expect(codeOf(await lane.bridge.dispatch(command, {}))).toBe('forbidden');
      expect(codeOf(await stranger.dispatch(command, {}))).toBe('unauthorized');
    }
    stranger.close();
  });

  it('the customer picks a custom tip while the cashier waits; the journal row carries it', async () => {
    const c = display();
    const seen = follow(c);
    const t = value(await lane.bridge.send('sale.open', { subtotalCents: 2000, taxCents: 0 }));
    await eventually(() => seen.last()?.ticket?.ticketId === t.ticketId);
    expect(seen.last()?.ticket?.lines).toEqual([
      { lineId: `${t.ticketId}-amount`, description: 'Sale', wording: 'sale', amountCents: 2000 },
    ]);
    // A tip chosen before the core asks is refused, and changes nothing.
    expect(codeOf(await c.send('customer.tip', { ticketId: t.ticketId, choice: { kind: 'none' } }))).toBe(
      'conflict',
    );
    const asked = lane.bridge.send('customerDisplay.askTip', { ticketId: t.ticketId });
    await eventually(() => seen.last()?.ask?.kind === 'tip');
    const ask = seen.last()?.ask;
    expect(ask).toEqual({
      kind: 'tip',
      ticketId: t.ticketId,
      baseCents: 2000,
      options: [
        { percent: 15, tipCents: 300 },
        { percent: 18, tipCents: 360 },
        { percent: 20, tipCents: 400 },
      ],
      maxCustomCents: maxCustomTipCents(2000),
    });
    // Above the bound: refused, the ask stays.
    const tooMuch = await c.send('customer.tip', {
      ticketId: t.ticketId,
      choice: { kind: 'custom', tipCents: maxCustomTipCents(2000) + 1 },
    });
    expect(codeOf(tooMuch)).toBe('invalid');
    expect(value(await lane.bridge.send('sale.get', { ticketId: t.ticketId })).tipCents).toBe(0);
    // A preset nobody offered is no preset.
    expect(
      codeOf(await c.send('customer.tip', { ticketId: t.ticketId, choice: { kind: 'preset', percent: 50 } })),
    ).toBe('invalid');
    const chose = value(
      await c.send('customer.tip', { ticketId: t.ticketId, choice: { kind: 'custom', tipCents: 375 } }),
    );
    expect(chose.tipChoice).toEqual({ by: 'customer', kind: 'custom', tipCents: 375 });
    expect(chose.ask).toBeUndefined();
    const answer = value(await asked);
    expect(answer.outcome).toBe('chosen');
    expect(answer.ticket.tipCents).toBe(375);
    expect(answer.ticket.totalCents).toBe(2375);
    // The ask is over: a second answer is refused.
    expect(codeOf(await c.send('customer.tip', { ticketId: t.ticketId, choice: { kind: 'none' } }))).toBe(
      'conflict',
    );

    const pay = lane.bridge.send('sale.pay', {
      ticketId: t.ticketId,
      tender: { kind: 'credit', entry: 'present' },
    });
    await eventually(() => seen.last()?.prompt?.step === 'present-card');
    value(await lane.bridge.send('simulator.swipe', { pan: '4111111111111111' }));
    const out = value(await pay);
    expect(out.tender.status).toBe('approved');
    expect(out.ticket.tipCents).toBe(375);
    const row = (await lane.core.journal.list({})).find((r) => r.utn === out.tender.userTransactionNumber);
    expect(row?.tipCents).toBe(375);
    expect(row?.amountCents).toBe(2000);
    await eventually(() => seen.last()?.phase === 'thanks');
    const thanks = seen.last();
    expect(thanks?.outcome).toEqual({
      kind: 'approved',
      amountCents: 2375,
      card: { cardType: out.tender.card?.cardType, last4: '1111' },
    });
    // The customer's side never hears the cashier's events, nor card data beyond the last four.
    expect([...new Set(seen.events)]).toEqual(['customer.updated']);
    const everything = JSON.stringify(seen);
    expect(everything).not.toContain('411111');
    expect(everything).not.toContain(out.tender.serviceReferenceNumber ?? 'no-srn');
    expect(everything).not.toContain(out.tender.userTransactionNumber ?? 'no-utn');
    expect(everything).not.toContain(`"${out.tender.authCode ?? 'no-auth-code'}"`);
  });

  it('a cashier’s page cannot spoof the customer’s tip while a customer display chooses it', async () => {
    display();
    const spoofOpen = await lane.bridge.send('sale.open', { subtotalCents: 1000, tipCents: 500 });
    expect(spoofOpen.ok ? 'opened' : spoofOpen.error.message).toMatch(/customer chooses the tip/);
    const t = value(await lane.bridge.send('sale.open', { subtotalCents: 1000, taxCents: 0 }));
    expect(codeOf(await lane.bridge.send('sale.setTip', { ticketId: t.ticketId, tipCents: 500 }))).toBe(
      'conflict',
    );
    const asked = lane.bridge.send('customerDisplay.askTip', { ticketId: t.ticketId });
    // The cashier's connection cannot answer the customer's question…
    expect(
      codeOf(
        await lane.bridge.dispatch('customer.tip', {
          ticketId: t.ticketId,
          choice: { kind: 'custom', tipCents: 900 },
        }),
      ),
    ).toBe('forbidden');
    // …nor pay with a tip of its own.
    expect(
      codeOf(
        await lane.bridge.send('sale.pay', {
          ticketId: t.ticketId,
          tender: { kind: 'cash', tenderedCents: 2000 },
          tipCents: 900,
        }),
      ),
    ).toBe('conflict');
    // Skipping is the cashier's: no tip.
    const skipped = value(
      await lane.bridge.send('customerDisplay.endTipAsk', { ticketId: t.ticketId, action: 'skip' }),
    );
    expect(skipped.tipChoice).toEqual({ by: 'cashier', kind: 'skipped', tipCents: 0 });
    const answer = value(await asked);
    expect(answer.outcome).toBe('skipped');
    expect(answer.ticket.tipCents).toBe(0);
    // Asked again for the same ticket: the answer stands, nobody is asked twice.
    expect(value(await lane.bridge.send('customerDisplay.askTip', { ticketId: t.ticketId })).outcome).toBe(
      'skipped',
    );
  });

  it('without a customer display the tip stays the cashier’s, as before', async () => {
    const t = value(await lane.bridge.send('sale.open', { subtotalCents: 1000, taxCents: 0, tipCents: 150 }));
    expect(t.tipCents).toBe(150);
    expect(
      value(await lane.bridge.send('sale.setTip', { ticketId: t.ticketId, tipCents: 200 })).tipCents,
    ).toBe(200);
    expect(codeOf(await lane.bridge.send('customerDisplay.askTip', { ticketId: t.ticketId }))).toBe(
      'unavailable',
    );
  });

  it('the cashier cancels the tip ask: back to the tender choice, the tip unchanged', async () => {
    const c = display();
    const t = value(await lane.bridge.send('sale.open', { subtotalCents: 1000, taxCents: 0 }));
    const asked = lane.bridge.send('customerDisplay.askTip', { ticketId: t.ticketId });
    await eventually(async () => value(await c.send('customer.view', {})).ask?.kind === 'tip');
    value(await lane.bridge.send('customerDisplay.endTipAsk', { ticketId: t.ticketId, action: 'cancel' }));
    expect(value(await asked).outcome).toBe('cancelled');
    expect(value(await c.send('customer.view', {})).ask).toBeUndefined();
  });

  it('the customer signs on the display; the pad’s later confirmation does not replace it', async () => {
    const c = display();
    const seen = follow(c);
    const t = value(await lane.bridge.send('sale.open', { subtotalCents: 4200, taxCents: 0 }));
    const pay = lane.bridge.send('sale.pay', {
      ticketId: t.ticketId,
      tender: { kind: 'credit', entry: 'chip' },
    });
    const controls = lane.core.devices.simulated?.controls;
    await eventually(() => controls?.state().chip.waitingForCard === true);
    expect(controls?.insert(SIGNATURE_CHIP)).toBe(true);
    const out = value(await pay);
    expect(out.signatureRequired).toBe(true);
    await eventually(() => seen.last()?.ask?.kind === 'signature');
    expect(seen.last()?.ask).toEqual({
      kind: 'signature',
      ticketId: t.ticketId,
      tenderId: out.tender.tenderId,
      amountCents: 4200,
    });
    const strokes = [
      [
        { x: 10, y: 40, t: 0 },
        { x: 80, y: 20, t: 16 },
        { x: 150, y: 60, t: 32 },
      ],
    ];
    const empty = await c.send('customer.signature', {
      ticketId: t.ticketId,
      tenderId: out.tender.tenderId,
      signature: { source: 'screen', width: 400, height: 150, strokes: [] },
    });
    expect(codeOf(empty)).toBe('invalid');
    value(
      await c.send('customer.signature', {
        ticketId: t.ticketId,
        tenderId: out.tender.tenderId,
        signature: { source: 'screen', width: 400, height: 150, strokes },
      }),
    );
    const paid = value(await lane.bridge.send('sale.get', { ticketId: t.ticketId }));
    expect(paid.status).toBe('paid');
    const svg = paid.tenders[0]?.signature?.svg ?? '';
    expect(svg).toContain('M10.0 40.0 L80.0 20.0 L150.0 60.0');
    // The customer signed first: the pad's confirmation (or the cashier's box) is refused, and the
    // signature stays the customer's.
    value(await lane.bridge.send('simulator.sign', {}));
    const late = await lane.bridge.send('sale.signature', {
      ticketId: t.ticketId,
      tenderId: out.tender.tenderId,
      signature: { source: 'pad' },
    });
    expect(late.ok ? 'signed again' : late.error.message).toBe('The customer has already signed.');
    expect(
      value(await lane.bridge.send('sale.get', { ticketId: t.ticketId })).tenders[0]?.signature?.svg,
    ).toBe(svg);
    // A signature nobody asks for is refused.
    expect(
      codeOf(
        await c.send('customer.signature', {
          ticketId: t.ticketId,
          tenderId: out.tender.tenderId,
          signature: { source: 'screen', width: 400, height: 150, strokes },
        }),
      ),
    ).toBe('conflict');
  });

  it('after approval the customer chooses the receipt: email is not set up here, print prints', async () => {
    const c = display();
    const seen = follow(c);
    const t = value(await lane.bridge.send('sale.open', { subtotalCents: 1500, taxCents: 0 }));
    const prints: boolean[] = [];
    const off = lane.bridge.on('receipt.printed', (r) => {
      if (r.ticketId === t.ticketId) prints.push(r.printed);
    });
    const out = value(
      await lane.bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: { kind: 'cash', tenderedCents: 2000 },
      }),
    );
    expect(out.ticket.status).toBe('paid');
    await eventually(() => seen.last()?.ask?.kind === 'receipt');
    expect(seen.last()?.ask).toEqual({ kind: 'receipt', ticketId: t.ticketId, email: false });
    expect(seen.last()?.outcome).toEqual({ kind: 'cash', amountCents: 1500, changeCents: 500 });
    // The customer chooses: nothing printed by itself meanwhile.
    await new Promise((r) => setTimeout(r, 300));
    expect(prints).toEqual([]);
    const email = await c.send('customer.receipt', {
      ticketId: t.ticketId,
      choice: 'email',
      email: 'a@b.example',
    });
    expect(email.ok ? 'sent' : email.error).toEqual({
      code: 'unavailable',
      message: 'Email receipts are not set up on this terminal.',
    });
    const printed = value(await c.send('customer.receipt', { ticketId: t.ticketId, choice: 'print' }));
    expect(printed.receiptChoice).toEqual({ choice: 'print', result: 'printed' });
    expect(prints).toEqual([true]);
    off();
    expect(codeOf(await c.send('customer.receipt', { ticketId: t.ticketId, choice: 'none' }))).toBe(
      'conflict',
    );
    // "Thank you", then the welcome for the next customer.
    await eventually(() => seen.last()?.phase === 'idle');
  });

  it('the pole display shows the line and the total, then thanks; the sale goes on when it is unplugged', async () => {
    const pole = () =>
      lane.core.devices.simulated?.controls.state().poleDisplay.lines.map((l) => l.trimEnd());
    await eventually(() => pole()?.[0]?.trim() === 'Welcome');
    const t = value(await lane.bridge.send('sale.open', { subtotalCents: 1234, taxCents: 0 }));
    await eventually(() => pole()?.[0] === 'Sale          $12.34');
    expect(pole()).toEqual(['Sale          $12.34', 'Total         $12.34']);
    value(
      await lane.bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: { kind: 'cash', tenderedCents: 2000 },
      }),
    );
    await eventually(() => pole()?.[0] === 'Change         $7.66');

    value(await lane.bridge.send('simulator.unplug', { role: 'poleDisplay' }));
    const t2 = value(await lane.bridge.send('sale.open', { subtotalCents: 500, taxCents: 0 }));
    const out = value(
      await lane.bridge.send('sale.pay', {
        ticketId: t2.ticketId,
        tender: { kind: 'cash', tenderedCents: 500 },
      }),
    );
    expect(out.ticket.status).toBe('paid');
    value(await lane.bridge.send('simulator.replug', { role: 'poleDisplay' }));
    // Back on its cable, it shows the lane as it is now.
    await eventually(() => (pole()?.[0] ?? '').trim() === 'Thank you', 10_000);
  });
});

describe('email receipts, when the store has a mail server', () => {
  it('the customer types the address on the display; the receipt arrives at the store’s mail server', async () => {
    const sink = await startSmtpSink();
    const lane = await startLane({ signIn: '9999' });
    try {
      value(
        await lane.bridge.send('email.settings.set', {
          host: '127.0.0.1',
          port: sink.port,
          security: 'none',
          user: '',
          senderAddress: 'receipts@corner-shop.example',
          senderName: 'Corner Shop',
        }),
      );
      await openTill(lane.bridge);
      const c = lane.core.connect('customer-display');
      const t = value(await lane.bridge.send('sale.open', { subtotalCents: 800, taxCents: 0 }));
      value(
        await lane.bridge.send('sale.pay', {
          ticketId: t.ticketId,
          tender: { kind: 'cash', tenderedCents: 800 },
        }),
      );
      await eventually(async () => value(await c.send('customer.view', {})).ask?.kind === 'receipt').catch(
        async (e: unknown) => {
          throw new Error(`${String(e)}: ${JSON.stringify(value(await c.send('customer.view', {})))}`);
        },
      );
      expect(value(await c.send('customer.view', {})).ask).toEqual({
        kind: 'receipt',
        ticketId: t.ticketId,
        email: true,
      });
      const typo = await c.send('customer.receipt', {
        ticketId: t.ticketId,
        choice: 'email',
        email: 'ana@example',
      });
      expect(typo.ok ? 'queued' : typo.error.message).toBe(EMAIL_ADDRESS_PROBLEM);
      const v = value(
        await c.send('customer.receipt', {
          ticketId: t.ticketId,
          choice: 'email',
          email: ' ana@example.com ',
        }),
      );
      expect(v.receiptChoice).toEqual({ choice: 'email', result: 'email-queued' });
      const [mail] = await sink.waitFor(1);
      expect(mail?.to).toEqual(['ana@example.com']);
      expect(mail?.parsed.text).toContain('TOTAL');
      // An English store: the email is in English when the customer display did not choose another language.
      expect(mail?.parsed.subject).toMatch(/^Your receipt from /);
      expect(mail?.parsed.text).toContain('CUSTOMER COPY');

      const queue = value(await lane.bridge.send('email.queue.get', {}));
      expect(queue.items.map((i) => i.to)).toEqual(['a***@example.com']);

      // The customer who switched the display to Spanish gets the receipt and its email in Spanish.
      const t2 = value(await lane.bridge.send('sale.open', { subtotalCents: 900, taxCents: 0 }));
      value(
        await lane.bridge.send('sale.pay', {
          ticketId: t2.ticketId,
          tender: { kind: 'cash', tenderedCents: 1000 },
        }),
      );
      await eventually(async () => {
        const ask = value(await c.send('customer.view', {})).ask;
        return ask?.kind === 'receipt' && ask.ticketId === t2.ticketId;
      });
      value(
        await c.send('customer.receipt', {
          ticketId: t2.ticketId,
          choice: 'email',
          email: 'luis@example.com',
          language: 'es',
        }),
      );
      const [, spanish] = await sink.waitFor(2);
      expect(spanish?.to).toEqual(['luis@example.com']);
      expect(spanish?.parsed.subject).toMatch(/^Su recibo de /);
      expect(spanish?.parsed.text).toContain('Gracias por su compra en');
      expect(spanish?.parsed.text).toContain('COPIA DEL CLIENTE');
      expect(spanish?.parsed.text).toContain('EFECTIVO');
      expect(spanish?.parsed.text).not.toContain('CUSTOMER COPY');
      c.close();
    } finally {
      await lane.close();
      await sink.close();
    }
  });
});
