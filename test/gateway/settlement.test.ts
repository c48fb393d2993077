import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../gateway/contract/response-codes';
import {
  keyedSale,
  merchant1,
  merchant2,
  startGateway,
  utn,
  type TestGateway,
} from '../support/gateway-harness';

describe('batches, settlement and the Report group', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('settles the open batch with exact totals, then closes settled batches', async () => {
    const empty = await gw.post('/api/Transactions/DoSettlement', merchant2);
    expect(empty.body).toMatchObject({ ResponseCode: 200, AmountSettled: 0, Batches: [] });

    const a = await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 10.1, TaxAmount: 0.8 }));
    const b = await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 5.05 }));
    await gw.post('/api/Transactions/Sale', keyedSale({ CardNumber: '4000000000000002' }));
    const voided = await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 99 }));
    await gw.post('/api/Transactions/DoVoid', {
      ...merchant1,
      ServiceTransactionNumber: voided.body.ServiceReferenceNumber,
      UserTransactionNumber: utn(),
    });
    await gw.post('/api/Transactions/DoRefund', {
      ...merchant1,
      ServiceTransactionNumber: a.body.ServiceReferenceNumber,
      Amount: 2.2,
      UserTransactionNumber: utn(),
    });

    const unsettled = (await gw.post('/api/Report/GetUnsettledTransactions', merchant1)).body
      .UnsettledTransactions as Record<string, unknown>[];
    expect(unsettled.map((u) => u.ServiceReferenceNumber)).toEqual(
      expect.arrayContaining([a.body.ServiceReferenceNumber, b.body.ServiceReferenceNumber]),
    );
    expect(unsettled.every((u) => u.SettlementResult === 0 && typeof u.batch_number === 'string')).toBe(true);

    const settled = await gw.post('/api/Transactions/DoSettlement', merchant1);
    expect(settled.body).toMatchObject({ ResponseCode: 200, AmountSettled: 13.75 });
    const batch = (settled.body.Batches as Record<string, unknown>[])[0] ?? {};
    expect(batch).toMatchObject({
      TransactionCount: 3,
      SaleAmount: 15.95,
      ReturnAmount: 2.2,
      NetAmount: 13.75,
    });
    expect(
      (
        (await gw.post('/api/Report/GetUnsettledTransactions', merchant1)).body
          .UnsettledTransactions as unknown[]
      ).length,
    ).toBe(0);

    const last = await gw.post('/api/Report/GetLastSettlementByMerchant', merchant1);
    expect(last.body.SettlementReports).toEqual([
      { AmountSettled: 13.75, Batches: [batch.BatchNumber], CompletedOn: settled.body.CompletedOn },
    ]);
    const byDate = await gw.post('/api/Report/GetSettlementsByDate', {
      ...merchant1,
      StartDate: new Date(Date.now() - 60_000).toISOString(),
      EndDate: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((byDate.body.SettlementReports as unknown[]).length).toBe(1);
    const none = await gw.post('/api/Report/GetSettlementsByDate', {
      ...merchant1,
      EndDate: '2001-01-01T00:00:00Z',
    });
    expect(none.body.SettlementReports).toEqual([]);
    expect(
      (await gw.post('/api/Report/GetLastSettlementByMerchant', merchant2)).body.SettlementReports,
    ).toEqual([]);

    const closed = await gw.post('/api/Transactions/DoCloseAllSettledTransaction', merchant1);
    expect(closed.body).toMatchObject({ ResponseCode: 200, AmountSettled: 13.75 });
    const again = await gw.post('/api/Transactions/DoCloseAllSettledTransaction', merchant1);
    expect(again.body).toMatchObject({ AmountSettled: 0, Batches: [] });

    // The next approval opens a new batch.
    const next = await gw.post('/api/Transactions/Sale', keyedSale());
    const rows = (await gw.post('/api/Report/GetReportByMerchant', merchant1)).body.Transactions as Record<
      string,
      unknown
    >[];
    expect(
      rows.find((r) => r.ServiceReferenceNumber === next.body.ServiceReferenceNumber)?.BatchNumber,
    ).not.toBe(batch.BatchNumber);
  });

  it('a batch whose every payment was voided settles nothing, and the next approval settles normally', async () => {
    await gw.post('/api/Transactions/DoSettlement', merchant2);
    const sale = await gw.post(
      '/api/Transactions/Sale',
      keyedSale({ ...merchant2, Amount: 7, UserTransactionNumber: utn('vv') }),
    );
    const voided = await gw.post('/api/Transactions/DoVoid', {
      ...merchant2,
      ServiceTransactionNumber: sale.body.ServiceReferenceNumber,
      UserTransactionNumber: utn(),
    });
    expect(voided.body.ResponseCode).toBe(ResponseCode.Success);
    const nothing = await gw.post('/api/Transactions/DoSettlement', merchant2);
    expect(nothing.body).toMatchObject({ ResponseCode: ResponseCode.Success, AmountSettled: 0, Batches: [] });
    await gw.post(
      '/api/Transactions/Sale',
      keyedSale({ ...merchant2, Amount: 3, UserTransactionNumber: utn() }),
    );
    const settled = await gw.post('/api/Transactions/DoSettlement', merchant2);
    expect(settled.body).toMatchObject({ ResponseCode: ResponseCode.Success, AmountSettled: 3 });
  });

  it('lists used transaction numbers under both spellings of the path, per merchant', async () => {
    const number = utn('num');
    await gw.post('/api/Transactions/Sale', keyedSale({ UserTransactionNumber: number }));
    for (const path of ['/api/Report/GeTransactionNumbers', '/api/Report/GetTransactionNumbers']) {
      const r = await gw.post(path, merchant1);
      expect(r.body.UserReferenceNumbers).toContain(number);
      expect((await gw.post(path, merchant2)).body.UserReferenceNumbers).not.toContain(number);
    }
  });

  it('GetReportByUserAndCashier shows only that user and cashier', async () => {
    const own = await gw.post('/api/Report/GetReportByUserAndCashier', merchant2);
    const rows = own.body.Transactions as Record<string, unknown>[];
    expect(rows.every((r) => r.MID === 1002 && r.CID === 2)).toBe(true);
  });

  it('BusinessSettings answers on both paths', async () => {
    for (const path of ['/api/BusinessSettings', '/api/BusinessSettings/Get']) {
      const r = await gw.post(path, merchant1);
      expect(r.body).toMatchObject({
        ResponseCode: 200,
        SurchargeEnabled: false,
        SurchargePercent: 0,
        CardDifferenceEnabled: false,
        ThreeDSecureEnabled: false,
      });
    }
  });
});
