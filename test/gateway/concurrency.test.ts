import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyedSale, merchant1, startGateway, utn, type TestGateway } from '../support/gateway-harness';
import { ResponseCode } from '../../gateway/contract/response-codes';

describe('concurrency', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });
  const codes = (rs: { body: Record<string, unknown> }[]) => rs.map((r) => r.body.ResponseCode);

  it('the same UserTransactionNumber sent 20 times at once succeeds exactly once', async () => {
    const number = utn('race');
    const rs = await Promise.all(
      Array.from({ length: 20 }, () =>
        gw.post('/api/Transactions/Sale', keyedSale({ UserTransactionNumber: number })),
      ),
    );
    const c = codes(rs);
    expect(c.filter((x) => x === 200)).toHaveLength(1);
    expect(c.filter((x) => x === 409)).toHaveLength(19);
    const rows = (await gw.post('/api/Report/GetReportByMerchant', merchant1)).body.Transactions as Record<
      string,
      unknown
    >[];
    expect(rows.filter((r) => r.UserTransactionNumber === number)).toHaveLength(1);
  });

  it('the same full refund sent 20 times at once (new numbers each) succeeds exactly once', async () => {
    const sale = await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 30 }));
    const rs = await Promise.all(
      Array.from({ length: 20 }, () =>
        gw.post('/api/Transactions/DoRefund', {
          ...merchant1,
          ServiceTransactionNumber: sale.body.ServiceReferenceNumber,
          Amount: 30,
          UserTransactionNumber: utn('rr'),
        }),
      ),
    );
    const c = codes(rs);
    expect(c.filter((x) => x === 200)).toHaveLength(1);
    expect(c.every((x) => x === ResponseCode.Success || x === ResponseCode.RefundImpossible)).toBe(true);
  });

  it('the same refund with one number sent 20 times at once succeeds exactly once', async () => {
    const sale = await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 30 }));
    const number = utn('same');
    const rs = await Promise.all(
      Array.from({ length: 20 }, () =>
        gw.post('/api/Transactions/DoRefund', {
          ...merchant1,
          ServiceTransactionNumber: sale.body.ServiceReferenceNumber,
          Amount: 1,
          UserTransactionNumber: number,
        }),
      ),
    );
    expect(codes(rs).filter((x) => x === 200)).toHaveLength(1);
    const rows = (await gw.post('/api/Report/GetReportByMerchant', merchant1)).body.Transactions as Record<
      string,
      unknown
    >[];
    expect(rows.find((r) => r.ServiceReferenceNumber === sale.body.ServiceReferenceNumber)).toMatchObject({
      TotalRefundedAmount: 1,
    });
  });

  it('concurrent partial refunds never sum past the original', async () => {
    const sale = await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 10 }));
    const rs = await Promise.all(
      Array.from({ length: 20 }, () =>
        gw.post('/api/Transactions/DoRefund', {
          ...merchant1,
          ServiceTransactionNumber: sale.body.ServiceReferenceNumber,
          Amount: 0.75,
          UserTransactionNumber: utn('p'),
        }),
      ),
    );
    expect(codes(rs).filter((x) => x === 200)).toHaveLength(13);
    const rows = (await gw.post('/api/Report/GetReportByMerchant', merchant1)).body.Transactions as Record<
      string,
      unknown
    >[];
    expect(rows.find((r) => r.ServiceReferenceNumber === sale.body.ServiceReferenceNumber)).toMatchObject({
      TotalRefundedAmount: 9.75,
      RemainingRefundableAmount: 0.25,
    });
  });

  it('a void racing a refund: one wins, the books stay consistent', async () => {
    const sale = await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 8 }));
    const srn = sale.body.ServiceReferenceNumber;
    const [v, r] = await Promise.all([
      gw.post('/api/Transactions/DoVoid', {
        ...merchant1,
        ServiceTransactionNumber: srn,
        UserTransactionNumber: utn('v'),
      }),
      gw.post('/api/Transactions/DoRefund', {
        ...merchant1,
        ServiceTransactionNumber: srn,
        Amount: 8,
        UserTransactionNumber: utn('r'),
      }),
    ]);
    expect([v.body.ResponseCode, r.body.ResponseCode].filter((x) => x === 200)).toHaveLength(1);
  });
});
