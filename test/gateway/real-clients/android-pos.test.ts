import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { swipe } from '../../support/cards';
import { merchant1, startGateway, utn, type Json, type TestGateway } from '../../support/gateway-harness';

/**
 * A published Android point of sale (2014). Bodies are Gson-serialized with `Content-Type: text/json`,
 * property names in its own casing (`transactiontype`, `track2`, `TrackData`, `expDate`, `zipCode`,
 * `NameonCard`, `cv`, `Account`, camel-case envelope), numbers as JSON numbers. It posts Sale, DoRefund,
 * DoFullRefund, DoVoid, `/api/Transactions/ProcessPreauth` (IsClosable true, no TransactionType),
 * ClosePreauth with AdditionalTip, DoSettlement, and Administration SetAutomaticBatchClose /
 * UpdateAutomaticHourToCloseBatch with `Time` as "HH:mm". It maps ResponseCode through the real service's
 * catalog, and any other code is "unhandled, retry may help" — so a final refusal must be a catalog code.
 */
const catalog: Readonly<Record<number, string>> = {
  1: 'Invalid credentials',
  2: 'Invalid host credentials',
  3: 'Transaction error',
  4: 'Settlement impossible',
  5: 'Unauthorized reference number',
  6: 'Refund impossible',
  7: 'Void impossible',
  13: 'Empty request',
  14: 'Check not processed',
  15: 'Incorrect check data',
  20: 'Check void',
  21: 'Check void',
  22: 'Check void',
  23: 'Check void',
  25: 'Token not generated',
  26: 'Pre-authorization impossible',
  29: 'UserTransactionNumber not found',
  30: 'UserTransactionNumber empty',
  31: 'ServiceTransactionNumber not found',
  50: 'Pre-authorization not found',
  51: 'Pre-authorization not closable',
  52: 'Referenced pre-authorization declined',
  53: 'Pre-authorization completed before',
  54: 'Signature data empty',
  57: 'Not enrolled in automatic batch close',
  200: 'Success',
  300: 'System error',
};

/** What the app shows: the catalog's words, or the retry prompt for anything it does not know. */
function appReads(answer: Json): string {
  const code = answer.ResponseCode;
  return typeof code === 'number' ? (catalog[code] ?? 'Unhandled, retry may help') : 'No answer';
}

describe('real client: Android point of sale 2014 (Gson, text/json, its own casing)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  /** Gson's output of the app's request objects. */
  const gson = (path: string, fields: Json, envelope: Json = {}) =>
    gw.post(
      path,
      {
        appKey: merchant1.AppKey,
        appType: merchant1.AppType,
        mid: merchant1.mid,
        cid: merchant1.cid,
        userName: merchant1.UserName,
        password: merchant1.Password,
        ...envelope,
        ...fields,
      },
      { contentType: 'text/json; charset=utf-8' },
    );
  const keyedSale = (amount: number, account = '4111111111111111') =>
    gson('/api/Transactions/Sale', {
      Amount: amount,
      transactiontype: 1,
      UserTransactionNumber: utn('droid'),
      Account: account,
      expDate: '1230',
      cv: '123',
      zipCode: '30301',
      NameonCard: 'Grace Hopper',
      track2: '',
      TrackData: '',
    });

  it('sells keyed (Account/cv/expDate) and swiped (TrackData), and reads Success', async () => {
    const keyed = await keyedSale(21.5);
    expect(keyed.body).toMatchObject({ ResponseCode: ResponseCode.Success, Amount: 21.5, LastFour: '1111' });
    expect(appReads(keyed.body)).toBe('Success');
    const swiped = await gson('/api/Transactions/Sale', {
      Amount: 8.25,
      transactiontype: 1,
      UserTransactionNumber: utn('droid'),
      track2: '',
      TrackData: swipe('5555555555554444'),
    });
    expect(swiped.body).toMatchObject({ ResponseCode: ResponseCode.Success, LastFour: '4444' });
  });

  it('reads a decline as the catalog\'s transaction error, never "retry"', async () => {
    const declined = await keyedSale(22, '4000000000000002');
    expect(declined.body.ResponseCode).toBe(ResponseCode.Declined);
    expect(appReads(declined.body)).toBe('Transaction error');
    const funds = await keyedSale(23, '4000000000009995');
    expect(appReads(funds.body)).toBe('Transaction error');
  });

  it('refunds, fully refunds and voids; the refusals that follow are catalog codes', async () => {
    const a = await keyedSale(30);
    const srnA = a.body.ServiceReferenceNumber as string;
    const refund = await gson('/api/Transactions/DoRefund', {
      ServiceTransactionNumber: srnA,
      Amount: 10,
      UserTransactionNumber: utn('droid-r'),
      TrackData: '',
    });
    expect(appReads(refund.body)).toBe('Success');
    const full = await gson('/api/Transactions/DoFullRefund', {
      ServiceTransactionNumber: srnA,
      UserTransactionNumber: utn('droid-f'),
    });
    expect(full.body).toMatchObject({ ResponseCode: ResponseCode.Success, RefundedAmount: 20 });
    const voidRefunded = await gson('/api/Transactions/DoVoid', {
      ServiceTransactionNumber: srnA,
      UserTransactionNumber: utn('droid-v'),
    });
    expect(appReads(voidRefunded.body)).toBe('Void impossible');
    const b = await keyedSale(31);
    const srnB = b.body.ServiceReferenceNumber as string;
    const v = await gson('/api/Transactions/DoVoid', {
      ServiceTransactionNumber: srnB,
      UserTransactionNumber: utn('droid-v'),
    });
    expect(appReads(v.body)).toBe('Success');
    const refundVoided = await gson('/api/Transactions/DoRefund', {
      ServiceTransactionNumber: srnB,
      Amount: 1,
      UserTransactionNumber: utn('droid-r'),
    });
    expect(appReads(refundVoided.body)).toBe('Refund impossible');
    const unknown = await gson('/api/Transactions/DoVoid', {
      ServiceTransactionNumber: 'no-such-reference',
      UserTransactionNumber: utn('droid-v'),
    });
    expect(appReads(unknown.body)).toBe('ServiceTransactionNumber not found');
  });

  it('holds with ProcessPreauth (IsClosable, no TransactionType) and closes once with AdditionalTip', async () => {
    const held = await gson('/api/Transactions/ProcessPreauth', {
      Amount: 50,
      UserTransactionNumber: utn('droid-pre'),
      Account: '4242424242424242',
      expDate: '1230',
      cv: '321',
      IsClosable: true,
    });
    expect(held.body.ResponseCode).toBe(ResponseCode.Success);
    const close = () =>
      gson('/api/Transactions/ClosePreauth', {
        Amount: 45,
        AdditionalTip: 7.5,
        ServiceReferenceNumber: held.body.ServiceReferenceNumber,
        UserTransactionNumber: utn('droid-close'),
      });
    const closed = await close();
    expect(closed.body).toMatchObject({ ResponseCode: ResponseCode.Success, Amount: 45, TipAmount: 7.5 });
    expect(appReads((await close()).body)).toBe('Pre-authorization completed before');
  });

  it('settles the batch and reads Success', async () => {
    const r = await gson('/api/Transactions/DoSettlement', {});
    expect(r.body.ResponseCode).toBe(ResponseCode.Success);
    expect(r.body.AmountSettled).toBeGreaterThan(0);
    expect(appReads(r.body)).toBe('Success');
  });

  it('sets and moves the automatic batch close with Time "HH:mm"; not enrolled is a catalog code', async () => {
    // The store opted out from the back office first (not something the app does).
    await gw.post('/api/Administration/RemoveMerchantFromAutomaticCloseBatch', merchant1);
    const early = await gson('/api/Administration/UpdateAutomaticHourToCloseBatch', { Time: '21:00' });
    expect(appReads(early.body)).toBe('Not enrolled in automatic batch close');
    const set = await gson('/api/Administration/SetAutomaticBatchClose', { Time: '18:30' });
    expect(set.body).toMatchObject({
      ResponseCode: ResponseCode.Success,
      Enrolled: true,
      CloseTime: '18:30',
    });
    const moved = await gson('/api/Administration/UpdateAutomaticHourToCloseBatch', { Time: '19:05' });
    expect(moved.body).toMatchObject({ ResponseCode: ResponseCode.Success, CloseTime: '19:05' });
  });

  it('reads wrong credentials as the catalog\'s, not "retry"', async () => {
    const wrong = await gson('/api/Transactions/DoSettlement', {}, { password: 'nope' });
    expect(appReads(wrong.body)).toBe('Invalid credentials');
    const otherCashier = await gson('/api/Transactions/DoSettlement', {}, { cid: 2 });
    expect(appReads(otherCashier.body)).toBe('Invalid host credentials');
  });
});
