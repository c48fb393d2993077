import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  keyedSale,
  merchant1,
  merchant2,
  startGateway,
  type Json,
  type TestGateway,
  declined,
} from '../../support/gateway-harness';
import { allText } from './helpers';
import { DeclineCode } from '../../../gateway/contract/decline-codes';
import { ResponseCode } from '../../../gateway/contract/response-codes';

describe('fraud auto-deny options', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  const op = (name: string, envelope: Json = merchant1) =>
    gw.post(`/api/FraudAutoDenyOptions/${name}`, envelope);
  const sale = (overrides: Json = {}, envelope: Json = merchant1) =>
    gw.post('/api/Transactions/Sale', keyedSale({ ...envelope, ...overrides }));

  it('denies a failed zip (111) only while ZipCode is enabled', async () => {
    expect((await sale({ ZipCode: '99999' })).body.ResponseCode).toBe(200);
    const on = await op('EnableZipCode');
    expect(on.body).toMatchObject({ ResponseCode: 200, ZipCode: true, Options: '4' });
    const denied = await sale({ ZipCode: '99999' });
    expect(denied.body).toMatchObject(declined(DeclineCode.FraudDeniedZipCode));
    expect((await sale({ ZipCode: '10001' })).body.ResponseCode).toBe(200);
    // No zip sent: nothing to check.
    expect((await sale()).body.ResponseCode).toBe(200);
    await op('DisableZipCode');
    expect((await sale({ ZipCode: '99999' })).body.ResponseCode).toBe(200);
  });

  it('denies a failed street (110) while Address is enabled; the denied sale is not in the batch', async () => {
    await op('EnableAddress');
    const denied = await sale({ Street: '999 Fraud Lane', ZipCode: '10001' });
    expect(denied.body).toMatchObject(declined(DeclineCode.FraudDeniedAddress));
    expect((await sale({ Street: '1 Main St' })).body.ResponseCode).toBe(200);
    const unsettled = await gw.post('/api/Report/GetUnsettledTransactions', { ...merchant1 });
    expect(allText(unsettled.body)).not.toContain(String(denied.body.ServiceReferenceNumber));
    await op('DisableAddress');
  });

  it('turns the issuer CVN decline (103) into the merchant rule (112) while Cvv is enabled', async () => {
    const card = { CardNumber: '4000000000000127', CVN: '999' };
    expect((await sale(card)).body).toMatchObject(declined(DeclineCode.CvnMismatch));
    await op('EnableCvv');
    expect((await sale(card)).body).toMatchObject(declined(DeclineCode.FraudDeniedCvn));
    expect((await sale()).body.ResponseCode).toBe(200);
    await op('DisableCvv');
    expect((await sale(card)).body).toMatchObject(declined(DeclineCode.CvnMismatch));
  });

  it('blacklists an account by card number or by a payment, and denies it (113) while Account is enabled', async () => {
    const first = await sale({ CardNumber: '5555555555554444' });
    expect(first.body.ResponseCode).toBe(200);
    const listed = await gw.post('/api/FraudAutoDenyOptions/BlacklistAccount', {
      ...merchant1,
      ServiceTransactionNumber: first.body.ServiceReferenceNumber,
    });
    expect(listed.body).toMatchObject({
      ResponseCode: 200,
      CardNumber: '555555******4444',
      Blacklisted: true,
    });
    // Listed but the check is off: still approved.
    expect((await sale({ CardNumber: '5555555555554444' })).body.ResponseCode).toBe(200);
    await op('EnableAccount');
    expect((await sale({ CardNumber: '5555555555554444' })).body).toMatchObject(
      declined(DeclineCode.FraudDeniedAccount),
    );
    expect((await sale()).body.ResponseCode).toBe(200);
    const byNumber = await gw.post('/api/FraudAutoDenyOptions/BlacklistAccount', {
      ...merchant1,
      CardNumber: '4242 4242 4242 4242',
    });
    expect(byNumber.body.CardNumber).toBe('424242******4242');
    expect((await sale({ CardNumber: '4242424242424242' })).body).toMatchObject(
      declined(DeclineCode.FraudDeniedAccount),
    );
    const opts = await gw.post('/api/GatewayAdmin/GetUserAutodenyOptions', { ...merchant1 });
    expect(opts.body).toMatchObject({ Options: '1', Account: true });
    expect(opts.body.BlacklistedAccounts).toHaveLength(2);
    expect(allText(opts.body)).not.toContain('5555555555554444');
    const off = await gw.post('/api/FraudAutoDenyOptions/UnblacklistAccount', {
      ...merchant1,
      CardNumber: '4242424242424242',
    });
    expect(off.body.Blacklisted).toBe(false);
    expect((await sale({ CardNumber: '4242424242424242' })).body.ResponseCode).toBe(200);
    const again = await gw.post('/api/FraudAutoDenyOptions/UnblacklistAccount', {
      ...merchant1,
      CardNumber: '4242424242424242',
    });
    expect(again.body.ResponseCode).toBe(404);
    await op('DisableAccount');
  });

  it('maps the GatewayAdmin option integers (1 Account, 2 Address, 3 Cvv, 4 ZipCode)', async () => {
    const add = await gw.post('/api/GatewayAdmin/AddFraudAutoDenyOptions', {
      ...merchant1,
      Options: '3, 2,4',
    });
    expect(add.body).toMatchObject({
      ResponseCode: 200,
      Options: '2,3,4',
      Address: true,
      Cvv: true,
      ZipCode: true,
    });
    expect((await sale({ CardNumber: '4000000000000127', CVN: '111' })).body).toMatchObject(
      declined(DeclineCode.FraudDeniedCvn),
    );
    const remove = await gw.post('/api/GatewayAdmin/RemoveFraudAutodenyOptions', {
      ...merchant1,
      Options: '2,3',
    });
    expect(remove.body).toMatchObject({ Options: '4', Address: false, Cvv: false, ZipCode: true });
    const get = await gw.post('/api/GatewayAdmin/GetUserAutodenyOptions', { ...merchant1 });
    expect(get.body).toMatchObject({ Options: '4', ZipCode: true, Account: false });
    await gw.post('/api/GatewayAdmin/RemoveFraudAutodenyOptions', { ...merchant1, Options: '4' });
  });

  it('refuses options that are not the integers of the table (659), changing nothing', async () => {
    for (const Options of ['5', '0', 'a', '', ' , ', '1;2', '1.0', '-1', '1,,2']) {
      const r = await gw.post('/api/GatewayAdmin/AddFraudAutoDenyOptions', { ...merchant1, Options });
      expect(r.body.ResponseCode, Options).toBe(659);
    }
    const numeric = await gw.post('/api/GatewayAdmin/AddFraudAutoDenyOptions', { ...merchant1, Options: 5 });
    expect(numeric.body.ResponseCode).toBe(ResponseCode.InvalidFraudOptions);
    const get = await gw.post('/api/GatewayAdmin/GetUserAutodenyOptions', { ...merchant1 });
    expect(get.body.Options).toBe('');
  });

  it('keeps options and blacklists per merchant', async () => {
    await op('EnableZipCode', merchant2);
    expect((await sale({ ZipCode: '99999' }, merchant2)).body).toMatchObject(
      declined(DeclineCode.FraudDeniedZipCode),
    );
    expect((await sale({ ZipCode: '99999' })).body.ResponseCode).toBe(200);
    const m1sale = await sale({ CardNumber: '6011111111111117' });
    const steal = await gw.post('/api/FraudAutoDenyOptions/BlacklistAccount', {
      ...merchant2,
      ServiceTransactionNumber: m1sale.body.ServiceReferenceNumber,
    });
    expect(steal.body.ResponseCode).toBe(ResponseCode.UnauthorizedReference);
    await gw.post('/api/FraudAutoDenyOptions/BlacklistAccount', {
      ...merchant2,
      CardNumber: '6011111111111117',
    });
    await op('EnableAccount', merchant2);
    expect((await sale({ CardNumber: '6011111111111117' }, merchant2)).body).toMatchObject(
      declined(DeclineCode.FraudDeniedAccount),
    );
    expect((await sale({ CardNumber: '6011111111111117' })).body.ResponseCode).toBe(200);
    const m1 = await gw.post('/api/GatewayAdmin/GetUserAutodenyOptions', { ...merchant1 });
    expect(m1.body.BlacklistedAccounts).toHaveLength(1);
  });

  it('refuses bad blacklist requests', async () => {
    const none = await gw.post('/api/FraudAutoDenyOptions/BlacklistAccount', { ...merchant1 });
    expect(none.body.ResponseCode).toBe(400);
    const both = await gw.post('/api/FraudAutoDenyOptions/BlacklistAccount', {
      ...merchant1,
      CardNumber: '4111111111111111',
      ServiceTransactionNumber: '123',
    });
    expect(both.body.ResponseCode).toBe(400);
    const luhn = await gw.post('/api/FraudAutoDenyOptions/BlacklistAccount', {
      ...merchant1,
      CardNumber: '4111111111111112',
    });
    expect(luhn.body.ResponseCode).toBe(104);
    expect(allText(luhn.body)).not.toContain('4111111111111112');
    const unauth = await gw.post('/api/FraudAutoDenyOptions/EnableCvv', { ...merchant1, Password: 'x' });
    expect(unauth.body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
    const wrongMerchant = await gw.post('/api/FraudAutoDenyOptions/EnableCvv', { ...merchant1, mid: 1002 });
    expect(wrongMerchant.body.ResponseCode).toBe(ResponseCode.InvalidHostCredentials);
  });
});
