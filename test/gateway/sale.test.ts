import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  keyedSale,
  merchant1,
  merchant2,
  startGateway,
  utn,
  type TestGateway,
} from '../support/gateway-harness';
import { emvData, swipe, track2 } from '../support/cards';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { DeclineCode } from '../../gateway/contract/decline-codes';

describe('credit sale', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });
  const sale = (overrides: Record<string, unknown> = {}) =>
    gw.post('/api/Transactions/Sale', keyedSale(overrides));

  it('approves keyed, swiped and chip sales with a realistic answer', async () => {
    const keyed = await sale({ Amount: 10.5, TaxAmount: 0.84, TipAmount: 2 });
    expect(keyed.body).toMatchObject({
      ResponseCode: 200,
      Amount: 10.5,
      TaxAmount: 0.84,
      TipAmount: 2,
      CardType: 'Visa',
      LastFour: '1111',
      CvnResult: 'M',
    });
    expect(keyed.body.AuthorizationNumber).toMatch(/^[0-9A-Z]{6}$/);
    expect(keyed.body.ServiceReferenceNumber).toMatch(/^\d{12}$/);

    const swiped = await sale({
      CardNumber: undefined,
      ExpDate: undefined,
      CVN: undefined,
      Track2: swipe('5555555555554444'),
    });
    expect(swiped.body).toMatchObject({ ResponseCode: 200, CardType: 'Mastercard', LastFour: '4444' });

    const bare = await sale({
      CardNumber: undefined,
      ExpDate: undefined,
      CVN: undefined,
      Track2: track2('378282246310005'),
    });
    expect(bare.body).toMatchObject({ ResponseCode: 200, CardType: 'Amex', LastFour: '0005' });

    const chip = await sale({
      CardNumber: undefined,
      ExpDate: undefined,
      CVN: undefined,
      // A tap's EmvData: its ARQC is checked (the sandbox issuer holds Visa and Mastercard keys only).
      EmvData: emvData('4242424242424242', 1000),
    });
    expect(chip.body).toMatchObject({ ResponseCode: 200, CardType: 'Visa', LastFour: '4242' });

    const report = await gw.post('/api/Report/GetReportByMerchant', merchant1);
    const rows = report.body.Transactions as Record<string, unknown>[];
    const bySrn = new Map(rows.map((r) => [r.ServiceReferenceNumber, r]));
    expect(bySrn.get(keyed.body.ServiceReferenceNumber)).toMatchObject({
      CardWasSwiped: 0,
      TotalAmount: 13.34,
      Amount: 10.5,
    });
    expect(bySrn.get(swiped.body.ServiceReferenceNumber)).toMatchObject({ CardWasSwiped: 1 });
    expect(bySrn.get(chip.body.ServiceReferenceNumber)).toMatchObject({ CardWasSwiped: 1 });
  });

  it("answers each sandbox decline card with 3, its reason's verbiage and its reason in DeclineCode", async () => {
    const cases: [string, number, string][] = [
      ['4000000000000002', DeclineCode.Declined, 'DO NOT HONOR'],
      ['4000000000009995', DeclineCode.InsufficientFunds, 'INSUFFICIENT FUNDS'],
      ['4000000000000069', DeclineCode.ExpiredCard, 'EXPIRED CARD'],
      ['4000000000000127', DeclineCode.CvnMismatch, 'CVV2 MISMATCH'],
    ];
    for (const [pan, reason, verbiage] of cases) {
      const r = await sale({ CardNumber: pan });
      expect(r.body, pan).toMatchObject({
        ResponseCode: ResponseCode.Declined,
        verbiage,
        DeclineCode: reason,
        LastFour: pan.slice(-4),
      });
      // A published client reads verbiage containing APPROV, or an AuthorizationNumber, as approval.
      expect(r.body.verbiage).not.toMatch(/APPROV/i);
      expect(r.body.AuthorizationNumber ?? '').toBe('');
      expect((r.body.Msg as string[]).length).toBeGreaterThan(0);
    }
    const down = await sale({ CardNumber: '4000000000000259' });
    expect(down.body.ResponseCode).toBe(ResponseCode.ProcessorUnavailable);
    expect('DeclineCode' in down.body).toBe(false);
  });

  it('declines an expired ExpDate and refuses an invalid card number before asking the processor', async () => {
    expect((await sale({ ExpDate: '0120' })).body).toMatchObject({
      ResponseCode: ResponseCode.Declined,
      DeclineCode: DeclineCode.ExpiredCard,
    });
    const bad = await sale({ CardNumber: '4111111111111112' });
    expect(bad.body.ResponseCode).toBe(ResponseCode.InvalidCardNumber);
    expect(JSON.stringify(bad.body)).not.toContain('4111111111111112');
    expect((await sale({ ExpDate: '1330' })).body.ResponseCode).toBe(ResponseCode.InvalidExpiry);
    expect((await sale({ CardNumber: undefined })).body.ResponseCode).toBe(ResponseCode.CardDataMissing);
    expect((await sale({ CardNumber: undefined, Track2: ';E?' })).body.Msg).toContain(
      'Track2 holds a read error: swipe again',
    );
  });

  it('approves partially on a card-present sale above the balance, and declines keyed', async () => {
    const present = await sale({ CardNumber: undefined, Track2: swipe('4000000000000341'), Amount: 35 });
    expect(present.body).toMatchObject({ ResponseCode: 210, Amount: 20 });
    const keyed = await sale({ CardNumber: '4000000000000341', Amount: 35 });
    expect(keyed.body).toMatchObject({
      ResponseCode: ResponseCode.Declined,
      DeclineCode: DeclineCode.InsufficientFunds,
    });
  });

  it('refuses a reused UserTransactionNumber and changes nothing', async () => {
    const number = utn('dup');
    const first = await sale({ UserTransactionNumber: number });
    expect(first.body.ResponseCode).toBe(200);
    const again = await sale({ UserTransactionNumber: number, Amount: 99 });
    expect(again.body.ResponseCode).toBe(ResponseCode.DuplicateTransactionNumber);
    const rows = (await gw.post('/api/Report/GetReportByMerchant', merchant1)).body.Transactions as Record<
      string,
      unknown
    >[];
    expect(rows.filter((r) => r.UserTransactionNumber === number)).toHaveLength(1);
    // A declined payment consumes its number too.
    const declined = utn('decl');
    expect(
      (await sale({ UserTransactionNumber: declined, CardNumber: '4000000000000002' })).body.ResponseCode,
    ).toBe(ResponseCode.Declined);
    expect((await sale({ UserTransactionNumber: declined })).body.ResponseCode).toBe(
      ResponseCode.DuplicateTransactionNumber,
    );
  });

  it('numbers are per merchant: another merchant may use the same UserTransactionNumber', async () => {
    const number = utn('shared');
    expect((await sale({ UserTransactionNumber: number })).body.ResponseCode).toBe(200);
    expect((await sale({ ...merchant2, UserTransactionNumber: number })).body.ResponseCode).toBe(200);
  });

  it('refuses a duplicate payment within the window unless ForceDuplication', async () => {
    const card = { CardNumber: '2223003122003222', Amount: 42.42, ForceDuplication: false };
    expect((await sale(card)).body.ResponseCode).toBe(200);
    const dup = await sale(card);
    expect(dup.body.ResponseCode).toBe(ResponseCode.DuplicatePayment);
    expect((await sale({ ...card, Amount: 42.43 })).body.ResponseCode).toBe(200);
    expect((await sale({ ...card, ForceDuplication: true })).body.ResponseCode).toBe(200);
  });

  it('returns a token with SaveToken and a customer with SaveCustomer', async () => {
    const r = await sale({
      SaveToken: true,
      SaveCustomer: true,
      NameOnCard: 'Jane Q Public',
      CustomerEmail: 'jane@example.com',
    });
    expect(r.body.ResponseCode).toBe(200);
    expect(r.body.Token).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof r.body.CustomerId).toBe('number');
    const declined = await sale({ SaveToken: true, CardNumber: '4000000000000002' });
    expect(declined.body.Token).toBeUndefined();
  });

  it('reports AVS results and refuses a surcharge the merchant did not enable', async () => {
    const avs = await sale({ Street: '1 Main St', ZipCode: '99999' });
    expect(avs.body).toMatchObject({ ResponseCode: 200, AvsResult: 'A' });
    const both = await sale({ Street: '999 Bad Rd', ZipCode: '99999' });
    expect(both.body.AvsResult).toBe('N');
    const surcharge = await sale({ SurchargeAmount: 1 });
    expect(surcharge.body.ResponseCode).toBe(400);
    expect(surcharge.body.Msg).toContain(
      'SurchargeAmount is not allowed: surcharge is not enabled for this merchant',
    );
  });

  it('validates amounts exactly: zero, negative, three decimals, non-finite, over the ceiling', async () => {
    for (const Amount of [0, -1, 1.005, 1e12]) {
      const r = await sale({ Amount });
      expect(r.body.ResponseCode, String(Amount)).toBe(506);
    }
    expect((await sale({ Amount: 0.29 })).body.Amount).toBe(0.29);
    expect((await sale({ TipAmount: -1 })).body.ResponseCode).toBe(506);
  });

  it('answers a missing or empty UserTransactionNumber with 30, changing nothing', async () => {
    const before = (
      (await gw.post('/api/Report/GetReportByMerchant', merchant1)).body.Transactions as unknown[]
    ).length;
    for (const UserTransactionNumber of [undefined, '']) {
      const r = await sale({ UserTransactionNumber });
      expect(r.body.ResponseCode).toBe(ResponseCode.UserTransactionNumberEmpty);
      expect(r.body.Msg).toContain('UserTransactionNumber is required');
    }
    const after = (
      (await gw.post('/api/Report/GetReportByMerchant', merchant1)).body.Transactions as unknown[]
    ).length;
    expect(after).toBe(before);
  });

  it('PreAuthorization takes TransactionType 3 and Sale takes 1', async () => {
    expect((await gw.post('/api/Transactions/PreAuthorization', keyedSale())).body.ResponseCode).toBe(501);
    expect(
      (await gw.post('/api/Transactions/PreAuthorization', keyedSale({ TransactionType: 3 }))).body
        .ResponseCode,
    ).toBe(200);
  });

  it('ForceRetailSale posts a voice authorization without asking the processor', async () => {
    const r = await gw.post(
      '/api/Transactions/ForceRetailSale',
      keyedSale({ AuthorizationNumber: 'vx1234', CardNumber: '4000000000000002' }),
    );
    expect(r.body).toMatchObject({ ResponseCode: 200, AuthorizationNumber: 'VX1234' });
    const missing = await gw.post('/api/Transactions/ForceRetailSale', keyedSale());
    expect(missing.body.ResponseCode).toBe(400);
  });
});
