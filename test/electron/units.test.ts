import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TicketView } from '../../common/bridge/contract';
import { buildReceipt, toPrinterReceipt } from '../../electron/sale/receipt';
import { signatureSvg } from '../../electron/sale/signature';
import { reversalBackoff } from '../../electron/util/backoff';
import { backoffDelay } from '../../native/drivers/backoff';
import { createLogger } from '../../electron/util/log';
import { centsFromText, formatCents, fromWire, toWire } from '../../electron/util/money';
import { createSealer } from '../../electron/util/key-file';
import { randomBytes } from 'node:crypto';

describe('money, masking, sealing, backoff', () => {
  it('cents survive the wire for every two-decimal amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99_999_999 }),
        (c) =>
          fromWire(JSON.parse(JSON.stringify(toWire(c))) as number) === c &&
          /^\d+(\.\d{1,2})?$/.test(String(toWire(c))),
      ),
    );
    expect(formatCents(-1205)).toBe('-12.05');
  });

  it('reads the gateway’s en-US balance text into cents, thousands separators included', () => {
    expect(centsFromText('1,234.56')).toBe(123_456);
    expect(centsFromText('12,345.67')).toBe(1_234_567);
    expect(centsFromText('1234.56')).toBe(123_456);
    expect(centsFromText('999.99')).toBe(99_999);
    expect(centsFromText('0.00')).toBe(0);
    expect(centsFromText('7')).toBe(700);
    expect(centsFromText('7.5')).toBe(750);
    expect(centsFromText('-1,000.01')).toBe(-100_001);
    expect(centsFromText('$1,234.56')).toBe(123_456);
    for (const bad of ['', 'abc', '1.234', '1,23.45', '12,3456.00', '1e3', 'NaN', '1.2.3', ',123.00'])
      expect(centsFromText(bad), bad).toBeUndefined();
    expect(centsFromText(undefined)).toBeUndefined();
  });

  it('masks any PAN that reaches a log line', () => {
    const log = createLogger();
    log.log('error', 't', 'card 4111 1111 1111 1111 failed; 5555555555554444 too');
    expect(log.recent()[0]?.message).toBe('card 411111******1111 failed; 555555******4444 too');
  });

  it('seals with AES-256-GCM bound to its row', () => {
    const s = createSealer(randomBytes(32));
    const sealed = s.seal('{"EmvData":"5A08..."}', 'L1-x-1');
    expect(s.open(sealed, 'L1-x-1')).toBe('{"EmvData":"5A08..."}');
    expect(() => s.open(sealed, 'L1-x-2')).toThrow();
  });

  it('backs off exponentially with bounded jitter', () => {
    expect(backoffDelay(reversalBackoff, 0, () => 0.5)).toBe(1000);
    expect(backoffDelay(reversalBackoff, 3, () => 0.5)).toBe(8000);
    expect(backoffDelay(reversalBackoff, 20, () => 1)).toBe(72_000);
    expect(backoffDelay(reversalBackoff, 20, () => 0)).toBe(48_000);
  });
});

describe('receipts and signatures', () => {
  it('a receipt shows the masked card and never more', () => {
    const r = buildReceipt(
      {
        ticketId: 'T-1', status: 'paid', subtotalCents: 1000, taxCents: 80, tipCents: 0, totalCents: 1080, paidCents: 1080, remainingCents: 0, openedAt: 0, closedAt: 0,
        tenders: [{ tenderId: 'X', kind: 'credit', status: 'approved', requestedCents: 1080, approvedCents: 1080, tipCents: 0, cashBackCents: 0, at: 0, authCode: 'A1', card: { maskedPan: '411111******1111', last4: '1111', cardType: 'Visa', entry: 'chip' }, signature: { required: true, captured: true } }],
      }, // prettier-ignore
      'merchant',
      { merchantName: 'SHOP', laneId: 'L1', mid: 1001, timeZone: 'UTC' },
      0,
    );
    expect(r.text).toContain('411111******1111');
    expect(r.text).toContain('SIGNATURE CAPTURED');
    expect(r.text).toContain('10.80');
  });

  it('the customer copy shows the last four only; the merchant copy keeps first six / last four (FACTA, PCI DSS 3.4.1)', () => {
    const ticket: TicketView = {
      ticketId: 'T-2', status: 'paid', subtotalCents: 2000, taxCents: 0, tipCents: 0, totalCents: 2000, paidCents: 2000, remainingCents: 0, openedAt: 0, closedAt: 0,
      tenders: [
        { tenderId: 'A', kind: 'credit', status: 'approved', requestedCents: 1000, approvedCents: 1000, tipCents: 0, cashBackCents: 0, at: 0, card: { maskedPan: '555555******4444', last4: '4444', cardType: 'Mastercard', entry: 'chip' } },
        { tenderId: 'B', kind: 'gift', status: 'approved', requestedCents: 1000, approvedCents: 1000, tipCents: 0, cashBackCents: 0, at: 0, card: { maskedPan: '603571******0018', last4: '0018', cardType: 'Gift', entry: 'keyed' } },
      ],
    }; // prettier-ignore
    const header = { merchantName: 'SHOP', laneId: 'L1', mid: 1001, timeZone: 'UTC' };
    const customer = buildReceipt(ticket, 'customer', header, 0);
    expect(customer.text).toContain('Mastercard ****4444');
    expect(customer.text).toContain('Gift ****0018');
    for (const firstSix of ['555555', '603571']) {
      expect(customer.text).not.toContain(firstSix);
      expect(JSON.stringify(customer.lines)).not.toContain(firstSix);
      expect(customer.qrData).not.toContain(firstSix);
    }
    const merchant = buildReceipt(ticket, 'merchant', header, 0);
    expect(merchant.text).toContain('555555******4444');
  });

  it('both copies carry the receipt number as a Code 128 of the ticket id, exactly, for the printer too', () => {
    const ticket: TicketView = {
      ticketId: 'T-mb1x2y3z-1a2b3c4d', status: 'paid', subtotalCents: 500, taxCents: 0, tipCents: 0, totalCents: 500, paidCents: 500, remainingCents: 0, openedAt: 0, closedAt: 0,
      tenders: [{ tenderId: 'C', kind: 'cash', status: 'approved', requestedCents: 500, approvedCents: 500, tipCents: 0, cashBackCents: 0, changeCents: 0, at: 0 }],
    }; // prettier-ignore
    const header = { merchantName: 'SHOP', laneId: 'L1', mid: 1001, timeZone: 'UTC' };
    for (const copy of ['customer', 'merchant'] as const) {
      const r = buildReceipt(ticket, copy, header, 0);
      expect(r.lines.filter((l) => l.kind === 'barcode')).toEqual([
        { kind: 'barcode', data: 'T-mb1x2y3z-1a2b3c4d' },
      ]);
      expect(toPrinterReceipt(r, false).lines).toContainEqual({
        kind: 'barcode',
        data: 'T-mb1x2y3z-1a2b3c4d',
      });
    }
  });

  it('renders screen strokes to SVG and refuses junk', () => {
    expect(
      signatureSvg({
        source: 'screen',
        width: 300,
        height: 100,
        strokes: [
          [
            { x: 1, y: 2, t: 0 },
            { x: 50, y: 60, t: 1 },
          ],
        ],
      }),
    ).toContain('M1.0 2.0 L50.0 60.0');
    expect(signatureSvg({ source: 'screen', width: 300, height: 100, strokes: [] })).toBeUndefined();
    expect(
      signatureSvg({ source: 'screen', width: -1, height: 100, strokes: [[{ x: 1, y: 1, t: 0 }]] }),
    ).toBeUndefined();
  });
});
