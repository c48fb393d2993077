import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { keyedSale, startGateway, type TestGateway } from '../../support/gateway-harness';
import { locksByKey, roundTrips, tracePg, type Trace } from '../../support/pg-trace';
import { adminQuery, schemaOf } from '../../support/test-database';

/**
 * What a sale costs on a database across a network is its round trips: two, one per unit of work (the
 * pending record before the processor is asked, the outcome after), each ONE statement: the call of a
 * routine that takes the unit's locks and runs its statement, its own transaction in autocommit
 * (gateway/storage/postgres-unit-routine.ts). No lock shared by every payment of a merchant, and no
 * connection opened while a request waits. Counted by instrumenting node-postgres in this process
 * (test/support/pg-trace.ts).
 */
describe('a sale on PostgreSQL: round trips and locks', () => {
  let gw: TestGateway;
  let trace: Trace;

  beforeAll(async () => {
    gw = await startGateway({ backgroundTasks: false });
    trace = tracePg();
    // The credential is verified once (scrypt, the login throttle): not what a sale costs.
    const first = await gw.post('/api/Transactions/Sale', keyedSale());
    expect(first.body.ResponseCode).toBe(ResponseCode.Success);
  });
  afterAll(async () => {
    trace.stop();
    await gw.close();
  });
  afterEach(() => trace.reset());

  it('an approved sale with ForceDuplication: two statements, two round trips, the number locked in each unit', async () => {
    trace.reset();
    const r = await gw.post('/api/Transactions/Sale', keyedSale());
    expect(r.body.ResponseCode).toBe(ResponseCode.Success);
    expect(roundTrips(trace.statements)).toBe(2);
    expect(locksByKey(trace.statements)).toEqual({ utn: 2 });
    // No BEGIN and no COMMIT on the wire: each unit is one routine call, its own transaction.
    expect(trace.statements.map((s) => s.kind)).toEqual(['unit', 'unit']);
    expect(new Set(trace.statements.map((s) => s.routine)).size).toBe(2);
    expect(trace.connections).toHaveLength(0);
  });

  it('with the duplicate rule applied (no ForceDuplication): still two round trips, the card locked too', async () => {
    trace.reset();
    const r = await gw.post('/api/Transactions/Sale', keyedSale({ ForceDuplication: false, Amount: 17.31 }));
    expect(r.body.ResponseCode).toBe(ResponseCode.Success);
    expect(roundTrips(trace.statements)).toBe(2);
    expect(locksByKey(trace.statements)).toEqual({ utn: 2, card: 1 });
  });

  it('the open batch is joined holding its row KEY SHARE, not a lock every payment of the merchant takes', async () => {
    trace.reset();
    const r = await gw.post('/api/Transactions/Sale', keyedSale());
    expect(r.body.ResponseCode).toBe(ResponseCode.Success);
    const routines = trace.statements.map((s) => s.routine ?? '');
    expect(routines).toHaveLength(2);
    // What each routine runs is in the database: the second joins the open batch holding its row.
    const sources = await adminQuery(
      `select proname, prosrc from pg_proc where proname = any($1) and pronamespace = $2::regnamespace`,
      [routines, schemaOf(gw.dataDir)],
    );
    const source = (name: string) =>
      (sources.rows as { proname: string; prosrc: string }[]).find((p) => p.proname === name)?.prosrc ?? '';
    expect(source(routines[0] ?? '')).not.toMatch(/from "?batches"?/i);
    expect(source(routines[1] ?? '')).toMatch(
      /from batches where mid = \$\d+ and status = 'open' for key share/i,
    );
    expect(locksByKey(trace.statements)).toEqual({ utn: 2 });
  });

  it('a refused duplicate still answers with its rule, and writes nothing', async () => {
    const body = keyedSale({ ForceDuplication: false, Amount: 23.45 });
    expect((await gw.post('/api/Transactions/Sale', body)).body.ResponseCode).toBe(ResponseCode.Success);
    const again = await gw.post('/api/Transactions/Sale', {
      ...body,
      UserTransactionNumber: `${String(body.UserTransactionNumber)}-2`,
    });
    expect(again.body.ResponseCode).toBe(ResponseCode.DuplicatePayment);
    const replay = await gw.post('/api/Transactions/Sale', body);
    expect(replay.body.ResponseCode).toBe(ResponseCode.DuplicateTransactionNumber);
  });
});
