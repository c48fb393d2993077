import { describe, expect, it } from 'vitest';
import type { TicketView, TransactionView } from '../../../common/bridge/contract';
import { buildReceipt, buildTransactionReceipt, toPrinterReceipt } from '../../../electron/sale/receipt';
import { paperText } from '../../../electron/sale/paper-text';
import { buildReceipt as encodeEscPos, EscPosDecoder } from '../../../native/protocols/escpos';
import { toEscPosLines } from '../../../native/drivers/receipt-printer';

/**
 * The printed receipt speaks the store's language (its locale setting, common/store-locale.ts): the fixed
 * words from the core's catalog (electron/i18n/receipt-words.ts), the date line and amounts written the
 * locale's way by the one rules (common/store-time.ts, common/money-format.ts). English stays word for
 * word what receipts printed before there was a choice.
 */

// 2026-11-22 15:05 UTC: 10:05 AM in New York.
const at = Date.UTC(2026, 10, 22, 15, 5);
const header = { merchantName: 'TIENDA', laneId: 'L1', mid: 1001, timeZone: 'America/New_York' };

const ticket: TicketView = {
  ticketId: 'T-9', status: 'paid', subtotalCents: 123_450, taxCents: 1_019, tipCents: 200, totalCents: 124_669, paidCents: 124_669, remainingCents: 0, openedAt: at, closedAt: at,
  tenders: [
    { tenderId: 'A', kind: 'credit', status: 'approved', requestedCents: 100_000, approvedCents: 100_000, tipCents: 200, cashBackCents: 0, at, authCode: 'A1B2', userTransactionNumber: 'L1-9-1', card: { maskedPan: '411111******1111', last4: '1111', cardType: 'Visa', entry: 'chip' }, signature: { required: true, captured: true } },
    { tenderId: 'B', kind: 'cash', status: 'approved', requestedCents: 24_669, approvedCents: 24_669, tipCents: 0, cashBackCents: 0, at, changeCents: 331 },
  ],
}; // prettier-ignore

const refund: TransactionView = {
  userTransactionNumber: 'L1-9-2', operation: 'refund', state: 'declined', amountCents: 500, tipCents: 0, cashBackCents: 0, approvedCents: 0, refundedCents: 0, createdAt: at, updatedAt: at, cardType: 'Visa', last4: '1111',
}; // prettier-ignore

describe('the printed receipt in the store’s language', () => {
  it('English (the default): the words, date line and amounts receipts always printed', () => {
    const r = buildReceipt(ticket, 'merchant', header, at);
    expect(r.text.split('\n')).toEqual([
      '                  TIENDA',
      '            MID 1001  LANE L1',
      '         11/22/2026 10:05 AM EST',
      '                TICKET T-9',
      '------------------------------------------',
      'SUBTOTAL                           1234.50',
      'TAX                                  10.19',
      'TIP                                   2.00',
      'TOTAL                              1246.69',
      '------------------------------------------',
      'CREDIT APPROVED                    1000.00',
      'Visa 411111******1111',
      'ENTRY CHIP',
      'AUTH                                  A1B2',
      'REF                                 L1-9-1',
      ' ',
      'X______________________________',
      'CARDHOLDER SIGNATURE',
      'I AGREE TO PAY THE ABOVE TOTAL ACCORDING TO MY CARD ISSUER AGREEMENT',
      'SIGNATURE CAPTURED ELECTRONICALLY',
      'CASH APPROVED                       246.69',
      'CHANGE                                3.31',
      '------------------------------------------',
      '              MERCHANT COPY',
    ]);
    expect(buildReceipt(ticket, 'merchant', { ...header, locale: 'en-US' }, at).text).toBe(r.text);
  });

  it('Spanish (es-US): every fixed word from the Spanish catalog, the date written the Spanish way', () => {
    const r = buildReceipt(ticket, 'customer', { ...header, locale: 'es-US' }, at);
    const lines = r.text.split('\n').map((l) => l.trim());
    expect(lines).toEqual(
      expect.arrayContaining([
        'MID 1001  TERMINAL L1',
        '22/11/2026 10:05 a.m. EST',
        'TICKET T-9',
        expect.stringMatching(/^SUBTOTAL\s+1234\.50$/),
        expect.stringMatching(/^IMPUESTO\s+10\.19$/),
        expect.stringMatching(/^PROPINA\s+2\.00$/),
        expect.stringMatching(/^TOTAL\s+1246\.69$/),
        expect.stringMatching(/^CRÉDITO: APROBADO\s+1000\.00$/),
        'LECTURA CHIP',
        expect.stringMatching(/^AUT\.\s+A1B2$/),
        expect.stringMatching(/^EFECTIVO: APROBADO\s+246\.69$/),
        expect.stringMatching(/^CAMBIO\s+3\.31$/),
        'COPIA DEL CLIENTE',
      ]),
    );
    // Nothing English is left on it (the card's brand and the store's own lines are the store's words).
    expect(r.text).not.toMatch(/\b(TAX|TIP|CHANGE|APPROVED|CUSTOMER|LANE|ENTRY)\b/);
    // The customer's copy still shows the last four only.
    expect(r.text).toContain('Visa ****1111');
    expect(r.text).not.toContain('411111');
  });

  it('a refund’s or a void’s receipt in Spanish, and its state when it did not go through', () => {
    const r = buildTransactionReceipt(refund, undefined, 'customer', { ...header, locale: 'es-MX' });
    expect(r.text).toMatch(/^DEVOLUCIÓN: RECHAZADO\s+5\.00$/m);
    expect(r.text).toContain('DEVOLUCIÓN');
    expect(r.text).toContain('COPIA DEL CLIENTE');
    const en = buildTransactionReceipt(refund, undefined, 'customer', header);
    expect(en.text).toMatch(/^REFUND DECLINED\s+5\.00$/m);
  });

  it('on paper the printer prints every Spanish word: no “?” from the code page, accents it lacks dropped', () => {
    expect(paperText('PREAUTORIZACIÓN ÁÍÓÚ éñÑ ¿¡ − ’')).toBe("PREAUTORIZACION AIOU éñÑ ¿¡ - '");
    const receipt = buildReceipt(
      { ...ticket, tenders: [{ ...ticket.tenders[0]!, kind: 'preauth' }] },
      'merchant',
      { ...header, locale: 'es-US' },
      at,
    );
    const printed = toPrinterReceipt(receipt, false);
    const bytes = encodeEscPos(toEscPosLines(printed.lines, 42));
    const paper = new EscPosDecoder()
      .feed(bytes)
      .flatMap((e) => (e.type === 'line' ? [e.line.text] : []))
      .join('\n');
    expect(paper).not.toContain('?');
    expect(paper).toMatch(/^PREAUTORIZACION: APROBADO\s+1000\.00$/m);
    expect(paper).toContain('FIRMA CAPTURADA ELECTRONICAMENTE');
    expect(paper).toContain('22/11/2026 10:05 a.m. EST');
  });
});
