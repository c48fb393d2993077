import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyedSale, merchant1, startGateway, utn, type TestGateway } from '../support/gateway-harness';

describe('DoReversal', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ sandboxSlowMs: 600 });
  });
  afterAll(async () => {
    await gw.close();
  });
  const reverse = (number: string) =>
    gw.post('/api/Transactions/DoReversal', { ...merchant1, UserTransactionNumber: number });
  const status = async (number: string) => {
    const rows = (await gw.post('/api/Report/GetReportByMerchant', merchant1)).body.Transactions as Record<
      string,
      unknown
    >[];
    return rows.find((r) => r.UserTransactionNumber === number)?.Status;
  };

  it('reverses an approved sale, idempotently', async () => {
    const number = utn('rev');
    expect(
      (await gw.post('/api/Transactions/Sale', keyedSale({ UserTransactionNumber: number }))).body
        .ResponseCode,
    ).toBe(200);
    const first = await reverse(number);
    expect(first.body).toMatchObject({ ResponseCode: 200, Msg: ['Reversed'] });
    const second = await reverse(number);
    expect(second.body.ResponseCode).toBe(first.body.ResponseCode);
    expect(second.body.Msg).toEqual(first.body.Msg);
    expect(await status(number)).toBe('reversed');
  });

  it('blocks an unknown number so the late original is refused, not charged', async () => {
    const number = utn('late');
    const r = await reverse(number);
    expect(r.body).toMatchObject({
      ResponseCode: 200,
      Msg: ['Nothing to reverse: the number is now blocked'],
    });
    expect((await reverse(number)).body.Msg).toEqual(r.body.Msg);
    const late = await gw.post('/api/Transactions/Sale', keyedSale({ UserTransactionNumber: number }));
    expect(late.body.ResponseCode).toBe(411);
    expect(await status(number)).toBeUndefined();
  });

  it('reverses a sale that is still at the processor when its answer arrives', async () => {
    const number = utn('slow');
    const pending = gw.post(
      '/api/Transactions/Sale',
      keyedSale({ UserTransactionNumber: number, CardNumber: '4000000000000119' }),
    );
    await new Promise((r) => setTimeout(r, 150));
    const rev = await reverse(number);
    expect(rev.body.ResponseCode).toBe(200);
    const original = await pending;
    expect(original.body.ResponseCode).toBe(411);
    expect(await status(number)).toBe('reversed');
  });

  it('has nothing to reverse for a declined sale', async () => {
    const number = utn('decl');
    await gw.post(
      '/api/Transactions/Sale',
      keyedSale({ UserTransactionNumber: number, CardNumber: '4000000000000002' }),
    );
    expect((await reverse(number)).body.Msg).toEqual(['Nothing to reverse: the payment was not approved']);
  });

  it('reversing a refund restores the refundable balance', async () => {
    const sale = await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 20 }));
    const number = utn('rr');
    await gw.post('/api/Transactions/DoRefund', {
      ...merchant1,
      ServiceTransactionNumber: sale.body.ServiceReferenceNumber,
      Amount: 5,
      UserTransactionNumber: number,
    });
    expect((await reverse(number)).body.ResponseCode).toBe(200);
    const rows = (await gw.post('/api/Report/GetReportByMerchant', merchant1)).body.Transactions as Record<
      string,
      unknown
    >[];
    expect(rows.find((r) => r.ServiceReferenceNumber === sale.body.ServiceReferenceNumber)).toMatchObject({
      RemainingRefundableAmount: 20,
    });
  });
});
