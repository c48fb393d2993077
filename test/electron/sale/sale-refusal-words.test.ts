import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeError, BridgeResult } from '../../../common/bridge/contract';
import { en } from '../../../renderer/src/i18n/en';
import { chooseLanguage, setStoreLocale } from '../../../renderer/src/i18n/locale';
import { describeError } from '../../../renderer/src/state/app-store';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import { openTill, startLane, value, type Lane } from '../helpers';

/**
 * Issue 20 on the sale and card path: the core's refusals the Sale screen shows name their words in the
 * screens' catalogs (messageId `sale.*`, the `errors` namespace), so a Spanish window says them in Spanish;
 * the English catalog holds the very words the core sends (tools and logs read those).
 */

const refusal = <T>(r: BridgeResult<T>): BridgeError => {
  if (r.ok) throw new Error('expected a refusal');
  return r.error;
};

/** The refusal as an English window says it, and as a Spanish one does. */
function said(error: BridgeError): { en: string; es: string } {
  chooseLanguage('en');
  const english = describeError(error);
  chooseLanguage('es');
  const spanish = describeError(error);
  chooseLanguage(null);
  return { en: english, es: spanish };
}

let gw: TestGateway;
let lane: Lane;

beforeAll(async () => {
  gw = await startGateway();
  lane = await startLane({ gateway: gw });
}, 60_000);

afterAll(async () => {
  await lane?.core.stop();
  await gw?.close();
});

afterEach(() => {
  chooseLanguage(null);
  setStoreLocale({ locale: 'en-US', currency: 'USD' });
});

describe('the sale’s refusals by messageId', () => {
  it('a tender’s, a ticket’s and a receipt’s refusals: the core’s English in the catalog, Spanish in a Spanish window', async () => {
    const { bridge } = lane;
    const none = refusal(await bridge.send('receipt.reprintLast', {}));
    expect(none).toMatchObject({ code: 'not-found', messageId: 'sale.noReceiptYet' });
    expect(said(none)).toEqual({
      en: 'No receipt to reprint yet.',
      es: 'Todavía no hay un ticket que reimprimir.',
    });

    await openTill(bridge);
    const t = value(await bridge.send('sale.open', { subtotalCents: 2_000 }));
    const due = t.remainingCents;

    // Change of more than a $100 bill over what is due: the amounts go as cents, written by the window.
    const large = refusal(
      await bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: { kind: 'cash', tenderedCents: 50_000 },
      }),
    );
    expect(large).toMatchObject({
      code: 'invalid',
      messageId: 'sale.largeChange',
      params: { changeCents: 50_000 - due, billCents: 10_000, dueCents: due },
    });
    const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
    // The core writes bare amounts (tools, logs); a window writes them in the store's currency.
    expect(large.message).toBe(
      `Change of ${money(50_000 - due).slice(1)} is more than a 100.00 bill over the ${money(due).slice(1)} due: check the cash handed over, or confirm it.`,
    );
    expect(said(large)).toEqual({
      en: `Change of ${money(50_000 - due)} is more than a $100.00 bill over the ${money(due)} due: check the cash handed over, or confirm it.`,
      es: `Un cambio de ${money(50_000 - due)} es más de un billete de $100.00 por encima de los ${money(due)} a cobrar: revise el efectivo recibido, o confírmelo.`,
    });

    const more = refusal(
      await bridge.send('sale.pay', {
        ticketId: t.ticketId,
        amountCents: due + 1,
        tender: { kind: 'credit', entry: 'keyed', keyed: { cardNumber: '4111111111111111', expiry: '1230' } },
      }),
    );
    expect(more).toMatchObject({ code: 'invalid', messageId: 'sale.moreThanRemains' });
    expect(said(more)).toEqual({
      en: more.message,
      es: 'El importe es mayor de lo que falta por pagar en la cuenta.',
    });

    const part = value(
      await bridge.send('sale.pay', {
        ticketId: t.ticketId,
        amountCents: 1_000,
        tender: { kind: 'cash', tenderedCents: 1_000 },
      }),
    );
    const tipLate = refusal(await bridge.send('sale.setTip', { ticketId: t.ticketId, tipCents: 100 }));
    expect(tipLate).toMatchObject({ code: 'conflict', messageId: 'sale.tipAfterApproval' });
    expect(said(tipLate)).toEqual({
      en: tipLate.message,
      es: 'Ya hay un pago aprobado: agregue la propina en el siguiente pago.',
    });
    const unsigned = refusal(
      await bridge.send('sale.signature', {
        ticketId: t.ticketId,
        tenderId: part.tender.tenderId,
        signature: { source: 'pad' },
      }),
    );
    expect(unsigned).toMatchObject({ code: 'conflict', messageId: 'sale.noSignatureNeeded' });
    expect(said(unsigned)).toEqual({ en: unsigned.message, es: 'Este pago no necesita firma.' });

    value(
      await bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: { kind: 'cash', tenderedCents: due - 1_000 },
      }),
    );
    // Paid, the ticket is no longer open to change.
    const paid = refusal(await bridge.send('sale.setTip', { ticketId: t.ticketId, tipCents: 0 }));
    expect(paid).toMatchObject({ code: 'not-found', messageId: 'sale.noOpenTicket' });
    expect(said(paid)).toEqual({
      en: 'No such open ticket.',
      es: 'No hay una cuenta abierta con ese número.',
    });
  });

  it('a ticket of lines: a line voided twice, a line that is not there', async () => {
    const { bridge } = lane;
    const t = value(await bridge.send('ticket.open', {}));
    const added = value(await bridge.send('ticket.addOpenItem', { ticketId: t.ticketId, priceCents: 500 }));
    const lineId = added.itemized?.lines[0]?.lineId ?? '';
    value(await bridge.send('ticket.voidLine', { ticketId: t.ticketId, lineId }));
    const twice = refusal(await bridge.send('ticket.voidLine', { ticketId: t.ticketId, lineId }));
    expect(twice).toMatchObject({ code: 'conflict', messageId: 'sale.lineVoided' });
    expect(said(twice)).toEqual({ en: twice.message, es: 'Ese artículo está anulado.' });
    const missing = refusal(
      await bridge.send('ticket.setQuantity', { ticketId: t.ticketId, lineId: 'L-none', quantity: 2 }),
    );
    expect(missing).toMatchObject({ code: 'not-found', messageId: 'sale.noSuchLine' });
    expect(said(missing)).toEqual({ en: missing.message, es: 'Ese artículo no está en esta cuenta.' });
  });

  it('every sale.* messageId the core names has its words in the catalog', () => {
    const root = join(__dirname, '../../../electron/sale');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const ids = new Set<string>();
    for (const f of files)
      for (const m of readFileSync(join(root, f), 'utf8').matchAll(/messageId:[^,}]*/g))
        for (const id of m[0].matchAll(/'sale\.(\w+)'/g)) ids.add(id[1] ?? '');
    expect(ids.size).toBeGreaterThan(30);
    const missing = [...ids].filter((id) => !Object.hasOwn(en.errors.sale, id));
    expect(missing).toEqual([]);
  });
});
