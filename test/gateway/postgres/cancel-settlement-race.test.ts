import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { keyedSale, merchant1, startGateway, utn, type TestGateway } from '../../support/gateway-harness';
import { testDatabaseFor } from '../../support/test-database';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A void or a reversal and DoSettlement sent at the same moment, on PostgreSQL where units of work really
 * run side by side. The test makes the worst interleaving happen every time: it holds the payment's row
 * (SELECT … FOR UPDATE on its own connection), so the cancel, which has already decided that the batch is
 * open, waits at its UPDATE while DoSettlement runs. Whatever the order, a settled batch's total must be
 * its approved, uncancelled payments, and a cancel that answers success must not be in a settled total.
 */
describe('a void or reversal racing DoSettlement (PostgreSQL)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-race-'));
  let gw: TestGateway;
  let holder: pg.Client;

  beforeAll(async () => {
    gw = await startGateway({ dataDir });
    const db = await testDatabaseFor(dataDir);
    if (db.kind !== 'postgres') throw new Error('this file runs in the postgres project only');
    holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
  });
  afterAll(async () => {
    await holder.end();
    await gw.close();
  });

  /** Holds the payment's row until `release`; resolves once a gateway connection waits on it. */
  async function holdRow(srn: string) {
    await holder.query('begin');
    await holder.query('select id from payments where srn = $1 for update', [srn]);
    const pid = Number((await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid);
    return {
      async waitedOn(): Promise<void> {
        for (let i = 0; i < 200; i += 1) {
          const r = await holder.query(
            'select 1 from pg_stat_activity where $1 = any(pg_blocking_pids(pid))',
            [pid],
          );
          if (r.rowCount) return;
          await sleep(25);
        }
        throw new Error('the cancel never reached the held row');
      },
      release: () => holder.query('commit'),
    };
  }

  const sale = async (amount: number) => {
    const r = await gw.post('/api/Transactions/Sale', keyedSale({ Amount: amount }));
    expect(r.body.ResponseCode).toBe(ResponseCode.Success);
    return r.body;
  };

  for (const kind of ['DoVoid', 'DoReversal'] as const) {
    it(`${kind} that decided the batch was open is never in a settled total`, async () => {
      await gw.post('/api/Transactions/DoSettlement', merchant1);
      await sale(5);
      const target = await sale(7);
      const held = await holdRow(String(target.ServiceReferenceNumber));
      const cancel = gw.post(
        `/api/Transactions/${kind}`,
        kind === 'DoVoid'
          ? {
              ...merchant1,
              ServiceTransactionNumber: target.ServiceReferenceNumber,
              UserTransactionNumber: utn('v'),
            }
          : { ...merchant1, UserTransactionNumber: target.UserTransactionNumber },
      );
      await held.waitedOn();
      const settling = gw.post('/api/Transactions/DoSettlement', merchant1);
      // Long enough for a settlement that does not wait for the cancel to finish first.
      await sleep(400);
      await held.release();
      const [c, s] = await Promise.all([cancel, settling]);
      expect(c.body.ResponseCode).toBe(ResponseCode.Success);
      expect(s.body.ResponseCode).toBe(ResponseCode.Success);
      expect(s.body.AmountSettled).toBe(5);
    });
  }
});
