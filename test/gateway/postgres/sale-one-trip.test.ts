import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DeclineCode } from '../../../gateway/contract/decline-codes';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import type { Storage } from '../../../gateway/storage/queryable';
import { track2 } from '../../support/cards';
import {
  keyedSale,
  merchant1,
  startGateway,
  utn,
  type Json,
  type TestGateway,
} from '../../support/gateway-harness';
import { adminQuery, schemaOf, testDatabaseFor } from '../../support/test-database';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * On PostgreSQL a payment's two units of work are one statement each (payment-one-trip.ts), and the unit
 * of work SQLite runs (statement by statement) takes every case those leave. The two must write the same
 * thing: each request below runs once each way on one gateway, and the rows and answers must match field
 * for field (but the ones that are new per payment: id, reference, number, time, authorization code).
 */
describe('a payment in one round trip per unit writes what the unit of work writes (PostgreSQL)', () => {
  let gw: TestGateway;
  let schema: string;
  let oneTrip: Storage['batch'];

  beforeAll(async () => {
    gw = await startGateway({ backgroundTasks: false });
    schema = schemaOf(gw.dataDir) ?? '';
    if (!schema) throw new Error('this file runs in the postgres project only');
    oneTrip = gw.gateway.services.storage.batch;
    expect(oneTrip).toBeTypeOf('function');
    // The merchant's fraud checks are part of what a payment reads.
    await gw.post('/api/FraudAutoDenyOptions/BlacklistAccount', {
      ...merchant1,
      CardNumber: '5555555555554444',
    });
    await gw.post('/api/FraudAutoDenyOptions/EnableAccount', merchant1);
    await gw.post('/api/FraudAutoDenyOptions/EnableCvv', merchant1);
    // The batch's first payment opens it in a unit of work; the ones below join it in one statement.
    expect((await gw.post('/api/Transactions/Sale', keyedSale())).body.ResponseCode).toBe(
      ResponseCode.Success,
    );
  });
  afterAll(async () => {
    await gw.close();
  });

  /**
   * Runs `path` with `body` once in one round trip per unit, once as the unit of work (the storage without
   * batch); the second with `change` applied (the duplicate rule would refuse the same card and amount).
   */
  async function bothWays(path: string, body: Json, change: Json = {}) {
    const storage = gw.gateway.services.storage;
    const writes = vi.spyOn(storage, 'write');
    try {
      const fast = await gw.post(path, { ...body, UserTransactionNumber: utn('fast') });
      // Both units were one statement each: no unit of work ran.
      expect(writes).toHaveBeenCalledTimes(0);
      Object.assign(storage, { batch: undefined });
      const unit = await gw.post(path, { ...body, ...change, UserTransactionNumber: utn('unit') });
      expect(writes).toHaveBeenCalledTimes(2);
      return [fast.body, unit.body] as const;
    } finally {
      writes.mockRestore();
      Object.assign(storage, { batch: oneTrip });
    }
  }

  const rowOf = async (srn: unknown) => {
    const r = await adminQuery(`select * from ${schema}.payments where srn = $1`, [srn]);
    const row = r.rows[0] as Record<string, unknown> | undefined;
    if (!row) throw new Error(`no payment ${String(srn)}`);
    const n = await adminQuery(
      `select state, operation, payment_id = $2 as names_it from ${schema}.transaction_numbers where mid = $1 and utn = $3`,
      [row.mid, row.id, row.utn],
    );
    const { id: _i, srn: _s, utn: _u, created_at: _c, updated_at: _t, auth_code: auth, ...rest } = row;
    return { ...rest, hasAuthCode: auth !== '', number: n.rows[0] as unknown };
  };
  const batchOf = async (srn: unknown): Promise<string> => {
    const r = await adminQuery(`select batch_id from ${schema}.payments where srn = $1`, [srn]);
    return String((r.rows[0] as { batch_id: string | null } | undefined)?.batch_id);
  };
  const answerOf = (a: Json) => {
    const { ServiceReferenceNumber: _s, UserTransactionNumber: _u, AuthorizationNumber: auth, ...rest } = a;
    return { ...rest, hasAuthCode: auth !== '' };
  };

  const cases: [string, string, Json, Json][] = [
    [
      'an approval with tax and tip',
      '/api/Transactions/Sale',
      keyedSale({ Amount: 10, TaxAmount: 1.25, TipAmount: 2 }),
      { ResponseCode: ResponseCode.Success },
    ],
    [
      'an approval under the duplicate rule',
      '/api/Transactions/Sale',
      keyedSale({ ForceDuplication: false, Amount: 3.21, CardNumber: '6011111111111117' }),
      { ResponseCode: ResponseCode.Success },
    ],
    [
      'a decline',
      '/api/Transactions/Sale',
      keyedSale({ CardNumber: '4000000000000002' }),
      { ResponseCode: ResponseCode.Declined, DeclineCode: DeclineCode.Declined },
    ],
    [
      'a partial approval (card present)',
      '/api/Transactions/Sale',
      keyedSale({
        CardNumber: undefined,
        ExpDate: undefined,
        CVN: undefined,
        Track2: track2('4000000000000341'),
        Amount: 30,
        TaxAmount: 1,
      }),
      { ResponseCode: ResponseCode.PartialApproval },
    ],
    [
      'a preauthorization',
      '/api/Transactions/PreAuthorization',
      keyedSale({ TransactionType: 3, Amount: 40 }),
      { ResponseCode: ResponseCode.Success },
    ],
    [
      'a blacklisted card (never sent to the processor)',
      '/api/Transactions/Sale',
      keyedSale({ CardNumber: '5555555555554444' }),
      { ResponseCode: ResponseCode.Declined, DeclineCode: DeclineCode.FraudDeniedAccount },
    ],
    [
      'a CVN mismatch under the Cvv check',
      '/api/Transactions/Sale',
      keyedSale({ CardNumber: '4000000000000127', CVN: '999' }),
      { ResponseCode: ResponseCode.Declined, DeclineCode: DeclineCode.FraudDeniedCvn },
    ],
  ];
  for (const [name, path, body, code] of cases) {
    it(name, async () => {
      // Under the duplicate rule the second must differ in amount: compared with the amounts aside.
      const change = body.ForceDuplication === false ? { Amount: Number(body.Amount) + 0.01 } : {};
      const [fast, unit] = await bothWays(path, body, change);
      expect(fast).toMatchObject(code);
      const aside = (x: Record<string, unknown>) =>
        body.ForceDuplication === false ? { ...x, Amount: 0, amount_cents: 0, requested_cents: 0 } : x;
      expect(aside(answerOf(fast))).toEqual(aside(answerOf(unit)));
      expect(aside(await rowOf(fast.ServiceReferenceNumber))).toEqual(
        aside(await rowOf(unit.ServiceReferenceNumber)),
      );
    });
  }

  it('a sale waiting for a settlement in progress joins the next batch, not the one settled', async () => {
    const first = await gw.post('/api/Transactions/Sale', keyedSale());
    expect(first.body.ResponseCode).toBe(ResponseCode.Success);
    const before = await batchOf(first.body.ServiceReferenceNumber);
    const db = await testDatabaseFor(gw.dataDir);
    if (db.kind !== 'postgres') throw new Error('postgres only');
    // A settlement in progress, as DoSettlement holds it: the open batch's row FOR UPDATE.
    const settling = new pg.Client({ connectionString: db.url });
    await settling.connect();
    try {
      await settling.query('begin');
      await settling.query(`select id from batches where mid = 1001 and status = 'open' for update`);
      const pid = Number(
        (await settling.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid,
      );
      const sale = gw.post('/api/Transactions/Sale', keyedSale());
      let waited = false;
      for (let i = 0; i < 200 && !waited; i += 1) {
        const r = await settling.query(
          'select 1 from pg_stat_activity where $1 = any(pg_blocking_pids(pid))',
          [pid],
        );
        waited = (r.rowCount ?? 0) > 0;
        if (!waited) await sleep(25);
      }
      expect(waited).toBe(true);
      await settling.query(`update batches set status = 'settled', settled_at = 'now' where id = $1`, [
        before,
      ]);
      await settling.query('commit');
      const answered = await sale;
      expect(answered.body.ResponseCode).toBe(ResponseCode.Success);
      const joined = await batchOf(answered.body.ServiceReferenceNumber);
      expect(joined).not.toBe(before);
      const batch = await adminQuery(`select status from ${schema}.batches where id = $1`, [joined]);
      expect(batch.rows[0]).toEqual({ status: 'open' });
    } finally {
      await settling.end();
    }
  });
});
