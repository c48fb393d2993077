import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  keyedSale,
  merchant1,
  merchant2,
  startGateway,
  utn,
  type Json,
  type TestGateway,
} from '../../support/gateway-harness';
import { run } from '../../support/spawn-gateway';
import { openPostgresStorage } from '../../../gateway/storage/postgres-storage';
import { TABLES_IN_ORDER } from '../../../gateway/storage/sqlite-to-postgres';
import { adminQuery, createSchema, dropSchema } from '../../support/test-database';

const admin = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'gateway/admin/cli.ts', ...args]);

/** What a store's reports show: the migration must not change a figure of them. */
async function reports(gw: TestGateway): Promise<Json> {
  const out: Json = {};
  for (const [name, m] of [
    ['m1', merchant1],
    ['m2', merchant2],
  ] as const) {
    out[`${name}:transactions`] = (await gw.post('/api/Report/GetReportByMerchant', m)).body.Transactions;
    out[`${name}:settlements`] = (
      await gw.post('/api/Report/GetSettlementsByDate', m)
    ).body.SettlementReports;
    out[`${name}:unsettled`] = (
      await gw.post('/api/Report/GetUnsettledTransactions', m)
    ).body.UnsettledTransactions;
  }
  return out;
}

describe(
  'migrate-to-postgres: a store moves from its SQLite file to PostgreSQL',
  { timeout: 180_000 },
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-move-'));
    const schemas: string[] = [];
    afterAll(async () => {
      for (const s of schemas) await dropSchema(s);
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('knows every table the migrations create, in an order foreign keys accept', async () => {
      const { schema, url } = await createSchema();
      schemas.push(schema);
      await (await openPostgresStorage({ url })).close();
      const tables = await adminQuery(
        "select table_name from information_schema.tables where table_schema = $1 and table_name <> 'schema_migrations'",
        [schema],
      );
      const names = (tables.rows as { table_name: string }[]).map((r) => r.table_name).sort();
      expect([...TABLES_IN_ORDER].sort()).toEqual(names);
      // Each table's foreign keys point only at tables listed before it.
      const fks = await adminQuery(
        `select tc.table_name as child, ccu.table_name as parent
         from information_schema.table_constraints tc
         join information_schema.constraint_column_usage ccu
           on ccu.constraint_name = tc.constraint_name and ccu.constraint_schema = tc.constraint_schema
        where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = $1`,
        [schema],
      );
      const position = (t: string) => (TABLES_IN_ORDER as readonly string[]).indexOf(t);
      for (const { child, parent } of fks.rows as { child: string; parent: string }[])
        expect(position(parent), `${child} -> ${parent}`).toBeLessThanOrEqual(position(child));
    });

    it('copies every table, verified by the report totals, and the gateway carries on on PostgreSQL', async () => {
      // A store's life on SQLite: sales, a refund, a void, a settled batch, a stored card, gift card money.
      const before = await startGateway({ dataDir, database: { kind: 'sqlite' } });
      let token = '';
      let expected: Json;
      try {
        const sale = async (body: Json) => {
          const r = await before.post('/api/Transactions/Sale', keyedSale(body));
          expect(r.body.ResponseCode, JSON.stringify(r.body.Msg)).toBe(200);
          return r.body;
        };
        const first = await sale({ Amount: 40, TipAmount: 4 });
        await sale({ Amount: 12.5 });
        const voided = await sale({ Amount: 3 });
        expect(
          (
            await before.post('/api/Transactions/DoRefund', {
              ...merchant1,
              ServiceTransactionNumber: first.ServiceReferenceNumber,
              Amount: 10,
              UserTransactionNumber: utn('mv-ref'),
            })
          ).body.ResponseCode,
        ).toBe(200);
        expect(
          (
            await before.post('/api/Transactions/DoVoid', {
              ...merchant1,
              ServiceTransactionNumber: voided.ServiceReferenceNumber,
              UserTransactionNumber: utn('mv-void'),
            })
          ).body.ResponseCode,
        ).toBe(200);
        expect((await before.post('/api/Transactions/DoSettlement', merchant1)).body.ResponseCode).toBe(200);
        token = String((await sale({ Amount: 7, SaveToken: true, CardNumber: '5555555555554444' })).Token);
        await sale({ ...merchant2, Amount: 5 });
        const gift = await before.post('/api/GiftCard/Sale', {
          ...merchant1,
          CardNumber: '6035710000000018',
          TransactionType: 7,
          Amount: 30,
          UserTransactionNumber: utn('mv-gift'),
          ForceDuplication: true,
        });
        expect(gift.body.ResponseCode).toBe(200);
        expected = await reports(before);
      } finally {
        await before.close();
      }

      const target = await createSchema();
      schemas.push(target.schema);
      const moved = await admin('migrate-to-postgres', '--data', dataDir, '--db', target.url);
      expect(moved.stderr).toBe('');
      expect(moved.code).toBe(0);
      const result = JSON.parse(moved.stdout) as { verified: boolean; tables: Record<string, number> };
      expect(result.verified).toBe(true);
      expect(result.tables).toMatchObject({ merchants: 3, settlements: 1, payments: 7, vault_tokens: 1 });
      expect(moved.stdout).not.toContain('5555555555554444');

      const after = await startGateway({ dataDir, database: { kind: 'postgres', url: target.url } });
      try {
        expect(await reports(after)).toEqual(expected);
        // Carries on: the same keys open the vault, ids continue past SQLite's, the gift card's balance holds.
        const again = await after.post('/api/Transactions/SaleWithToken', {
          ...merchant1,
          Amount: 5,
          TransactionType: 2,
          Token: token,
          UserTransactionNumber: utn('mv-tok'),
          ForceDuplication: true,
        });
        expect(again.body).toMatchObject({ ResponseCode: 200, LastFour: '4444' });
        const balance = await after.post('/api/GiftCard/GetBalance', {
          ...merchant1,
          CardNumber: '6035710000000018',
        });
        expect(balance.body.Balance).toBe('70.00');
        expect((await after.post('/api/Transactions/DoSettlement', merchant1)).body.ResponseCode).toBe(200);
      } finally {
        await after.close();
      }

      // Never into a database that already holds data: nothing is merged or overwritten.
      const twice = await admin('migrate-to-postgres', '--data', dataDir, '--db', target.url);
      expect(twice.code).toBe(1);
      expect(twice.stderr).toMatch(/^gateway:admin: the PostgreSQL database is not empty/);
      // And the target must be PostgreSQL.
      const nowhere = await admin('migrate-to-postgres', '--data', dataDir, '--db', 'sqlite');
      expect(nowhere.code).toBe(1);
      expect(nowhere.stderr).toContain('names the PostgreSQL database');
    });
  },
);
