import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { merchant1, startGateway, type Json, type TestGateway } from '../../support/gateway-harness';
import { testDatabaseFor } from '../../support/test-database';
import { createLink, payCheckout, sandboxCard } from '../commerce/support';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The hosted checkout charges what the link says when the checkout takes the link's lock, not what it said
 * a moment before: a merchant who lowers (or a rogue edit that raises) a Fixed link's amount while a payer
 * is checking out must not have the payer charged the old amount. The test plays the edit: it holds the
 * link's lock on its own connection, lets the checkout read the link and queue for the lock, changes the
 * amount and commits.
 */
describe('the checkout plan is read under the link lock (PostgreSQL)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-plan-'));
  let gw: TestGateway;
  let editor: pg.Client;
  beforeAll(async () => {
    gw = await startGateway({ dataDir, backgroundTasks: false });
    const db = await testDatabaseFor(dataDir);
    if (db.kind !== 'postgres') throw new Error('this file runs in the postgres project only');
    editor = new pg.Client({ connectionString: db.url });
    await editor.connect();
  });
  afterAll(async () => {
    await editor.end();
    await gw.close();
  });

  it('charges the amount the link has once the checkout holds it', async () => {
    const link = await createLink(gw, { Amount: '40.00' });
    const row = await editor.query<{ id: number }>('select id from payment_links where link_id = $1', [
      link.Id,
    ]);
    const id = Number(row.rows[0]?.id);
    await editor.query('begin');
    await editor.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`link:${id}`]);
    const pid = Number((await editor.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid);
    const paying = payCheckout(gw, link, sandboxCard);
    let waiting = false;
    for (let i = 0; i < 200 && !waiting; i += 1) {
      const r = await editor.query('select 1 from pg_stat_activity where $1 = any(pg_blocking_pids(pid))', [
        pid,
      ]);
      waiting = (r.rowCount ?? 0) > 0;
      if (!waiting) await sleep(25);
    }
    expect(waiting).toBe(true);
    await editor.query("update payment_links set amount_cents = 1500, updated_at = 'x' where id = $1", [id]);
    await editor.query('commit');
    const paid = await paying;
    expect(paid.body).toMatchObject({ ResponseCode: ResponseCode.Success, Approved: true, Amount: '15.00' });
    const got = await gw.post('/api/PaymentLinks/GetPaymentLink', {
      ...merchant1,
      PaymentLink: { Id: link.Id },
    });
    expect((got.body.PaymentLink as Json).Status).toBe('Paid');
  });
});
