import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  keyedSale,
  merchant1,
  merchant2,
  startGateway,
  type Json,
  type TestGateway,
} from '../../support/gateway-harness';
import { allText } from './helpers';
import { storedText } from '../../support/test-database';
import { ResponseCode } from '../../../gateway/contract/response-codes';

const SECRET = 'Pr0cessor-S3cret!';

describe('gateway admin and administration', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ backgroundTasks: false });
  });
  afterAll(async () => {
    await gw.close();
  });

  const admin = (op: string, body: Json = {}, envelope: Json = merchant1) =>
    gw.post(`/api/Administration/${op}`, { ...envelope, ...body });
  const addUser = (body: Json, envelope: Json = merchant1) =>
    admin('AddUserToProcessor', { NewUser: 'store-user', NewPass: SECRET, ...body }, envelope);

  it('adds processor users by Processor value or ProcessorId (1-based position), once each', async () => {
    const byName = await addUser({
      Processor: 'ProcessorValue07',
      IndustryCode: 'RS',
      CardTypes: 'visa, Mastercard,AMEX',
      ExtraFielsKeys: 'TerminalId,Bin',
      ExtraFielsValues: 'T-0001,999888',
      ProcessorExtraFields: { MerchantKey: 'mk-secret-123' },
      FraudAutodenyOptions: '1, 3',
      ExtraData: 'lane 7',
    });
    expect(byName.body).toMatchObject({
      ResponseCode: 200,
      ProcessorId: 7,
      Processor: 'ProcessorValue07',
      IndustryCode: 'RS',
      UserName: 'st********',
    });
    const byId = await addUser({ ProcessorId: 40 });
    expect(byId.body).toMatchObject({ ResponseCode: 200, Processor: 'ProcessorValue40' });
    expect((await addUser({ ProcessorId: 7 })).body.ResponseCode).toBe(426);
    expect((await addUser({ ProcessorId: 7 }, merchant2)).body.ResponseCode).toBe(200);
  });

  it('refuses bad processor users, all problems at once', async () => {
    expect((await addUser({ ProcessorId: 41 })).body.ResponseCode).toBe(400);
    expect((await addUser({ ProcessorId: 0 })).body.ResponseCode).toBe(400);
    expect((await addUser({ Processor: 'ProcessorValue41' })).body.ResponseCode).toBe(400);
    expect((await addUser({ Processor: 'ProcessorValue02', ProcessorId: 3 })).body.ResponseCode).toBe(400);
    expect((await addUser({ ProcessorId: 5, IndustryCode: 'Z' })).body.ResponseCode).toBe(400);
    expect((await addUser({ ProcessorId: 5, CardTypes: 'Visa,Bitcoin' })).body.ResponseCode).toBe(400);
    expect(
      (await addUser({ ProcessorId: 5, ExtraFielsKeys: 'a,b', ExtraFielsValues: '1' })).body.ResponseCode,
    ).toBe(400);
    expect((await addUser({ ProcessorId: 5, FraudAutodenyOptions: '9' })).body.ResponseCode).toBe(659);
    expect((await addUser({ ProcessorId: 'five' })).body.ResponseCode).toBe(400);
    const many = await admin('AddUserToProcessor', { IndustryCode: 'R' });
    expect(many.body.ResponseCode).toBe(400);
    expect((many.body.Msg as string[]).join(' ')).toMatch(/ProcessorId.*NewUser.*NewPass/);
    const creds = await admin('GetCredentials', { ProcessorId: 5 });
    expect(creds.body.ResponseCode).toBe(404);
  });

  it('returns credentials masked, never in clear, and only the merchant’s own', async () => {
    const r = await admin('GetCredentials');
    expect(r.body.ResponseCode).toBe(200);
    const creds = r.body.Credentials as Json[];
    expect(creds.map((c) => c.ProcessorId)).toEqual([7, 40]);
    expect(creds[0]).toMatchObject({
      Processor: 'ProcessorValue07',
      UserName: 'st********',
      Password: '********',
      CardTypes: 'Visa,Mastercard,Amex',
      ExtraData: 'lane 7',
      ExtraFieldKeys: ['TerminalId', 'Bin', 'MerchantKey'],
      ExtraFieldValues: ['****', '****', '****'],
      FraudAutodenyOptions: '1,3',
    });
    for (const secret of [SECRET, 'store-user', 'mk-secret-123', 'T-0001'])
      expect(allText(r.body)).not.toContain(secret);
    const one = await admin('GetCredentials', { ProcessorId: 40, ExtraData: 'anything' });
    expect(one.body.Credentials).toHaveLength(1);
    const theirs = await admin('GetCredentials', {}, merchant2);
    expect((theirs.body.Credentials as Json[]).map((c) => c.ProcessorId)).toEqual([7]);
    // Sealed at rest too.
    await gw.gateway.storage.write(() => Promise.resolve());
    const stored = await storedText(gw.dataDir);
    expect(stored.length).toBeGreaterThan(0);
    for (const { name, text } of stored) {
      expect(text.includes(SECRET), name).toBe(false);
      expect(text.includes('mk-secret-123'), name).toBe(false);
    }
  });

  it('deletes a processor user of its own merchant only', async () => {
    expect((await admin('DeleteUserFromProcessor', { ProcessorId: 40 }, merchant2)).body.ResponseCode).toBe(
      404,
    );
    const d = await admin('DeleteUserFromProcessor', { ProcessorId: 40 });
    expect(d.body).toMatchObject({ ResponseCode: 200, ProcessorId: 40, Deleted: true });
    expect((await admin('DeleteUserFromProcessor', { ProcessorId: 40 })).body.ResponseCode).toBe(404);
    expect((await admin('DeleteUserFromProcessor')).body.ResponseCode).toBe(400);
    expect((await admin('GetCredentials', { ProcessorId: 40 })).body.ResponseCode).toBe(404);
  });

  it('lists the cashiers as subaccounts, with e-commerce payment counts', async () => {
    await gw.post('/api/Transactions/Sale', keyedSale());
    await gw.post('/api/Transactions/Sale', keyedSale());
    const r = await admin('GetSubAccounts');
    expect(r.body.SubAccounts).toEqual([
      expect.objectContaining({
        id: 1,
        mid: 1001,
        is_enable: true,
        CanSale: true,
        in_black_list: false,
        isDemo: true,
        first_name: 'Demo',
        host_user: 'st********',
        host_pass: '',
        WebsitePaymentsCount: 2,
      }),
    ]);
    const theirs = await admin('GetSubAccounts', {}, merchant2);
    expect(theirs.body.SubAccounts).toEqual([
      expect.objectContaining({ id: 2, mid: 1002, WebsitePaymentsCount: 0 }),
    ]);
  });

  it("changes the calling cashier's DataWire id, keeping the previous one as backup", async () => {
    const first = await gw.post('/api/GatewayAdmin/ChangeDataWireId', {
      ...merchant1,
      DataWireID: 'DW-0001',
      ProcessorMid: 'PM123',
    });
    expect(first.body).toMatchObject({
      ResponseCode: 200,
      cid: 1,
      DataWireId: 'DW-0001',
      DataWireIdBackUp: '',
      ProcessorMid: 'PM123',
    });
    const second = await gw.post('/api/GatewayAdmin/ChangeDataWireId', {
      ...merchant1,
      DataWireID: 'DW-0002',
    });
    expect(second.body).toMatchObject({
      DataWireId: 'DW-0002',
      DataWireIdBackUp: 'DW-0001',
      ProcessorMid: 'PM123',
    });
    const sub = await admin('GetSubAccounts');
    expect(sub.body.SubAccounts).toEqual([
      expect.objectContaining({ DataWireId: 'DW-0002', DataWireIdBackUp: 'DW-0001' }),
    ]);
    expect((await admin('GetSubAccounts', {}, merchant2)).body.SubAccounts).toEqual([
      expect.objectContaining({ DataWireId: '' }),
    ]);
    for (const DataWireID of ['', 'has space', "x'--", 'x'.repeat(41)]) {
      const bad = await gw.post('/api/GatewayAdmin/ChangeDataWireId', { ...merchant1, DataWireID });
      expect(bad.body.ResponseCode, DataWireID).toBe(400);
    }
    expect((await gw.post('/api/GatewayAdmin/ChangeDataWireId', { ...merchant1 })).body.ResponseCode).toBe(
      400,
    );
  });

  it('answers DoesUserExist for the authenticated user; a wrong password is 1 (invalid credentials), not an oracle', async () => {
    const r = await gw.post('/api/GatewayAdmin/DoesUserExist', { ...merchant1 });
    expect(r.body).toMatchObject({
      ResponseCode: 200,
      UserExists: true,
      UserName: 'sandbox',
      mid: 1001,
      cid: 1,
      ProcessorIds: [7],
    });
    const wrong = await gw.post('/api/GatewayAdmin/DoesUserExist', { ...merchant1, Password: 'guess' });
    expect(wrong.body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
    expect(wrong.body.UserExists).toBeUndefined();
    const nobody = await gw.post('/api/GatewayAdmin/DoesUserExist', { ...merchant1, UserName: 'nobody' });
    expect(nobody.body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
    expect(nobody.body.Msg).toEqual(wrong.body.Msg);
  });
});
