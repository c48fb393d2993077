import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  keyedSale,
  merchant1,
  merchant2,
  startGateway,
  utn,
  type TestGateway,
} from '../support/gateway-harness';
import { ResponseCode } from '../../gateway/contract/response-codes';

type Row = Record<string, unknown>;

describe('refunds and voids', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });
  const sale = async (overrides: Row = {}) => {
    const r = await gw.post('/api/Transactions/Sale', keyedSale(overrides));
    expect(r.body.ResponseCode).toBe(200);
    return r.body.ServiceReferenceNumber as string;
  };
  const refund = (srn: string, Amount: number | undefined, overrides: Row = {}) =>
    gw.post('/api/Transactions/DoRefund', {
      ...merchant1,
      ServiceTransactionNumber: srn,
      Amount,
      UserTransactionNumber: utn('ref'),
      ...overrides,
    });
  const fullRefund = (srn: string, overrides: Row = {}) =>
    gw.post('/api/Transactions/DoFullRefund', {
      ...merchant1,
      ServiceTransactionNumber: srn,
      UserTransactionNumber: utn('full'),
      ...overrides,
    });
  const voidIt = (srn: string, overrides: Row = {}) =>
    gw.post('/api/Transactions/DoVoid', {
      ...merchant1,
      ServiceTransactionNumber: srn,
      UserTransactionNumber: utn('void'),
      ...overrides,
    });
  const record = async (srn: string) => {
    const rows = (await gw.post('/api/Report/GetReportByMerchant', merchant1)).body.Transactions as Row[];
    return rows.find((r) => r.ServiceReferenceNumber === srn);
  };

  it('applies partial refunds exactly and never past the original total', async () => {
    const srn = await sale({ Amount: 100, TaxAmount: 8.25, TipAmount: 0.1 });
    expect(await record(srn)).toMatchObject({
      TotalAmount: 108.35,
      RefundedAmount: null,
      RemainingRefundableAmount: 108.35,
      TotalRefundedAmount: 0,
    });
    // Three refunds whose float sum is not exact (0.1 + 0.2): cents keep it exact.
    for (const a of [0.1, 0.2, 8.05]) expect((await refund(srn, a)).body.ResponseCode).toBe(200);
    expect(await record(srn)).toMatchObject({
      RefundedAmount: 100,
      RemainingRefundableAmount: 100,
      TotalRefundedAmount: 8.35,
    });
    const over = await refund(srn, 100.01);
    expect(over.body.ResponseCode).toBe(ResponseCode.RefundImpossible);
    expect(over.body.Msg).toEqual(['Refund exceeds the remaining refundable balance (100.00)']);
    expect((await refund(srn, 100)).body.ResponseCode).toBe(200);
    expect(await record(srn)).toMatchObject({
      RefundedAmount: 0,
      RemainingRefundableAmount: 0,
      TotalRefundedAmount: 108.35,
    });
    expect((await refund(srn, 0.01)).body.ResponseCode).toBe(ResponseCode.RefundImpossible);
    expect((await voidIt(srn)).body.ResponseCode).toBe(ResponseCode.VoidImpossible);
  });

  it('DoFullRefund refunds the remaining balance and answers RefundedAmount without TipAmount', async () => {
    const srn = await sale({ Amount: 40, TipAmount: 4 });
    expect((await refund(srn, 4)).body.ResponseCode).toBe(ResponseCode.Success);
    // An invalid Amount is still refused as an amount, and refunds nothing.
    for (const Amount of [-1, 10.001, 0]) {
      expect((await fullRefund(srn, { Amount })).body.ResponseCode, String(Amount)).toBe(
        ResponseCode.InvalidAmount,
      );
    }
    expect(await record(srn)).toMatchObject({ TotalRefundedAmount: 4 });
    // A shopping cart sends the order total (44.00) after a partial refund: the remaining 40.00 is refunded.
    const full = await fullRefund(srn, { Amount: 44 });
    expect(full.body).toMatchObject({ ResponseCode: ResponseCode.Success, RefundedAmount: 40, Amount: 40 });
    expect(full.body.Msg).toEqual([
      'Refunded the remaining balance 40.00 (Amount 44.00 was sent; a full refund refunds what remains)',
    ]);
    expect('TipAmount' in full.body).toBe(false);
    expect(await record(srn)).toMatchObject({ TotalRefundedAmount: 44, RemainingRefundableAmount: 0 });
    expect((await fullRefund(srn)).body.ResponseCode).toBe(ResponseCode.RefundImpossible);
  });

  it('DoFullRefund refunds the whole remaining balance whatever valid Amount is sent, or none', async () => {
    const less = await sale({ Amount: 30 });
    const r = await fullRefund(less, { Amount: 5 });
    expect(r.body).toMatchObject({ ResponseCode: ResponseCode.Success, RefundedAmount: 30 });
    const exact = await sale({ Amount: 12.5 });
    const e = await fullRefund(exact, { Amount: 12.5 });
    expect(e.body).toMatchObject({
      ResponseCode: ResponseCode.Success,
      RefundedAmount: 12.5,
      Msg: ['Refunded'],
    });
    const none = await sale({ Amount: 7 });
    expect((await fullRefund(none)).body).toMatchObject({
      ResponseCode: ResponseCode.Success,
      RefundedAmount: 7,
    });
  });

  it('voids an unsettled sale once; a voided sale cannot be refunded or voided again', async () => {
    const srn = await sale();
    expect((await voidIt(srn)).body.ResponseCode).toBe(200);
    expect(await record(srn)).toMatchObject({ Status: 'voided', RemainingRefundableAmount: 0 });
    expect((await voidIt(srn)).body.ResponseCode).toBe(ResponseCode.VoidImpossible);
    expect((await refund(srn, 1)).body.ResponseCode).toBe(ResponseCode.RefundImpossible);
  });

  it('voiding a refund gives its amount back to the original', async () => {
    const srn = await sale({ Amount: 30 });
    const r = await refund(srn, 10);
    expect((await voidIt(r.body.ServiceReferenceNumber as string)).body.ResponseCode).toBe(200);
    expect(await record(srn)).toMatchObject({ RemainingRefundableAmount: 30, TotalRefundedAmount: 0 });
  });

  it('a settled sale cannot be voided but can be refunded', async () => {
    const srn = await sale({ Amount: 12 });
    expect((await gw.post('/api/Transactions/DoSettlement', merchant1)).body.ResponseCode).toBe(200);
    expect((await voidIt(srn)).body.ResponseCode).toBe(ResponseCode.VoidImpossible);
    expect((await refund(srn, 12)).body.ResponseCode).toBe(200);
  });

  it('refuses a declined original, an unknown one, and a preauthorization', async () => {
    const declined = await gw.post('/api/Transactions/Sale', keyedSale({ CardNumber: '4000000000000002' }));
    expect((await refund(declined.body.ServiceReferenceNumber as string, 1)).body.ResponseCode).toBe(
      ResponseCode.RefundImpossible,
    );
    expect((await refund('123456789012', 1)).body.ResponseCode).toBe(
      ResponseCode.ServiceTransactionNumberNotFound,
    );
    const pre = await gw.post('/api/Transactions/PreAuthorization', keyedSale({ TransactionType: 3 }));
    expect((await refund(pre.body.ServiceReferenceNumber as string, 1)).body.ResponseCode).toBe(
      ResponseCode.RefundImpossible,
    );
  });

  it('every refund needs a new UserTransactionNumber', async () => {
    const srn = await sale({ Amount: 10 });
    const number = utn('r');
    expect((await refund(srn, 1, { UserTransactionNumber: number })).body.ResponseCode).toBe(200);
    expect((await refund(srn, 1, { UserTransactionNumber: number })).body.ResponseCode).toBe(
      ResponseCode.DuplicateTransactionNumber,
    );
    expect(await record(srn)).toMatchObject({ TotalRefundedAmount: 1 });
  });

  it('another merchant can neither refund nor void, and sees nothing', async () => {
    const srn = await sale({ Amount: 10 });
    expect((await refund(srn, 1, merchant2)).body.ResponseCode).toBe(ResponseCode.UnauthorizedReference);
    expect((await voidIt(srn, merchant2)).body.ResponseCode).toBe(ResponseCode.UnauthorizedReference);
    expect(await record(srn)).toMatchObject({ Status: 'approved', TotalRefundedAmount: 0 });
    const theirs = (await gw.post('/api/Report/GetReportByMerchant', merchant2)).body.Transactions as Row[];
    expect(theirs.some((t) => t.ServiceReferenceNumber === srn)).toBe(false);
  });

  it('the test endpoint voids the fixed refund once, then fails', async () => {
    const first = await gw.post('/api/Transactions', merchant1);
    expect(first.body.ResponseCode).toBe(200);
    const again = await gw.post('/api/Transactions', merchant1);
    expect(again.body.ResponseCode).toBe(ResponseCode.VoidImpossible);
  });
});
