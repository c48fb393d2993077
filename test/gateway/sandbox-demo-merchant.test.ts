import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { createApplication, createCashier, createMerchant, createUser } from '../../gateway/sandbox/seed';
import { loadKeys } from '../../gateway/security/keys';
import { startGateway, utn, type TestGateway } from '../support/gateway-harness';
import { dropSchema, schemaOf } from '../support/test-database';

/**
 * Issue 21, item 12: the real service's published demo credentials, which the shopping-cart plugin's test
 * mode sends unchanged, open a merchant of the sandbox — a new sandbox, and one made before this merchant
 * existed — and never a database that is not a sandbox (a production store started with --sandbox by
 * mistake gets no published password).
 */
const demo = {
  AppKey: '12345',
  AppType: 1,
  mid: 76074,
  cid: 260,
  UserName: 'nicolas',
  Password: 'password1',
} as const;

const sale = (gw: TestGateway) =>
  gw.post('/api/Transactions/Sale', {
    ...demo,
    Amount: 3.5,
    TransactionType: 1,
    UserTransactionNumber: utn('demo'),
    CardNumber: '4111111111111111',
    ExpDate: '1230',
    CVN: '123',
    ForceDuplication: true,
  });

describe('the published demo merchant in the sandbox (issue 21, item 12)', () => {
  const folders: string[] = [];
  let open: TestGateway | undefined;
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tillpoint-demo-'));
    folders.push(dir);
    return dir;
  };
  afterEach(async () => {
    await open?.close();
    open = undefined;
    for (const dir of folders.splice(0)) {
      const schema = schemaOf(dir);
      if (schema) await dropSchema(schema);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('opens mid 76074 with AppKey 12345 / nicolas / password1 in a new sandbox, beside 1001 and 1002', async () => {
    open = await startGateway({ dataDir: folder() });
    const r = await sale(open);
    expect(r.body).toMatchObject({ ResponseCode: ResponseCode.Success, Amount: 3.5 });
    // Its own merchant: its report holds its sale only.
    const report = await open.post('/api/Report/GetReportByMerchant', demo);
    expect(report.body.ResponseCode).toBe(ResponseCode.Success);
    expect((report.body.Transactions as unknown[]).length).toBe(1);
    const wrong = await open.post('/api/Transactions/DoSettlement', { ...demo, Password: 'password2' });
    expect(wrong.body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
    const otherCashier = await open.post('/api/Transactions/DoSettlement', { ...demo, cid: 1 });
    expect(otherCashier.body.ResponseCode).toBe(ResponseCode.InvalidHostCredentials);
  });

  it('adds it to a sandbox made before it existed, once, when that sandbox starts again', async () => {
    const dataDir = folder();
    const first = await startGateway({ dataDir });
    // A sandbox of the previous release: the demo merchant's rows were never there.
    await first.gateway.storage.write(async (tx) => {
      await tx.run(tx.qb.deleteFrom('disputes').where('mid', '=', demo.mid));
      await tx.run(tx.qb.deleteFrom('cashiers').where('mid', '=', demo.mid));
      await tx.run(tx.qb.deleteFrom('users').where('mid', '=', demo.mid));
      await tx.run(tx.qb.deleteFrom('business_settings').where('mid', '=', demo.mid));
      await tx.run(tx.qb.deleteFrom('merchants').where('mid', '=', demo.mid));
      await tx.run(tx.qb.deleteFrom('applications').where('app_key', '=', demo.AppKey));
    });
    first.gateway.services.authenticator.forget();
    expect((await sale(first)).body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
    await first.gateway.close();
    open = await startGateway({ dataDir });
    expect((await sale(open)).body.ResponseCode).toBe(ResponseCode.Success);
    await open.gateway.close();
    // A third start finds it there and adds nothing.
    open = await startGateway({ dataDir });
    const q = open.gateway.storage.read;
    const users = await q.all(q.qb.selectFrom('users').select('id').where('user_name', '=', demo.UserName));
    expect(users).toHaveLength(1);
    // Its history for the Reporting group came with it (a chargeback and a retrieval, once each).
    const disputes = await q.all(q.qb.selectFrom('disputes').select('kind').where('mid', '=', demo.mid));
    expect(disputes.map((d) => d.kind).sort()).toEqual(['chargeback', 'retrieval']);
    expect((await sale(open)).body.ResponseCode).toBe(ResponseCode.Success);
  });

  it('never puts the published password into a database that is not a sandbox, even started with --sandbox', async () => {
    const dataDir = folder();
    loadKeys(join(dataDir, 'keys.json'), true);
    // A production store: its own application, merchant, user and cashier, no sandbox data.
    const production = await startGateway({ dataDir, sandbox: false });
    const now = new Date().toISOString();
    const storage = production.gateway.storage;
    await createApplication(storage, 'prod-app', 7, 'Production application');
    await createMerchant(
      storage,
      {
        mid: 5001,
        name: 'Real shop',
        timeZone: 'America/Chicago',
        creditProcessor: 'sandbox',
        tokenLookup: true,
      },
      now,
    );
    await createUser(storage, 5001, 'owner', 'a-long-real-password', now);
    await createCashier(storage, 5001, 1, 'Real', 'Cashier', now);
    await production.gateway.close();
    open = await startGateway({ dataDir, sandbox: true });
    expect((await sale(open)).body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
    const q = open.gateway.storage.read;
    expect(
      await q.first(q.qb.selectFrom('merchants').select('mid').where('mid', '=', demo.mid)),
    ).toBeUndefined();
    expect(
      await q.first(q.qb.selectFrom('users').select('id').where('user_name', '=', demo.UserName)),
    ).toBeUndefined();
  });
});
