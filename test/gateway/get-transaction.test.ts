import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeclineCode } from '../../gateway/contract/decline-codes';
import { ResponseCode } from '../../gateway/contract/response-codes';
import {
  keyedSale,
  merchant1,
  merchant2,
  startGateway,
  utn,
  type Json,
  type TestGateway,
} from '../support/gateway-harness';

/**
 * A published e-commerce client's approval rule: ResponseCode 200, or verbiage containing APPROV, or an
 * AuthorizationNumber. A lookup must never let it read a declined, voided or undecided payment as approved.
 */
const readsAsApproved = (b: Json): boolean =>
  b.ResponseCode === 200 ||
  (typeof b.verbiage === 'string' && /APPROV/i.test(b.verbiage)) ||
  Boolean(b.AuthorizationNumber);

describe('POST /api/Transactions/GetTransaction', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ sandboxSlowMs: 1_200 });
  });
  afterAll(async () => {
    await gw.close();
  });
  const lookup = (number: string | undefined, merchant: Json = merchant1) =>
    gw.post('/api/Transactions/GetTransaction', { ...merchant, UserTransactionNumber: number });

  it('answers an approved sale in the sale-response shape with its state, refunds included', async () => {
    const number = utn('gt');
    const sale = await gw.post(
      '/api/Transactions/Sale',
      keyedSale({ UserTransactionNumber: number, Amount: 30 }),
    );
    expect(sale.body.ResponseCode).toBe(ResponseCode.Success);
    const found = await lookup(number);
    expect(found.body).toMatchObject({
      ResponseCode: ResponseCode.Success,
      verbiage: 'APPROVED',
      TransactionStatus: 'Approved',
      Operation: 'Sale',
      TransactionType: 1,
      Amount: 30,
      LastFour: '1111',
      AuthorizationNumber: sale.body.AuthorizationNumber,
      ServiceReferenceNumber: sale.body.ServiceReferenceNumber,
      UserTransactionNumber: number,
      TotalRefundedAmount: 0,
      RemainingRefundableAmount: 30,
    });
    expect(readsAsApproved(found.body)).toBe(true);
    const refundNumber = utn('gt-r');
    await gw.post('/api/Transactions/DoRefund', {
      ...merchant1,
      ServiceTransactionNumber: sale.body.ServiceReferenceNumber,
      Amount: 12.5,
      UserTransactionNumber: refundNumber,
    });
    expect((await lookup(number)).body).toMatchObject({
      ResponseCode: ResponseCode.Success,
      TotalRefundedAmount: 12.5,
      RemainingRefundableAmount: 17.5,
    });
    expect((await lookup(refundNumber)).body).toMatchObject({
      ResponseCode: ResponseCode.Success,
      Operation: 'Refund',
      Amount: 12.5,
    });
  });

  it("answers a decline as 3 with its reason's verbiage and DeclineCode, never as an approval", async () => {
    const number = utn('gt-d');
    await gw.post(
      '/api/Transactions/Sale',
      keyedSale({ UserTransactionNumber: number, CardNumber: '4000000000009995' }),
    );
    const found = await lookup(number);
    expect(found.body).toMatchObject({
      ResponseCode: ResponseCode.Declined,
      verbiage: 'INSUFFICIENT FUNDS',
      DeclineCode: DeclineCode.InsufficientFunds,
      TransactionStatus: 'Declined',
      RemainingRefundableAmount: 0,
    });
    expect(readsAsApproved(found.body)).toBe(false);
  });

  it('answers a voided or reversed payment with 430 and no authorization number', async () => {
    const voided = utn('gt-v');
    const sale = await gw.post('/api/Transactions/Sale', keyedSale({ UserTransactionNumber: voided }));
    await gw.post('/api/Transactions/DoVoid', {
      ...merchant1,
      ServiceTransactionNumber: sale.body.ServiceReferenceNumber,
      UserTransactionNumber: utn('gt-void'),
    });
    const v = await lookup(voided);
    expect(v.body).toMatchObject({
      ResponseCode: ResponseCode.TransactionCancelled,
      TransactionStatus: 'Voided',
    });
    expect(readsAsApproved(v.body)).toBe(false);
    const reversed = utn('gt-rv');
    await gw.post('/api/Transactions/Sale', keyedSale({ UserTransactionNumber: reversed }));
    await gw.post('/api/Transactions/DoReversal', { ...merchant1, UserTransactionNumber: reversed });
    const r = await lookup(reversed);
    expect(r.body).toMatchObject({
      ResponseCode: ResponseCode.TransactionCancelled,
      TransactionStatus: 'Reversed',
    });
    expect(readsAsApproved(r.body)).toBe(false);
  });

  it('answers a payment still at the processor with 431, then its outcome', async () => {
    const number = utn('gt-p');
    const slow = gw.post(
      '/api/Transactions/Sale',
      keyedSale({ UserTransactionNumber: number, CardNumber: '4000000000000119' }),
    );
    await new Promise((r) => setTimeout(r, 400));
    const pending = await lookup(number);
    expect(pending.body).toMatchObject({
      ResponseCode: ResponseCode.TransactionPending,
      TransactionStatus: 'Pending',
    });
    expect(readsAsApproved(pending.body)).toBe(false);
    expect((await slow).body.ResponseCode).toBe(ResponseCode.Success);
    expect((await lookup(number)).body.ResponseCode).toBe(ResponseCode.Success);
  });

  it("answers 29 for an unknown number or another merchant's, 30 for none", async () => {
    expect((await lookup('never-used')).body.ResponseCode).toBe(ResponseCode.UserTransactionNumberNotFound);
    const mine = utn('gt-m');
    await gw.post('/api/Transactions/Sale', keyedSale({ UserTransactionNumber: mine }));
    const theirs = await lookup(mine, merchant2);
    expect(theirs.body.ResponseCode).toBe(ResponseCode.UserTransactionNumberNotFound);
    expect(JSON.stringify(theirs.body)).not.toContain('1111');
    expect('ServiceReferenceNumber' in theirs.body).toBe(false);
    for (const none of [undefined, '']) {
      expect((await lookup(none)).body.ResponseCode).toBe(ResponseCode.UserTransactionNumberEmpty);
    }
    // A number a reversal claimed before any transaction arrived: not found, and says why.
    const blocked = utn('gt-b');
    await gw.post('/api/Transactions/DoReversal', { ...merchant1, UserTransactionNumber: blocked });
    const b = await lookup(blocked);
    expect(b.body.ResponseCode).toBe(ResponseCode.UserTransactionNumberNotFound);
    expect((b.body.Msg as string[])[0]).toMatch(/reversed before any arrived/);
  });
});
