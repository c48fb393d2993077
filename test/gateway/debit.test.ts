import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declined, merchant1, startGateway, utn, type TestGateway } from '../support/gateway-harness';
import { emvData, pinBlock, swipe } from '../support/cards';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { DeclineCode } from '../../gateway/contract/decline-codes';

describe('PIN debit', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });
  const debit = (overrides: Record<string, unknown>) =>
    gw.post('/api/Transactions/SaleDebit', {
      ...merchant1,
      Amount: 20,
      TransactionType: 5,
      UserTransactionNumber: utn('deb'),
      Track2: swipe('4111111111111111'),
      ...pinBlock('4111111111111111'),
      ForceDuplication: true,
      ...overrides,
    });

  it('approves with the sandbox PIN verified by TDES DUKPT, with cash back', async () => {
    const r = await debit({ CashBackAmount: 40 });
    expect(r.body).toMatchObject({ ResponseCode: 200, Amount: 20, CashBackAmount: 40 });
    const rows = (await gw.post('/api/Report/GetReportByMerchant', merchant1)).body.Transactions as Record<
      string,
      unknown
    >[];
    const row = rows.find((t) => t.ServiceReferenceNumber === r.body.ServiceReferenceNumber);
    // TotalAmount excludes cash back; it is still charged and settled.
    expect(row).toMatchObject({ TotalAmount: 20, CashBackAmount: 40 });
  });

  it('approves a chip debit', async () => {
    const r = await debit({
      Track2: undefined,
      EmvData: emvData('5555555555554444', 2000),
      ...pinBlock('5555555555554444'),
    });
    expect(r.body.ResponseCode).toBe(200);
  });

  it('declines a wrong PIN, and a PIN block made for another card', async () => {
    const incorrectPin = declined(DeclineCode.IncorrectPin);
    expect((await debit(pinBlock('4111111111111111', '9999'))).body).toMatchObject(incorrectPin);
    expect((await debit(pinBlock('5555555555554444'))).body).toMatchObject(incorrectPin);
  });

  it('requires KSN and PinBlock, and a card at the counter', async () => {
    const missing = await debit({ KSN: undefined, PinBlock: undefined });
    expect(missing.body.ResponseCode).toBe(ResponseCode.PinDataMissing);
    const keyed = await debit({ Track2: undefined, CardNumber: '4111111111111111', ExpDate: '1230' });
    expect(keyed.body.ResponseCode).toBe(ResponseCode.CardDataMissing);
    expect((await debit({ TransactionType: 1 })).body.ResponseCode).toBe(501);
  });
});
