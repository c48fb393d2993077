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

describe('preauthorization and ClosePreauth', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });
  const preauth = (amount: number) =>
    gw.post('/api/Transactions/PreAuthorization', keyedSale({ TransactionType: 3, Amount: amount }));
  const close = (srn: unknown, overrides: Record<string, unknown> = {}) =>
    gw.post('/api/Transactions/ClosePreauth', {
      ...merchant1,
      ServiceReferenceNumber: srn,
      UserTransactionNumber: utn('close'),
      Amount: 50,
      ...overrides,
    });

  it('closes once, with an additional tip, and only the completion joins the batch', async () => {
    const pre = await preauth(60);
    expect(pre.body.ResponseCode).toBe(200);
    const unsettledBefore = (await gw.post('/api/Report/GetUnsettledTransactions', merchant1)).body
      .UnsettledTransactions as unknown[];
    const done = await close(pre.body.ServiceReferenceNumber, { AdditionalTip: 9.5 });
    expect(done.body).toMatchObject({
      ResponseCode: 200,
      Amount: 50,
      TipAmount: 9.5,
      AuthorizationNumber: pre.body.AuthorizationNumber,
    });
    expect(done.body.ServiceReferenceNumber).not.toBe(pre.body.ServiceReferenceNumber);
    const unsettled = (await gw.post('/api/Report/GetUnsettledTransactions', merchant1)).body
      .UnsettledTransactions as Record<string, unknown>[];
    expect(unsettled.length).toBe(unsettledBefore.length + 1);
    expect(unsettled.some((u) => u.ServiceReferenceNumber === pre.body.ServiceReferenceNumber)).toBe(false);
    expect((await close(pre.body.ServiceReferenceNumber)).body.ResponseCode).toBe(
      ResponseCode.PreauthCompletedBefore,
    );
  });

  it('refuses more than the authorized amount, an unknown reference and a non-preauth', async () => {
    const pre = await preauth(30);
    expect((await close(pre.body.ServiceReferenceNumber, { Amount: 30.01 })).body.ResponseCode).toBe(506);
    expect((await close('000000000000')).body.ResponseCode).toBe(ResponseCode.PreauthNotFound);
    const sale = await gw.post('/api/Transactions/Sale', keyedSale());
    expect((await close(sale.body.ServiceReferenceNumber)).body.ResponseCode).toBe(
      ResponseCode.PreauthNotFound,
    );
  });

  it('ProcessPreauth implies TransactionType 3, takes IsClosable, and PreAuthorization stays an alias', async () => {
    const { TransactionType: _t, ...noType } = keyedSale({ Amount: 15 });
    const held = await gw.post('/api/Transactions/ProcessPreauth', { ...noType, IsClosable: true });
    expect(held.body.ResponseCode).toBe(ResponseCode.Success);
    expect((await close(held.body.ServiceReferenceNumber, { Amount: 15 })).body.ResponseCode).toBe(
      ResponseCode.Success,
    );
    const typed = await gw.post('/api/Transactions/ProcessPreauth', keyedSale({ TransactionType: 3 }));
    expect(typed.body.ResponseCode).toBe(ResponseCode.Success);
    const wrong = await gw.post('/api/Transactions/ProcessPreauth', keyedSale({ TransactionType: 1 }));
    expect(wrong.body.ResponseCode).toBe(ResponseCode.InvalidTransactionType);
    const notClosable = await gw.post('/api/Transactions/ProcessPreauth', {
      ...noType,
      UserTransactionNumber: utn('nc'),
      IsClosable: false,
    });
    expect(notClosable.body.ResponseCode).toBe(ResponseCode.PreauthImpossible);
    const alias = await gw.post('/api/Transactions/PreAuthorization', {
      ...keyedSale({ Amount: 9 }),
      TransactionType: undefined,
    });
    expect(alias.body.ResponseCode).toBe(ResponseCode.Success);
    const unsettled = (await gw.post('/api/Report/GetUnsettledTransactions', merchant1)).body
      .UnsettledTransactions as { ServiceReferenceNumber: string }[];
    // A hold moves no money: it is not in the batch.
    expect(unsettled.some((u) => u.ServiceReferenceNumber === alias.body.ServiceReferenceNumber)).toBe(false);
  });

  it("answers the real catalog: 53 completed before, 52 declined, 5 another merchant's", async () => {
    const declined = await gw.post(
      '/api/Transactions/ProcessPreauth',
      keyedSale({ TransactionType: 3, CardNumber: '4000000000000002' }),
    );
    expect(declined.body.ResponseCode).toBe(ResponseCode.Declined);
    expect((await close(declined.body.ServiceReferenceNumber)).body.ResponseCode).toBe(
      ResponseCode.PreauthDeclined,
    );
    const pre = await preauth(70);
    expect((await close(pre.body.ServiceReferenceNumber, { ...merchant2 })).body.ResponseCode).toBe(
      ResponseCode.UnauthorizedReference,
    );
    expect((await close(pre.body.ServiceReferenceNumber)).body.ResponseCode).toBe(ResponseCode.Success);
    expect((await close(pre.body.ServiceReferenceNumber)).body.ResponseCode).toBe(
      ResponseCode.PreauthCompletedBefore,
    );
  });

  it('a voided preauthorization cannot be closed', async () => {
    const pre = await preauth(25);
    const v = await gw.post('/api/Transactions/DoVoid', {
      ...merchant1,
      ServiceTransactionNumber: pre.body.ServiceReferenceNumber,
      UserTransactionNumber: utn('v'),
    });
    expect(v.body.ResponseCode).toBe(200);
    expect((await close(pre.body.ServiceReferenceNumber, { Amount: 20 })).body.ResponseCode).toBe(
      ResponseCode.PreauthNotClosable,
    );
  });
});
