import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ManualClock,
  merchant1,
  merchant2,
  startGateway,
  type Json,
  type TestGateway,
} from '../../support/gateway-harness';
import { allText } from './helpers';
import { storedText } from '../../support/test-database';
import { ResponseCode } from '../../../gateway/contract/response-codes';

const ROUTING = '021000021';
const ACCOUNT = '987650123456';
const DL = 'D1234567';

function check(overrides: Json = {}, envelope: Json = merchant1): Json {
  return {
    ...envelope,
    PacketIdentifier: 'A',
    ROUTING_NUMBER: ROUTING,
    ACCOUNT_NUMBER: ACCOUNT,
    ACCOUNT_TYPE: 'CHECKING',
    CHECK_AMOUNT: '125.50',
    CHECK_NUMBER: String(1000 + Math.floor(Math.random() * 1e6)),
    FIRST_NAME: 'Ada',
    LAST_NAME: 'Lovelace',
    Method: 0,
    ...overrides,
  };
}

describe('check processor and ACH', () => {
  // 11:00 in New York (merchant 1001) on a Monday.
  const clock = new ManualClock(new Date('2025-03-10T15:00:00Z'));
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ clock, backgroundTasks: false });
  });
  afterAll(async () => {
    await gw.close();
  });

  const processCheck = (body: Json) => gw.post('/api/CheckProcessor/ProcessCheck', body);
  const voidCheck = (id: unknown, envelope: Json = merchant1) =>
    processCheck({ ...envelope, PacketIdentifier: 'V', CheckTransactionId: Number(id) });
  const report = async (envelope: Json = merchant1) =>
    (await gw.post('/api/CheckProcessor/GetReport', envelope)).body.Transactions as Json[];

  it('authorizes a check: integer id as ServiceTransactionNumber, masked numbers, the response fields', async () => {
    const r = await processCheck(check({ CHECK_NUMBER: '1001' }));
    expect(r.body).toMatchObject({
      ResponseCode: 200,
      Code: 'APPROVED',
      ResponseType: 'A',
      ResponseTypeText: 'APPROVED',
      ResultCode: '00',
      TypeCode: 'POP',
      ErrorMessages: [],
      ValidationMessage: '',
      TransactionInfo: {
        AccountNumber: '****3456',
        RoutingNumber: '****0021',
        CheckAmount: '125.50',
        CheckNumber: '1001',
      },
    });
    const info = r.body.TransactionInfo as { ServiceTransactionNumber: string };
    expect(info.ServiceTransactionNumber).toMatch(/^\d+$/);
    expect(allText(r.body)).not.toContain(ACCOUNT);
    expect(allText(r.body)).not.toContain(ROUTING);
  });

  it('voids only on the same calendar day in the merchant time zone', async () => {
    const a = await processCheck(check());
    const id = (a.body.TransactionInfo as { ServiceTransactionNumber: string }).ServiceTransactionNumber;
    const v = await voidCheck(id);
    expect(v.body).toMatchObject({ ResponseCode: 200, Code: 'VOIDED', ResponseType: 'V', ResultCode: '20' });
    expect((await voidCheck(id)).body.ResponseCode).toBe(ResponseCode.CheckAlreadyVoided);
    const row = (await report()).find((t) => t.ServiceTransactionNumber === id);
    expect(row).toMatchObject({ TransactionVoided: true, TransactionVoidedOn: clock.now().toISOString() });

    // 23:30 in New York is already the next day in UTC: still the same calendar day for the merchant.
    clock.set(new Date('2025-03-11T03:30:00Z'));
    const late = await processCheck(check());
    const lateId = (late.body.TransactionInfo as { ServiceTransactionNumber: string })
      .ServiceTransactionNumber;
    const late2 = await processCheck(check());
    const late2Id = (late2.body.TransactionInfo as { ServiceTransactionNumber: string })
      .ServiceTransactionNumber;
    clock.set(new Date('2025-03-11T03:59:00Z'));
    expect((await voidCheck(lateId)).body.ResponseCode).toBe(200);
    // 00:30 the next morning in New York: the void window is closed.
    clock.set(new Date('2025-03-11T04:30:00Z'));
    const next = await voidCheck(late2Id);
    expect(next.body.ResponseCode).toBe(ResponseCode.VoidWindowClosed);
    expect((await report()).find((t) => t.ServiceTransactionNumber === late2Id)?.TransactionVoided).toBe(
      false,
    );
    clock.set(new Date('2025-03-11T15:00:00Z'));
  });

  it('O voids the previous check and enters the new one in its place, both or neither', async () => {
    const first = await processCheck(check({ CHECK_NUMBER: '2001', CHECK_AMOUNT: '10.00' }));
    const firstId = Number(
      (first.body.TransactionInfo as { ServiceTransactionNumber: string }).ServiceTransactionNumber,
    );
    // The duplicate rule sends the cashier to a manager override.
    expect(
      (await processCheck(check({ CHECK_NUMBER: '2001', CHECK_AMOUNT: '12.00' }))).body.ResponseCode,
    ).toBe(ResponseCode.CheckNotProcessed);
    const o = await processCheck(
      check({
        PacketIdentifier: 'O',
        CheckTransactionId: firstId,
        CHECK_NUMBER: '2001',
        CHECK_AMOUNT: '12.00',
      }),
    );
    expect(o.body).toMatchObject({ ResponseCode: 200, TransactionInfo: { CheckAmount: '12.00' } });
    const rows = await report();
    expect(rows.find((t) => t.ServiceTransactionNumber === String(firstId))?.TransactionVoided).toBe(true);
    expect(rows.find((t) => t.PacketIdentifier === 'O')?.TransactionVoided).toBe(false);
    // A declined replacement leaves the previous one as it was.
    const keep = await processCheck(check({ CHECK_NUMBER: '2002' }));
    const keepId = Number(
      (keep.body.TransactionInfo as { ServiceTransactionNumber: string }).ServiceTransactionNumber,
    );
    const declined = await processCheck(
      check({ PacketIdentifier: 'O', CheckTransactionId: keepId, ACCOUNT_NUMBER: '55550002', Method: 5 }),
    );
    expect(declined.body.ResponseCode).toBe(ResponseCode.CheckNotProcessed);
    expect(
      (await report()).find((t) => t.ServiceTransactionNumber === String(keepId))?.TransactionVoided,
    ).toBe(false);
    const missing = await processCheck(check({ PacketIdentifier: 'O' }));
    expect(missing.body.ResponseCode).toBe(400);
  });

  it('applies the Method: DL where required, verification triggers, identity data', async () => {
    for (const method of [1, 4, 6, 8]) {
      const r = await processCheck(check({ Method: method }));
      expect(r.body.ResponseCode, `method ${method}`).toBe(ResponseCode.IncorrectCheckData);
    }
    for (const method of [0, 1, 3, 4, 5, 6, 7, 8]) {
      const r = await processCheck(check({ Method: method, DL_NUMBER: DL, DL_STATE: 'NY' }));
      expect(r.body.ResponseCode, `method ${method}`).toBe(200);
    }
    for (const method of [2, 9, -1]) {
      expect((await processCheck(check({ Method: method }))).body.ResponseCode).toBe(400);
    }
    expect((await processCheck(check({ Method: 'zero' }))).body.ResponseCode).toBe(400);
    // Verification methods consult the negative file; the no-verification ones do not.
    expect((await processCheck(check({ Method: 5, ACCOUNT_NUMBER: '44440002' }))).body).toMatchObject({
      ResponseCode: ResponseCode.CheckNotProcessed,
      Code: 'DECLINED',
      ResponseType: 'D',
      ResultCode: '05',
    });
    expect((await processCheck(check({ Method: 0, ACCOUNT_NUMBER: '44440002' }))).body.ResponseCode).toBe(
      200,
    );
    expect(
      (await processCheck(check({ Method: 7, DL_NUMBER: '999123', DL_STATE: 'CA' }))).body,
    ).toMatchObject({
      ResponseCode: ResponseCode.CheckNotProcessed,
      ResultCode: '12',
    });
    expect((await processCheck(check({ Method: 7, SSN4: '0000' }))).body.ResponseCode).toBe(
      ResponseCode.CheckNotProcessed,
    );
    expect((await processCheck(check({ Method: 3, LAST_NAME: undefined }))).body.ResponseCode).toBe(
      ResponseCode.IncorrectCheckData,
    );
    // A declined check is on the report; it cannot be voided.
    const declined = await processCheck(
      check({ Method: 6, ACCOUNT_NUMBER: '44440002', DL_NUMBER: DL, DL_STATE: '44' }),
    );
    const declinedId = (declined.body.TransactionInfo as { ServiceTransactionNumber: string })
      .ServiceTransactionNumber;
    expect((await voidCheck(declinedId)).body.ResponseCode).toBe(ResponseCode.CheckVoidNotProcessed);
  });

  it('validates jurisdictions, routing numbers, accounts and CHECK_AMOUNT strictly, all problems at once', async () => {
    expect((await processCheck(check({ DL_STATE: 'CA', STATE: '67' }))).body.ResponseCode).toBe(200);
    expect((await processCheck(check({ DL_STATE: 'XX' }))).body.ResponseCode).toBe(
      ResponseCode.IncorrectCheckData,
    );
    expect((await processCheck(check({ STATE: '68' }))).body.ResponseCode).toBe(
      ResponseCode.IncorrectCheckData,
    );
    for (const routing of ['021000022', '12345678', '0210000210', '991000025', 'ABCDEFGHI']) {
      const r = await processCheck(check({ ROUTING_NUMBER: routing }));
      expect(r.body.ResponseCode, routing).toBe(ResponseCode.IncorrectCheckData);
      expect(allText(r.body)).not.toContain(routing);
    }
    for (const account of ['123', '12345678901234567890', '12-34-56']) {
      expect((await processCheck(check({ ACCOUNT_NUMBER: account }))).body.ResponseCode, account).toBe(
        ResponseCode.IncorrectCheckData,
      );
    }
    for (const amount of [
      '12.345',
      '1,000.00',
      '-5',
      '1e3',
      ' 5',
      '0',
      '0.00',
      '',
      '5.',
      '.5',
      '99999999.99',
    ]) {
      expect((await processCheck(check({ CHECK_AMOUNT: amount }))).body.ResponseCode, amount).toBe(506);
    }
    expect((await processCheck(check({ CHECK_AMOUNT: 12.5 }))).body.ResponseCode).toBe(506);
    expect((await processCheck(check({ CHECK_AMOUNT: '7' }))).body.TransactionInfo).toMatchObject({
      CheckAmount: '7.00',
    });
    expect((await processCheck(check({ CHECK_AMOUNT: '7.5' }))).body.TransactionInfo).toMatchObject({
      CheckAmount: '7.50',
    });
    const many = await processCheck(
      check({
        ROUTING_NUMBER: '1',
        ACCOUNT_NUMBER: 'x',
        CHECK_AMOUNT: 'abc',
        ZIP: '1',
        PHONE_NUMBER: 'call me',
        ACCOUNT_TYPE: 'LOAN',
      }),
    );
    expect(many.body.ResponseCode).toBe(506);
    expect((many.body.Msg as string[]).length).toBeGreaterThanOrEqual(6);
    const hostile = await processCheck(check({ FIRST_NAME: "Robert'); DROP TABLE bank_transactions;--" }));
    expect(hostile.body.ResponseCode).toBe(200);
    expect((await report()).length).toBeGreaterThan(3);
  });

  it('saves a UUIDv4 token and charges it with ProcessToken (same merchant only)', async () => {
    const saved = await processCheck(check({ SaveToken: true, DL_NUMBER: DL, DL_STATE: 'NY', Method: 4 }));
    const token = saved.body.Token as string;
    expect(token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const t = await gw.post('/api/CheckProcessor/ProcessToken', {
      ...merchant1,
      Token: token,
      CHECK_AMOUNT: '40.10',
      CHECK_NUMBER: '777',
    });
    expect(t.body).toMatchObject({
      ResponseCode: 200,
      TransactionInfo: { AccountNumber: '****3456', CheckAmount: '40.10', CheckNumber: '777' },
    });
    expect(
      (
        await gw.post('/api/CheckProcessor/ProcessToken', {
          ...merchant2,
          Token: token,
          CHECK_AMOUNT: '1.00',
        })
      ).body.ResponseCode,
    ).toBe(404);
    expect(
      (await gw.post('/api/CheckProcessor/ProcessToken', { ...merchant1, CHECK_AMOUNT: '1.00' })).body
        .ResponseCode,
    ).toBe(3);
    expect(
      (
        await gw.post('/api/CheckProcessor/ProcessToken', {
          ...merchant1,
          Token: 'not-a-uuid',
          CHECK_AMOUNT: '1.00',
        })
      ).body.ResponseCode,
    ).toBe(400);
    expect(
      (await gw.post('/api/CheckProcessor/ProcessToken', { ...merchant1, Token: token })).body.ResponseCode,
    ).toBe(506);
    // A declined check saves no token.
    const declined = await processCheck(check({ SaveToken: true, Method: 5, ACCOUNT_NUMBER: '33330002' }));
    expect(declined.body.Token).toBeUndefined();
  });

  it('keeps merchants apart: no void, override, report or token across merchants', async () => {
    const mine = await processCheck(check());
    const id = (mine.body.TransactionInfo as { ServiceTransactionNumber: string }).ServiceTransactionNumber;
    expect((await voidCheck(id, merchant2)).body.ResponseCode).toBe(ResponseCode.CheckNotFound);
    expect(
      (await processCheck(check({ PacketIdentifier: 'O', CheckTransactionId: Number(id) }, merchant2))).body
        .ResponseCode,
    ).toBe(ResponseCode.CheckNotFound);
    expect((await voidCheck(999_999)).body.ResponseCode).toBe(ResponseCode.CheckNotFound);
    expect(await report(merchant2)).toHaveLength(0);
    expect((await report()).some((t) => t.ServiceTransactionNumber === id)).toBe(true);
  });

  it('processes, voids and reports ACH debits by AchId', async () => {
    const ach = (overrides: Json = {}, envelope: Json = merchant1) =>
      gw.post('/api/AchProcessor/ProcessAch', {
        ...envelope,
        ROUTING_NUMBER: ROUTING,
        ACCOUNT_NUMBER: ACCOUNT,
        ACCOUNT_TYPE: 'SAVING',
        CHECK_AMOUNT: '300.00',
        FIRST_NAME: 'Grace',
        LAST_NAME: 'Hopper',
        TerminalID: 'T-7',
        ...overrides,
      });
    const a = await ach();
    const info = a.body.TransactionInfo as { AchId: number; ServiceTransactionNumber: string };
    expect(a.body).toMatchObject({
      ResponseCode: 200,
      TypeCode: 'PPD',
      TransactionInfo: { CheckAmount: '300.00', AccountNumber: '****3456' },
    });
    expect(info.ServiceTransactionNumber).toBe(String(info.AchId));
    expect((await ach({ COMPANY_NAME: 'Acme Corp' })).body.TypeCode).toBe('CCD');
    const b = await ach({ CHECK_AMOUNT: '20.00' });
    const bId = (b.body.TransactionInfo as { AchId: number }).AchId;

    const mismatch = await gw.post('/api/AchProcessor/VoidAch', {
      ...merchant1,
      AchId: info.AchId,
      AchAmount: 299.99,
      AccountNumber: '111122223333',
    });
    expect(mismatch.body.ResponseCode).toBe(ResponseCode.IncorrectCheckData);
    expect(allText(mismatch.body)).not.toContain(ACCOUNT);
    expect(
      (await gw.post('/api/AchProcessor/VoidAch', { ...merchant2, AchId: info.AchId })).body.ResponseCode,
    ).toBe(ResponseCode.CheckNotFound);
    const v = await gw.post('/api/AchProcessor/VoidAch', {
      ...merchant1,
      AchId: info.AchId,
      AbaRouting: ROUTING,
      AccountNumber: ACCOUNT,
      AchAmount: 300,
    });
    expect(v.body).toMatchObject({ ResponseCode: 200, Code: 'VOIDED' });
    expect(v.body.TransactionInfo).toBeUndefined();
    expect(
      (await gw.post('/api/AchProcessor/VoidAch', { ...merchant1, AchId: info.AchId })).body.ResponseCode,
    ).toBe(ResponseCode.CheckAlreadyVoided);
    expect((await gw.post('/api/AchProcessor/VoidAch', { ...merchant1 })).body.ResponseCode).toBe(400);
    // An ACH id is not a check id.
    expect((await voidCheck(bId)).body.ResponseCode).toBe(ResponseCode.CheckNotFound);

    const rep = await gw.post('/api/AchProcessor/GetReport', {
      ...merchant1,
      Parameters: { AchId: info.AchId },
    });
    expect(rep.body.Transactions).toEqual([
      expect.objectContaining({
        TransactionId: String(info.AchId),
        TerminalId: 'T-7',
        AccountType: 'SAVING',
        CheckAmount: 300,
        ResponseFromHostReceived: true,
        TransactionReverted: true,
        PacketIdentifier: 'A',
      }),
    ]);
    const today = await gw.post('/api/AchProcessor/GetReport', {
      ...merchant1,
      Parameters: { FromDate: '2025-03-11', ToDate: '2025-03-11' },
    });
    expect((today.body.Transactions as Json[]).length).toBe(3);
    const before = await gw.post('/api/AchProcessor/GetReport', {
      ...merchant1,
      Parameters: { ToDate: '2025-03-10' },
    });
    expect(before.body.Transactions).toHaveLength(0);
    expect(
      (await gw.post('/api/AchProcessor/GetReport', { ...merchant1, Parameters: { FromDate: 'yesterday' } }))
        .body.ResponseCode,
    ).toBe(400);
    expect((await gw.post('/api/AchProcessor/GetReport', { ...merchant2 })).body.Transactions).toHaveLength(
      0,
    );
    // Next calendar day: the other debit can no longer be voided.
    clock.advance(24 * 3600_000);
    expect((await gw.post('/api/AchProcessor/VoidAch', { ...merchant1, AchId: bId })).body.ResponseCode).toBe(
      ResponseCode.VoidWindowClosed,
    );
  });

  it('never writes account, routing or licence numbers in clear to the database files', async () => {
    await gw.gateway.storage.write(() => Promise.resolve());
    const stored = await storedText(gw.dataDir);
    expect(stored.length).toBeGreaterThan(0);
    for (const { name, text } of stored) {
      expect(text.includes(ACCOUNT), name).toBe(false);
      expect(text.includes(DL), name).toBe(false);
    }
  });
});
