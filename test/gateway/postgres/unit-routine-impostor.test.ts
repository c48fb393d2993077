import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { prepare } from '../../../gateway/storage/prepared';
import { openPostgresStorage } from '../../../gateway/storage/postgres-storage';
import type { Storage } from '../../../gateway/storage/queryable';
import { countByKind, tracePg, withoutRetried } from '../../support/pg-trace';
import { adminQuery, createSchema, dropSchema } from '../../support/test-database';

/**
 * Where another database role can create objects in the gateway's schema (PostgreSQL 14 and older give
 * PUBLIC CREATE on `public`; a schema shared with another application), that role must not be able to
 * stand in for a unit routine (postgres-unit-routine.ts) and see every sale it carries. Each test plants
 * an impostor as a second role — made here, dropped after — and checks that the gateway never calls it:
 * the impostor records every call's arguments in a table of its own, which must stay empty, and the
 * batch's answer must be the database's, not the impostor's made-up one.
 */
describe('unit routines an intruder planted are refused or ignored (PostgreSQL)', () => {
  const open: Storage[] = [];
  const schemas: string[] = [];
  const clients: pg.Client[] = [];
  const roles: string[] = [];

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.end();
    for (const s of open.splice(0)) await s.close();
    for (const s of schemas.splice(0)) await dropSchema(s);
    for (const role of roles.splice(0)) {
      await adminQuery(`drop owned by ${role}`);
      await adminQuery(`drop role ${role}`);
    }
  });

  const storageAt = async (url: string) => {
    // A routine the gateway refuses is reported on stderr; the tests collect what it said.
    const warnings: string[] = [];
    const s = await openPostgresStorage({ url, poolSize: 3, lanes: 1, warn: (m) => warnings.push(m) });
    open.push(s);
    const batch = s.batch;
    if (!batch) throw new Error('PostgreSQL storage has batch');
    return { batch, warnings };
  };
  const fresh = async () => {
    const s = await createSchema();
    schemas.push(s.schema);
    return s;
  };

  const addMerchant = prepare<{ mid: number; name: string }, { mid: number }>((qb, p) =>
    qb
      .insertInto('merchants')
      .values({
        mid: p('mid'),
        name: p('name'),
        time_zone: 'UTC',
        credit_processor: 'x',
        token_lookup_supported: 0,
        created_at: 'now',
      })
      .returning('mid'),
  );

  /** The routine's name and argument types, as the gateway installs it for `addMerchant` (a scratch schema). */
  async function routineOfAddMerchant(): Promise<{ name: string; args: string[] }> {
    const scratch = await fresh();
    const { batch } = await storageAt(scratch.url);
    await batch([], [addMerchant({ mid: 1, name: 'scratch' })]);
    const r = await adminQuery(
      `select proname as name, array(select format_type(t, null) from unnest(proargtypes) t) as args
         from pg_proc where pronamespace = $1::regnamespace and proname like 'tp_unit_%'`,
      [scratch.schema],
    );
    expect(r.rows).toHaveLength(1);
    return r.rows[0] as { name: string; args: string[] };
  }

  /**
   * A second role with CREATE on `schema` (what PUBLIC has on `public` before PostgreSQL 15), and a
   * connection acting as it. Its loot table is writable by anyone, so the gateway's role would fill it.
   */
  async function intruderIn(schema: string, url: string) {
    const role = `tp_intruder_${randomBytes(4).toString('hex')}`;
    await adminQuery(`create role ${role} nologin`);
    roles.push(role);
    await adminQuery(`grant usage, create on schema ${schema} to ${role}`);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    clients.push(c);
    const as = async (sql: string) => {
      await c.query(`set role ${role}`);
      try {
        await c.query(sql);
      } finally {
        await c.query('reset role');
      }
    };
    await as(`create table ${schema}.tp_loot (args text not null)`);
    await as(`grant insert, select on ${schema}.tp_loot to public`);
    return {
      role,
      /** A function `name(types…)` in the schema that records its arguments and answers a fake merchant. */
      plant: (name: string, types: string[]) => as(impostorSource(schema, name, types)),
    };
  }

  function impostorSource(schema: string, name: string, types: string[]): string {
    const args = types.map((_, i) => `coalesce($${i + 1}::text, '')`).join(`, '|', `);
    return (
      `create function ${schema}.${name}(${types.join(', ')}) returns json language plpgsql as $x$ ` +
      `begin insert into ${schema}.tp_loot values (concat(${args})); ` +
      `return json_build_array(json_build_array(json_build_object('mid', 4242))); end $x$`
    );
  }

  const loot = async (schema: string) =>
    (await adminQuery(`select count(*)::int as n from ${schema}.tp_loot`)).rows[0] as { n: number };
  const merchantsIn = async (schema: string) =>
    (await adminQuery(`select mid::int as mid from ${schema}.merchants order by mid`)).rows as {
      mid: number;
    }[];

  it('an impostor with the routine’s own signature, planted before install, is never called', async () => {
    const routine = await routineOfAddMerchant();
    const { schema, url } = await fresh();
    // The schema must exist with its tables before the intruder's function can be planted in it.
    const first = await storageAt(url);
    await first.batch([], []);
    const intruder = await intruderIn(schema, url);
    await intruder.plant(routine.name, routine.args);

    const { batch, warnings } = await storageAt(url);
    // The first batch of the shape finds the impostor and refuses it; the next shows what every one costs.
    await batch([], [addMerchant({ mid: 1, name: 'first' })]);
    const trace = tracePg();
    try {
      const [rows] = await batch([{ key: 'm:2' }], [addMerchant({ mid: 2, name: 'real' })] as const);
      expect(rows).toEqual([{ mid: 2 }]);
      // Not the routine: the batch ran as the pipelined transaction.
      expect(countByKind(withoutRetried(trace.statements))).toEqual({
        begin: 1,
        lock: 1,
        insert: 1,
        commit: 1,
      });
    } finally {
      trace.stop();
    }
    expect(await loot(schema)).toEqual({ n: 0 });
    expect(await merchantsIn(schema)).toEqual([{ mid: 1 }, { mid: 2 }]);
    // Said once, at start: another role can create objects here; and once for the refused routine.
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(new RegExp(`${intruder.role} can create objects`));
    expect(warnings[1]).toMatch(new RegExp(`${routine.name} is not the gateway's`));
  });

  it('an all-text overload planted before install is ignored: the gateway installs and calls its own', async () => {
    const routine = await routineOfAddMerchant();
    const { schema, url } = await fresh();
    const first = await storageAt(url);
    await first.batch([], []);
    const intruder = await intruderIn(schema, url);
    await intruder.plant(
      routine.name,
      routine.args.map(() => 'text'),
    );

    const { batch } = await storageAt(url);
    await batch([], [addMerchant({ mid: 3, name: 'installs' })]);
    const trace = tracePg();
    try {
      const [rows] = await batch([{ key: 'm:4' }], [addMerchant({ mid: 4, name: 'real' })] as const);
      expect(rows).toEqual([{ mid: 4 }]);
      expect(countByKind(withoutRetried(trace.statements))).toEqual({ unit: 1 });
    } finally {
      trace.stop();
    }
    expect(await loot(schema)).toEqual({ n: 0 });
    expect(await merchantsIn(schema)).toEqual([{ mid: 3 }, { mid: 4 }]);
  });

  it('an all-text overload planted after install is ignored, by the running process and by a new one', async () => {
    const { schema, url } = await fresh();
    const running = await storageAt(url);
    await running.batch([], [addMerchant({ mid: 5, name: 'installs' })]);
    const installed = await adminQuery(
      `select proname as name, pronargs::int as n from pg_proc
        where pronamespace = $1::regnamespace and proname like 'tp_unit_%'`,
      [schema],
    );
    const { name, n } = installed.rows[0] as { name: string; n: number };
    const intruder = await intruderIn(schema, url);
    await intruder.plant(
      name,
      Array.from({ length: n }, () => 'text'),
    );

    const [again] = await running.batch([], [addMerchant({ mid: 6, name: 'after' })] as const);
    expect(again).toEqual([{ mid: 6 }]);
    // A process started after the plant (a restart, another worker) prepares the call afresh.
    const restarted = await storageAt(url);
    for (const mid of [7, 8]) {
      const [rows] = await restarted.batch([], [addMerchant({ mid, name: 'new' })] as const);
      expect(rows).toEqual([{ mid }]);
    }
    expect(await loot(schema)).toEqual({ n: 0 });
    expect(await merchantsIn(schema)).toEqual([{ mid: 5 }, { mid: 6 }, { mid: 7 }, { mid: 8 }]);
  });

  it('a routine owned by the gateway’s role but with another body is refused too', async () => {
    const routine = await routineOfAddMerchant();
    const { schema, url } = await fresh();
    const first = await storageAt(url);
    await first.batch([], []);
    await adminQuery(`create table ${schema}.tp_loot (args text not null)`);
    // Created by the gateway's own role (the admin connection is the same role): only the body differs.
    await adminQuery(impostorSource(schema, routine.name, routine.args));

    const { batch, warnings } = await storageAt(url);
    const [rows] = await batch([], [addMerchant({ mid: 9, name: 'real' })] as const);
    expect(rows).toEqual([{ mid: 9 }]);
    expect(await loot(schema)).toEqual({ n: 0 });
    expect(warnings).toHaveLength(1);
  });

  it('the routine runs with its own search_path: a table planted earlier on the caller’s path is not used', async () => {
    const { schema, url } = await fresh();
    const { batch } = await storageAt(url);
    await batch([], [addMerchant({ mid: 10, name: 'installs' })]);
    const fn = await adminQuery(
      `select p.oid::regprocedure::text as signature, p.proconfig as config
         from pg_proc p where pronamespace = $1::regnamespace and proname like 'tp_unit_%'`,
      [schema],
    );
    const { signature, config } = fn.rows[0] as { signature: string; config: string[] };
    expect(config).toEqual([`search_path=pg_catalog, ${schema}, pg_temp`]);
    // A caller whose path starts with another schema holding its own `merchants` table.
    const decoy = await fresh();
    await adminQuery(`create table ${decoy.schema}.merchants (like ${schema}.merchants including all)`);
    const caller = new pg.Client({ connectionString: url });
    await caller.connect();
    clients.push(caller);
    await caller.query(`set search_path = ${decoy.schema}, ${schema}`);
    const types =
      /\((.*)\)$/
        .exec(signature)?.[1]
        ?.split(',')
        .map((t) => t.trim()) ?? [];
    expect(types.length).toBeGreaterThan(2);
    const casts = types.map((t, i) => `$${i + 1}::${t}`).join(', ');
    // The locks, then addMerchant's parameters in the order Kysely compiled them.
    const values = [[], [], 11, 'direct', 'UTC', 'x', 0, 'now'];
    expect(types).toHaveLength(values.length);
    await caller.query(`select ${schema}.${signature.split('(')[0]?.split('.').pop()}(${casts})`, values);
    expect(await merchantsIn(schema)).toEqual([{ mid: 10 }, { mid: 11 }]);
    expect((await adminQuery(`select count(*)::int as n from ${decoy.schema}.merchants`)).rows[0]).toEqual({
      n: 0,
    });
  });
});
