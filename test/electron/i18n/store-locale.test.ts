import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeConnection } from '../../../electron/bridge/connection';
import type { BridgeResult } from '../../../common/bridge/contract';
import { tillReportText } from '../../../electron/till/till-report-lines';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import { eventually, openTill, startLane, value, type Lane } from '../helpers';

/**
 * Issue 20, "Languages and locale", in the core: the store's locale and currency are a manager's setting
 * (store.locale.get/update), every window learns them from terminal.status and the customer display from
 * its view; receipts and till reports print in the store's language; the refusals a sign-in and a till
 * screen show carry the id of their words in the screens' catalogs (messageId), so each window says them
 * in its own language.
 */

const refusal = <T>(r: BridgeResult<T>) => (r.ok ? undefined : r.error);

async function signedIn(lane: Lane, pin: string): Promise<BridgeConnection> {
  const b = lane.core.connect();
  value(await b.send('session.signIn', { pin }));
  return b;
}

describe('the store’s locale and currency', () => {
  let gw: TestGateway;
  let lane: Lane;
  let manager: BridgeConnection;
  beforeAll(async () => {
    gw = await startGateway({ sandboxSlowMs: 400 });
    lane = await startLane({ gateway: gw });
    manager = await signedIn(lane, '9999');
  }, 60_000);
  afterAll(async () => {
    manager?.close();
    await lane?.close();
    await gw?.close();
  });

  it('is English (United States) and US dollars until a manager changes it; every window reads it', async () => {
    expect(value(await lane.bridge.send('store.locale.get', {}))).toEqual({
      locale: 'en-US',
      currency: 'USD',
    });
    // Before anyone signs in: the sign-in screen speaks the store's language.
    const signedOut = lane.core.connect();
    expect(value(await signedOut.send('terminal.status', {})).locale).toEqual({
      locale: 'en-US',
      currency: 'USD',
    });
    signedOut.close();
    const display = lane.core.connect('customer-display');
    expect(value(await display.send('customer.view', {})).locale).toEqual({
      locale: 'en-US',
      currency: 'USD',
    });
    display.close();
  });

  it('a cashier may not change it; a manager may; what the terminal does not know is refused and changes nothing', async () => {
    const byCashier = refusal(
      await lane.bridge.send('store.locale.update', { locale: 'es-US', currency: 'USD' }),
    );
    expect(byCashier?.code).toBe('forbidden');
    const unknown = refusal(
      await manager.send('store.locale.update', { locale: 'fr-CA' as 'es-US', currency: 'USD' }),
    );
    expect(unknown?.code).toBe('invalid');
    const pesos = refusal(
      await manager.send('store.locale.update', { locale: 'es-MX', currency: 'MXN' as 'USD' }),
    );
    expect(pesos?.code).toBe('invalid');
    expect(pesos?.problems?.join(' ')).toContain('US dollars');
    expect(value(await manager.send('store.locale.get', {}))).toEqual({ locale: 'en-US', currency: 'USD' });

    expect(value(await manager.send('store.locale.update', { locale: 'es-US', currency: 'USD' }))).toEqual({
      locale: 'es-US',
      currency: 'USD',
    });
    expect(value(await lane.bridge.send('terminal.status', {})).locale?.locale).toBe('es-US');
    const audit = value(await manager.send('audit.list', {}));
    expect(audit.some((a) => a.detail.includes('store locale: es-US, USD'))).toBe(true);
  });

  it('receipts and the till report print in the store’s language (Spanish now)', async () => {
    await openTill(lane.bridge);
    const printed = value(await lane.bridge.send('simulator.state', {})).receiptPrinter.receipts.length;
    const t = value(await lane.bridge.send('sale.open', { subtotalCents: 1_250 }));
    value(
      await lane.bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: { kind: 'cash', tenderedCents: 2_000 },
      }),
    );
    await eventually(
      async () =>
        value(await lane.bridge.send('simulator.state', {})).receiptPrinter.receipts.length > printed,
    );
    const paper = value(await lane.bridge.send('simulator.state', {})).receiptPrinter.receipts.at(-1) ?? [];
    const text = paper.join('\n');
    expect(text).toMatch(/^EFECTIVO: APROBADO\s+12\.50$/m);
    expect(text).toMatch(/^CAMBIO\s+7\.50$/m);
    expect(text).toContain('COPIA DEL CLIENTE');
    expect(text).not.toMatch(/\bCHANGE\b|\bCUSTOMER COPY\b/);

    const x = value(await manager.send('till.report', { day: true }));
    const report = tillReportText(x, { merchantName: 'Tienda', mid: 1, locale: 'es-US' }, x.until);
    expect(report).toContain('CORTE X - EL DÍA HASTA AHORA');
    expect(report).toMatch(/^Efectivo recibido \(1\)\s+12\.50$/m);
    expect(report).toMatch(/^Fondo de caja \(1\)\s+100\.00$/m);
    // The printer has the report in Spanish too: the core printed it in the store's language.
    value(await manager.send('till.print', { day: true }));
    await eventually(async () =>
      (value(await manager.send('simulator.state', {})).receiptPrinter.receipts.at(-1) ?? []).some((l) =>
        l.includes('CORTE X'),
      ),
    );
    // A ticket of lines: an open item rung without a name is named in the store's language.
    const lines = value(await lane.bridge.send('ticket.open', {}));
    const rung = value(
      await lane.bridge.send('ticket.addOpenItem', { ticketId: lines.ticketId, priceCents: 400 }),
    );
    expect(rung.itemized?.lines.map((l) => l.name)).toEqual(['Artículo abierto']);
    const before = value(await lane.bridge.send('simulator.state', {})).receiptPrinter.receipts.length;
    value(
      await lane.bridge.send('sale.pay', {
        ticketId: lines.ticketId,
        tender: { kind: 'cash', tenderedCents: 500 },
      }),
    );
    await eventually(
      async () =>
        value(await lane.bridge.send('simulator.state', {})).receiptPrinter.receipts.length > before,
    );
    const itemized = (
      value(await lane.bridge.send('simulator.state', {})).receiptPrinter.receipts.at(-1) ?? []
    ).join('\n');
    expect(itemized).toMatch(/Art.culo abierto/);
    expect(itemized).not.toMatch(/Open item/i);
  });

  it('a sign-in’s and a till’s refusals name their words for the screens (messageId), in English for tools', async () => {
    const wrong = refusal(await lane.core.connect().send('session.signIn', { pin: '0000' }));
    expect(wrong).toMatchObject({
      code: 'unauthorized',
      message: 'Wrong PIN.',
      messageId: 'session.wrongPin',
    });

    const noReason = refusal(await lane.bridge.send('till.move', { kind: 'no-sale', reason: ' ' }));
    expect(noReason).toMatchObject({ code: 'invalid', messageId: 'till.giveReason' });

    // Across the journal's thread: the store's refusal keeps its words and the values they name.
    const twice = refusal(await lane.bridge.send('till.open', { float: { totalCents: 5_000 } }));
    expect(twice).toMatchObject({
      code: 'conflict',
      messageId: 'till.alreadyOpen',
      params: { tillId: 1, employee: 'Cashier' },
    });
    expect(twice?.message).toContain('Till 1 (Cashier) is in the drawer');
    const closing = refusal(await manager.send('till.closeDay', {}));
    expect(closing).toMatchObject({
      code: 'conflict',
      messageId: 'till.dayNotClosed',
      params: { count: 1, tills: '1' },
    });
  });

  it('the setting outlives a restart', async () => {
    const dataDir = lane.dataDir;
    await lane.core.stop();
    const again = await startLane({ gateway: gw, dataDir, signIn: '9999' });
    try {
      expect(value(await again.bridge.send('store.locale.get', {}))).toEqual({
        locale: 'es-US',
        currency: 'USD',
      });
    } finally {
      await again.core.stop();
    }
  }, 60_000);
});
