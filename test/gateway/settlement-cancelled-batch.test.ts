import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { keyedSale, merchant1, startGateway, utn, type TestGateway } from '../support/gateway-harness';

/**
 * DoSettlement of an open batch whose every payment was voided or reversed: nothing to settle, and the
 * payments keep their batch. The model checker (docs/model-checker.md) found it answering HTTP 500: the
 * settlement deleted the "empty" batch, which its cancelled payments still named (foreign key).
 */
describe('settling a batch that holds only cancelled payments', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('settles nothing, answers as for an empty batch, and the next payment settles normally', async () => {
    const voided = (await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 12 }))).body;
    const reversedNumber = utn('cancelled');
    const reversed = (
      await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 3, UserTransactionNumber: reversedNumber }))
    ).body;
    expect([voided.ResponseCode, reversed.ResponseCode]).toEqual([
      ResponseCode.Success,
      ResponseCode.Success,
    ]);
    const cancel = await Promise.all([
      gw.post('/api/Transactions/DoVoid', {
        ...merchant1,
        ServiceTransactionNumber: voided.ServiceReferenceNumber,
        UserTransactionNumber: utn('void'),
      }),
      gw.post('/api/Transactions/DoReversal', { ...merchant1, UserTransactionNumber: reversedNumber }),
    ]);
    expect(cancel.map((c) => c.body.ResponseCode)).toEqual([ResponseCode.Success, ResponseCode.Success]);

    const settlement = await gw.post('/api/Transactions/DoSettlement', merchant1);
    expect(settlement.status).toBe(200);
    expect(settlement.body).toMatchObject({
      ResponseCode: ResponseCode.Success,
      AmountSettled: 0,
      Batches: [],
    });
    const report = (await gw.post('/api/Report/GetReportByMerchant', merchant1)).body.Transactions as {
      ServiceReferenceNumber: string;
      Status: string;
    }[];
    expect(
      report
        .filter((t) =>
          [voided.ServiceReferenceNumber, reversed.ServiceReferenceNumber].includes(t.ServiceReferenceNumber),
        )
        .map((t) => t.Status)
        .sort(),
    ).toEqual(['reversed', 'voided']);

    const next = (await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 5 }))).body;
    expect(next.ResponseCode).toBe(ResponseCode.Success);
    const settled = await gw.post('/api/Transactions/DoSettlement', merchant1);
    expect(settled.body).toMatchObject({ ResponseCode: ResponseCode.Success, AmountSettled: 5 });
  });
});
