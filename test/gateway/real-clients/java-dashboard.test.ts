import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { merchant1, startGateway, utn, type Json, type TestGateway } from '../../support/gateway-harness';

/**
 * A published Java dashboard. Its JSON carries every value as a string — amounts, ids, booleans — and it
 * posts to the test environment's URL with a lower-case operation: `/testing/api/Transactions/sale`.
 */
describe('real client: Java dashboard (all-string JSON, lower-case test path)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  /** Jackson writing the dashboard's String fields. */
  const post = (path: string, fields: Record<string, string>) =>
    gw.post(
      path,
      {
        AppKey: merchant1.AppKey,
        AppType: '1',
        mid: '1001',
        cid: '1',
        UserName: merchant1.UserName,
        Password: merchant1.Password,
        IsTest: 'true',
        ...fields,
      } satisfies Json,
      { contentType: 'application/json; charset=UTF-8' },
    );
  const sale = (amount: string, number = utn('java')) =>
    post('/testing/api/Transactions/sale', {
      Amount: amount,
      TaxAmount: '0.80',
      TransactionType: '1',
      UserTransactionNumber: number,
      CardNumber: '378282246310005',
      ExpDate: '1230',
      CVN: '1234',
      ForceDuplication: 'false',
      CustomerId: '77',
    });

  it('charges with every value a string at /testing/api/Transactions/sale', async () => {
    const number = utn('java');
    const r = await sale('19.20', number);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      ResponseCode: ResponseCode.Success,
      Amount: 19.2,
      TaxAmount: 0.8,
      CardType: 'Amex',
      UserTransactionNumber: number,
      CustomerId: 77,
    });
  });

  it('keeps the money rules on string amounts: 506, nothing charged', async () => {
    for (const amount of ['19.999', '1e2', '-5.00', '']) {
      const r = await sale(amount);
      expect(r.body.ResponseCode, amount).toBe(ResponseCode.InvalidAmount);
    }
  });

  it('reads its transactions and voids one, on lower-case paths', async () => {
    const number = utn('java-void');
    const charged = await sale('21.00', number);
    const report = await post('/testing/api/report/getreportbymerchant', {});
    const rows = report.body.Transactions as Json[];
    expect(rows.find((t) => t.UserTransactionNumber === number)).toMatchObject({ Status: 'approved' });
    const voided = await post('/testing/api/transactions/dovoid', {
      ServiceTransactionNumber: charged.body.ServiceReferenceNumber as string,
      UserTransactionNumber: utn('java-v'),
    });
    expect(voided.body.ResponseCode).toBe(ResponseCode.Success);
    const lookup = await post('/testing/api/transactions/gettransaction', { UserTransactionNumber: number });
    expect(lookup.body).toMatchObject({
      TransactionStatus: 'Voided',
      ResponseCode: ResponseCode.TransactionCancelled,
    });
  });
});
