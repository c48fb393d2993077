import { afterEach, describe, expect, it } from 'vitest';
import { migrate, SchemaTooNewError } from '../../../gateway/storage/migrate';
import { migrations } from '../../../gateway/storage/migrations/index';
import pg from 'pg';
import {
  openPostgresStorage,
  postgresQueryable,
  postgresQueryBuilder,
} from '../../../gateway/storage/postgres-storage';
import {
  CheckViolation,
  UniqueViolation,
  type Queryable,
  type Storage,
} from '../../../gateway/storage/queryable';
import { isEmpty, sandboxMerchants, seedSandbox } from '../../../gateway/sandbox/seed';
import { adminQuery, createSchema, dropSchema } from '../../support/test-database';

/** The PostgreSQL counterpart of storage.test.ts: the same Storage contract, on a schema of its own. */
describe('PostgreSQL storage', () => {
  const open: Storage[] = [];
  const schemas: string[] = [];
  const fresh = async () => {
    const s = await createSchema();
    schemas.push(s.schema);
    return s;
  };
  const storageAt = async (url: string) => {
    const s = await openPostgresStorage({ url, poolSize: 4 });
    open.push(s);
    return s;
  };
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
    for (const s of schemas.splice(0)) await dropSchema(s);
  });

  const merchant = (tx: Queryable, mid: number) =>
    tx.run(
      tx.qb.insertInto('merchants').values({
        mid,
        name: `m${mid}`,
        time_zone: 'UTC',
        credit_processor: 'x',
        token_lookup_supported: 0,
        created_at: 'now',
      }),
    );

  it('migrates once when several processes open one empty database together', async () => {
    const { url, schema } = await fresh();
    // Three pools are three processes to the server: the advisory lock lets one migrate at a time.
    const three = await Promise.all([storageAt(url), storageAt(url), storageAt(url)]);
    const applied = await three[0]?.read.all(
      three[0].read.qb.selectFrom('schema_migrations').select('version').orderBy('version'),
    );
    expect(applied?.map((r) => r.version)).toEqual(migrations.map((m) => m.version));
    // Integers are 64-bit (bigint) columns, as SQLite's INTEGER is.
    const types = await adminQuery(
      `select data_type from information_schema.columns where table_schema = $1 and table_name = 'payments' and column_name in ('amount_cents', 'id')`,
      [schema],
    );
    expect(types.rows).toEqual([{ data_type: 'bigint' }, { data_type: 'bigint' }]);
  });

  it('migrates a database that already holds rows of an earlier version, and refuses a newer one', async () => {
    const { url, schema } = await fresh();
    const first = await storageAt(url);
    await first.close();
    open.splice(open.indexOf(first), 1);
    // Rebuild as a version-1 database with a merchant in it, as an older build left it.
    await adminQuery(`drop schema ${schema} cascade`);
    await adminQuery(`create schema ${schema}`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const q = postgresQueryable((c) => client.query(c), postgresQueryBuilder(), true);
      await migrate(q, async (sql) => void (await client.query(sql)), migrations.slice(0, 1));
      await client.query(
        "insert into merchants values (7, 'Old', 'UTC', 'sandbox', 1, '2026-01-01T00:00:00.000Z')",
      );
    } finally {
      await client.end();
    }
    const storage = await storageAt(url);
    const m = await storage.read.first(
      storage.read.qb.selectFrom('merchants').selectAll().where('mid', '=', 7),
    );
    expect(m).toMatchObject({ mid: 7, name: 'Old', token_lookup_supported: 1 });
    await adminQuery(
      `insert into ${schema}.schema_migrations (version, name, applied_at) values (999, 'future', 'x')`,
    );
    await expect(openPostgresStorage({ url })).rejects.toBeInstanceOf(SchemaTooNewError);
  });

  it('migration 5 makes vault tokens unique per merchant, keeping every row and the billings that use them', async () => {
    const { url, schema } = await fresh();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    /** Inserts a row, giving every other NOT NULL column without a default a placeholder of its type. */
    const insert = async (table: string, values: Record<string, string | number>) => {
      const cols = await client.query<{ column_name: string; data_type: string }>(
        `select column_name, data_type from information_schema.columns
          where table_schema = $1 and table_name = $2 and is_nullable = 'NO' and column_default is null
            and is_identity = 'NO'`,
        [schema, table],
      );
      const row: Record<string, string | number> = {};
      for (const c of cols.rows) row[c.column_name] = /int/.test(c.data_type) ? 0 : 'x';
      Object.assign(row, values);
      const names = Object.keys(row);
      await client.query(
        `insert into ${table} (${names.join(', ')}) values (${names.map((_, i) => `$${i + 1}`).join(', ')})`,
        names.map((n) => row[n]),
      );
    };
    try {
      const q = postgresQueryable((c) => client.query(c), postgresQueryBuilder(), true);
      await migrate(q, async (sql) => void (await client.query(sql)), migrations.slice(0, 4));
      await insert('merchants', { mid: 7, name: 'Seven' });
      await insert('merchants', { mid: 8, name: 'Eight' });
      await insert('vault_tokens', { id: 1, mid: 7, token: 'tok-a', identifier: 'id-1', last4: '1111' });
      await insert('vault_tokens', { id: 2, mid: 8, token: 'tok-b', identifier: 'id-2', last4: '4242' });
      await insert('recurring_billings', { id: 1, mid: 7, vault_token_id: 1, amount_cents: 500 });
      await expect(
        insert('vault_tokens', { id: 3, mid: 8, token: 'tok-a', identifier: 'id-3' }),
      ).rejects.toThrow(/unique/);
    } finally {
      await client.end();
    }
    const storage = await storageAt(url);
    const rows = await storage.read.all(
      storage.read.qb.selectFrom('vault_tokens').select(['id', 'mid', 'token', 'last4']).orderBy('id'),
    );
    expect(rows).toEqual([
      { id: 1, mid: 7, token: 'tok-a', last4: '1111' },
      { id: 2, mid: 8, token: 'tok-b', last4: '4242' },
    ]);
    await adminQuery(
      `insert into ${schema}.vault_tokens (id, mid, user_id, processor, token, identifier, fingerprint, pan_ciphertext, first6, last4, exp_mmyy, card_type, holder_name, street, zip, client_ref, description, active, created_at)
       values (3, 8, 0, 'x', 'tok-a', 'id-3', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 1, 'x')`,
    );
    await expect(
      adminQuery(
        `insert into ${schema}.vault_tokens (id, mid, user_id, processor, token, identifier, fingerprint, pan_ciphertext, first6, last4, exp_mmyy, card_type, holder_name, street, zip, client_ref, description, active, created_at)
         values (4, 8, 0, 'x', 'tok-a', 'id-4', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 1, 'x')`,
      ),
    ).rejects.toThrow(/vault_tokens_mid_token/);
    const billing = await storage.read.first(
      storage.read.qb.selectFrom('recurring_billings').select('vault_token_id').where('id', '=', 1),
    );
    expect(billing).toEqual({ vault_token_id: 1 });
  });

  it('rolls a failing unit of work back whole, and names the constraint that refused a row', async () => {
    const { url } = await fresh();
    const s = await storageAt(url);
    await expect(
      s.write(async (tx) => {
        await merchant(tx, 9);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await s.read.first(s.read.qb.selectFrom('merchants').select('mid').where('mid', '=', 9))).toBe(
      undefined,
    );
    await s.write((tx) => merchant(tx, 1));
    const dup = await s.write((tx) => merchant(tx, 1)).catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(UniqueViolation);
    // In the SQLite side's words (table.column), so the domain tells constraints apart the same way.
    expect((dup as UniqueViolation).constraint).toContain('merchants.mid');
  });

  it('keeps the refund ceiling as a CHECK constraint, reported as CheckViolation', async () => {
    const { url } = await fresh();
    const s = await storageAt(url);
    await s.write((tx) => merchant(tx, 5));
    const insert = (utn: string, refunded: number) =>
      s.write((tx) =>
        tx.run(
          tx.qb.insertInto('payments').values({
            srn: `s-${utn}`,
            mid: 5,
            cid: 1,
            user_id: 1,
            utn,
            operation: 'sale',
            transaction_type: 1,
            status: 'approved',
            preauth_state: null,
            requested_cents: 1000,
            amount_cents: 1000,
            tax_cents: 0,
            tip_cents: 0,
            surcharge_cents: 0,
            card_difference_cents: 0,
            cashback_cents: 0,
            currency: 'USD',
            card_type: 'Visa',
            first6: '411111',
            last4: '1111',
            fingerprint: 'f',
            entry_mode: 'KeyEntered',
            pos_code: 'Retail',
            auth_code: 'A',
            avs_result: 'U',
            cvn_result: 'P',
            response_code: 200,
            response_msg: '',
            parent_id: null,
            refunded_cents: refunded,
            pending_refund_cents: 0,
            batch_id: null,
            reversal_requested: 0,
            is_test: 0,
            invoice: null,
            order_ref: null,
            customer_id: null,
            token_id: null,
            payment_link_id: null,
            source: null,
            balance_cents: null,
            created_at: 'now',
            updated_at: 'now',
          }),
        ),
      );
    await insert('a', 1000);
    const refused = await insert('b', 1001).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CheckViolation);
    expect((refused as CheckViolation).constraint).toBe('payments_refund_ceiling');
  });

  it('answers counts, sums and 64-bit integers as numbers, and binds flags as 0/1', async () => {
    const { url } = await fresh();
    const s = await storageAt(url);
    await s.write(async (tx) => {
      for (const mid of [1, 2, 3]) await merchant(tx, mid);
      await tx.run(
        tx.qb
          .updateTable('merchants')
          // A boolean where a 0/1 flag is kept (the SQLite side binds it the same way).
          .set({ token_lookup_supported: true as unknown as 1 })
          .where('mid', '=', 3),
      );
    });
    const r = await s.read.first(
      s.read.qb
        .selectFrom('merchants')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('mid').as('total')]),
    );
    expect(r).toEqual({ n: 3, total: 6 });
    const flagged = await s.read.first(
      s.read.qb.selectFrom('merchants').select('token_lookup_supported').where('mid', '=', 3),
    );
    expect(flagged?.token_lookup_supported).toBe(1);
  });

  it('lock(key) serializes units of work across processes; a lock outside one is refused', async () => {
    const { url } = await fresh();
    const a = await storageAt(url);
    const b = await storageAt(url);
    await a.write((tx) => merchant(tx, 1));
    // Read-then-write increments from two "processes": without the lock most would be lost.
    const bump = (s: Storage) =>
      s.write(async (tx) => {
        await tx.lock('counter');
        const row = await tx.first(tx.qb.selectFrom('merchants').select('name').where('mid', '=', 1));
        const n = Number(String(row?.name).replace('m', '')) + 1;
        await tx.run(
          tx.qb
            .updateTable('merchants')
            .set({ name: `m${n}` })
            .where('mid', '=', 1),
        );
      });
    await Promise.all(Array.from({ length: 20 }, (_, i) => bump(i % 2 === 0 ? a : b)));
    const row = await a.read.first(a.read.qb.selectFrom('merchants').select('name').where('mid', '=', 1));
    expect(row?.name).toBe('m21');
    await expect(a.read.lock('x')).rejects.toThrow(/outside a unit of work/);
  });

  it('runs a unit of work again after a deadlock, whole', async () => {
    const { url } = await fresh();
    const a = await storageAt(url);
    const b = await storageAt(url);
    let runs = 0;
    // Opposite lock orders, made to overlap: PostgreSQL aborts one; the storage runs it again.
    const unit = (s: Storage, first: string, second: string) =>
      s.write(async (tx) => {
        runs += 1;
        await tx.lock(first);
        await new Promise((r) => setTimeout(r, 150));
        await tx.lock(second);
        return first;
      });
    const done = await Promise.all([unit(a, 'x', 'y'), unit(b, 'y', 'x')]);
    expect(done.sort()).toEqual(['x', 'y']);
    expect(runs).toBe(3);
  });

  it('seeds the sandbox once when several processes start on an empty database', async () => {
    const { url } = await fresh();
    const [a, b] = await Promise.all([storageAt(url), storageAt(url)]);
    if (!a || !b) throw new Error('no storage');
    const seeded = await Promise.all([
      seedSandbox(a, 'sandbox', new Date()),
      seedSandbox(b, 'sandbox', new Date()),
    ]);
    expect(seeded.filter(Boolean)).toHaveLength(1);
    expect(await isEmpty(a)).toBe(false);
    const users = await a.read.all(a.read.qb.selectFrom('users').select('user_name').orderBy('user_name'));
    // Each sandbox merchant's user once: the two demo stores' and the published demo merchant's.
    expect(users.map((u) => u.user_name)).toEqual(['nicolas', 'sandbox', 'sandbox2']);
    expect(users).toHaveLength(sandboxMerchants.length);
  });
});
