import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransactionNumbersResponse, TransactionsReportResponse } from '../../gateway/contract/report';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { success as outcomeOf } from '../../gateway/domain/outcome';
import { reportRecord } from '../../gateway/domain/report-records';
import type { PaymentRow } from '../../gateway/domain/sale-response';
import { merchant1, merchant2, startGateway, type Json, type TestGateway } from '../support/gateway-harness';
import { growHistory } from '../support/history-sample';
import { explainAll, readsDuring } from '../support/query-plans';
import { linksQuery } from './commerce/support';
import { bearer } from './tenders/helpers';

/**
 * Years of data, small: a few days grown from a real sample, more payments than one slice of a streamed
 * report (500), so every report here is read in several slices.
 */
describe('a merchant with history', () => {
  let gw: TestGateway;

  const raw = async (path: string, body: Json) => {
    const res = await fetch(gw.baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };

  /**
   * The answer as the gateway wrote it before streaming: the whole object through Fastify's serializer
   * for the operation's response schema.
   */
  const wholeAnswer = async (schema: object, answer: Json): Promise<string> => {
    const app = Fastify();
    app.post('/', { schema: { response: { 200: schema } } }, () => answer);
    const r = await app.inject({ method: 'POST', url: '/' });
    await app.close();
    return r.payload;
  };

  /** The report's rows as the one query of the in-memory report read them (its text before streaming). */
  const readWhole = async (filter: { userId?: number; cid?: number }) => {
    const q = gw.gateway.storage.read;
    let query = q.qb
      .selectFrom('payments as p')
      .leftJoin('batches as b', 'b.id', 'p.batch_id')
      .leftJoin('payments as parent', 'parent.id', 'p.parent_id')
      .selectAll('p')
      .select(['b.batch_number as batch_number', 'parent.srn as parent_srn'])
      .where('p.mid', '=', merchant1.mid)
      .where('p.status', '!=', 'pending');
    if (filter.userId !== undefined) query = query.where('p.user_id', '=', filter.userId);
    if (filter.cid !== undefined) query = query.where('p.cid', '=', filter.cid);
    const rows = await q.all(query.orderBy('p.id'));
    return rows.map((r) =>
      reportRecord(r as PaymentRow & { batch_number: string | null; parent_srn: string | null }),
    );
  };

  const success = outcomeOf();

  beforeAll(async () => {
    gw = await startGateway({ backgroundTasks: false });
    await growHistory(gw, { days: 30, perDay: 60, openRows: 100 });
  }, 120_000);
  afterAll(async () => {
    await gw.close();
  });

  it('streams GetReportByMerchant byte for byte as the whole answer was written', async () => {
    const whole = await readWhole({});
    expect(whole.length).toBeGreaterThan(1_500);
    const streamed = await raw('/api/Report/GetReportByMerchant', merchant1);
    expect(streamed.status).toBe(200);
    expect(streamed.type).toBe('application/json; charset=utf-8');
    expect(streamed.text).toBe(
      await wholeAnswer(TransactionsReportResponse, { ...success, Transactions: whole }),
    );
  });

  it('streams GetReportByUserAndCashier: the principal’s user and cashier only, byte for byte', async () => {
    const q = gw.gateway.storage.read;
    const user = await q.first(
      q.qb.selectFrom('users').select('id').where('user_name', '=', merchant1.UserName),
    );
    const whole = await readWhole({ userId: user?.id ?? -1, cid: merchant1.cid });
    const all = await readWhole({});
    expect(whole.length).toBeGreaterThan(500);
    expect(whole.length).toBeLessThan(all.length);
    const streamed = await raw('/api/Report/GetReportByUserAndCashier', merchant1);
    expect(streamed.text).toBe(
      await wholeAnswer(TransactionsReportResponse, { ...success, Transactions: whole }),
    );
  });

  it('streams GetTransactionNumbers (and its misspelled path) in their order, byte for byte', async () => {
    const q = gw.gateway.storage.read;
    const numbers = await q.all(
      q.qb
        .selectFrom('transaction_numbers')
        .select('utn')
        .where('mid', '=', merchant1.mid)
        .where('state', '=', 'used')
        .orderBy('created_at')
        .orderBy('utn'),
    );
    expect(numbers.length).toBeGreaterThan(1_500);
    const expected = await wholeAnswer(TransactionNumbersResponse, {
      ...success,
      UserReferenceNumbers: numbers.map((n) => n.utn),
    });
    expect((await raw('/api/Report/GetTransactionNumbers', merchant1)).text).toBe(expected);
    expect((await raw('/api/Report/GeTransactionNumbers', merchant1)).text).toBe(expected);
  });

  it('answers other requests while a report streams (the stream gives the event loop back)', async () => {
    const res = await fetch(`${gw.baseUrl}/api/Report/GetReportByMerchant`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(merchant1),
    });
    const reader = res.body?.getReader();
    if (!reader) throw new Error('no body');
    let received = 0;
    let receivedWhenAnswered = -1;
    const first = await reader.read();
    received += first.value?.byteLength ?? 0;
    const lookup = gw.post('/api/Report/GetUnsettledTransactions', merchant1).then((r) => {
      receivedWhenAnswered = received;
      return r;
    });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
    }
    expect((await lookup).body.ResponseCode).toBe(ResponseCode.Success);
    expect(received).toBeGreaterThan(1_000_000);
    // Answered while the report was still on its way, not after its last byte.
    expect(receivedWhenAnswered).toBeGreaterThanOrEqual(0);
    expect(receivedWhenAnswered).toBeLessThan(received);
  });

  it('lists every payment link and billing in id order, once each (the first item written at once)', async () => {
    const q = gw.gateway.storage.read;
    const links = await q.all(
      q.qb
        .selectFrom('payment_links')
        .select('link_id')
        .where('mid', '=', merchant1.mid)
        .where('deleted_on', 'is', null)
        .orderBy('id'),
    );
    const billings = await q.all(
      q.qb.selectFrom('recurring_billings').select('id').where('mid', '=', merchant1.mid).orderBy('id'),
    );
    expect(links.length).toBeGreaterThan(10);
    expect(billings.length).toBeGreaterThan(5);
    const listed = await gw.get(linksQuery(merchant1));
    expect((listed.body.PaymentLinks as Json[]).map((l) => l.Id)).toEqual(links.map((l) => l.link_id));
    const all = await gw.post('/api/RecurringBilling/GetAll', { ...merchant1, IncludeInactive: true });
    expect((all.body.Billings as Json[]).map((b) => b.Id)).toEqual(billings.map((b) => Number(b.id)));
  });

  it('streams an empty report as the whole answer was written', async () => {
    const other = await raw('/api/Report/GetReportByMerchant', merchant2);
    expect(other.text).toBe(await wholeAnswer(TransactionsReportResponse, { ...success, Transactions: [] }));
  });

  it('narrows the reports by StartDate/EndDate and by BatchNumber, which old clients never send', async () => {
    const all = (await readWhole({})) as Json[];
    const day = all.filter((t) => typeof t.BatchNumber === 'string')[700];
    const batch = String(day?.BatchNumber);
    const inBatch = all.filter((t) => t.BatchNumber === batch);
    expect(inBatch.length).toBeGreaterThan(40);
    const byBatch = JSON.parse(
      (await raw('/api/Report/GetReportByMerchant', { ...merchant1, BatchNumber: batch })).text,
    ) as Json;
    expect(byBatch.Transactions).toEqual(inBatch);

    // Days of it: more than one slice of the stream (500).
    const madeOn = all.map((t) => String(t.MadeOn)).sort();
    const [start, end] = [madeOn[100] ?? '', madeOn[1300] ?? ''];
    const inWindow = all
      .filter((t) => String(t.MadeOn) >= start && String(t.MadeOn) <= end)
      .sort((a, b) => String(a.MadeOn).localeCompare(String(b.MadeOn)) || Number(a.ID) - Number(b.ID));
    expect(inWindow.length).toBeGreaterThan(1_000);
    const byWindow = JSON.parse(
      (await raw('/api/Report/GetReportByMerchant', { ...merchant1, StartDate: start, EndDate: end })).text,
    ) as Json;
    expect(byWindow.Transactions).toEqual(inWindow);

    const numbers = JSON.parse(
      (await raw('/api/Report/GetTransactionNumbers', { ...merchant1, StartDate: start, EndDate: end })).text,
    ) as Json;
    expect(numbers.UserReferenceNumbers).toHaveLength(inWindow.length);
  });

  it('declares the optional filters beside each report in the OpenAPI document', async () => {
    const doc = (await gw.get('/openapi.json')).body as { paths: Record<string, { post?: unknown }> };
    const operation = (path: string) => JSON.stringify(doc.paths[path]?.post ?? null);
    for (const path of ['/api/Report/GetReportByMerchant', '/api/Report/GetReportByUserAndCashier']) {
      expect(operation(path)).toMatch(/"StartDate":\{[^}]*"format":"date-time"/);
      expect(operation(path)).toMatch(/"EndDate":\{[^}]*"format":"date-time"/);
      expect(operation(path)).toContain('"BatchNumber":{');
    }
    expect(operation('/api/Report/GetTransactionNumbers')).toContain('"StartDate":{');
    // Optional: an old client's envelope alone is still a whole request.
    expect(operation('/api/Report/GetReportByMerchant')).not.toMatch(/"required":\[[^\]]*"StartDate"/);
  });

  it('refuses a window that ends before it starts, or a date that is not one, in the interface shape', async () => {
    const backwards = JSON.parse(
      (
        await raw('/api/Report/GetReportByMerchant', {
          ...merchant1,
          StartDate: '2030-01-02T00:00:00Z',
          EndDate: '2030-01-01T00:00:00Z',
        })
      ).text,
    ) as Json;
    expect(backwards.ResponseCode).toBe(400);
    expect(backwards.Msg).toEqual(['StartDate must not be after EndDate']);
    expect(backwards.Transactions).toBeUndefined();
    const notADate = JSON.parse(
      (await raw('/api/Report/GetTransactionNumbers', { ...merchant1, StartDate: 'yesterday' })).text,
    ) as Json;
    expect(notADate.ResponseCode).toBe(400);
    expect(notADate.UserReferenceNumbers).toBeUndefined();
  });

  /**
   * The list of request paths a store with years of data uses, each with and without its optional
   * filters; every read they make is planned in the gateway's own database and must reach the growing
   * tables through an index that bounds it (query-plans.ts).
   */
  const everyListedRequest = async () => {
    const auth = await bearer(gw, merchant1);
    const reporting = (op: string, body: Json = {}) =>
      gw.post(`/api/Reporting/${op}`, body, { headers: auth });
    const q = gw.gateway.storage.read;
    const someUtn = await q.first(
      q.qb.selectFrom('payments').select('utn').where('mid', '=', merchant1.mid).where('id', '=', 100),
    );
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    const window = { FromDate: weekAgo, ToDate: yesterday };
    const instants = { StartDate: `${weekAgo}T00:00:00Z`, EndDate: `${yesterday}T23:59:59Z` };
    for (const path of ['GetReportByMerchant', 'GetReportByUserAndCashier']) {
      await raw(`/api/Report/${path}`, merchant1);
      await raw(`/api/Report/${path}`, { ...merchant1, ...instants });
      await raw(`/api/Report/${path}`, { ...merchant1, BatchNumber: '000012' });
    }
    await raw('/api/Report/GetTransactionNumbers', merchant1);
    await raw('/api/Report/GetTransactionNumbers', { ...merchant1, ...instants });
    await gw.post('/api/Report/GetUnsettledTransactions', merchant1);
    await gw.post('/api/Report/GetLastSettlementByMerchant', merchant1);
    await gw.post('/api/Report/GetSettlementsByDate', { ...merchant1, ...instants });
    await gw.post('/api/Transactions/GetTransaction', { ...merchant1, UserTransactionNumber: someUtn?.utn });
    for (const body of [{}, window]) {
      await reporting('GetBatchDetail', body);
      await reporting('GetBatchDetail', { ...body, CurrentPageIndex: 3, PageSize: 100 });
      await reporting('GetBatchSummaryByMerchant', body);
      await reporting('GetBatchSummaryByEntity', body);
      await reporting('GetBatchSummaryByEntity', { ...body, ViewLevel: 1 });
      await reporting('GetCardSummary', body);
      await reporting('GetDepositsSummary', body);
    }
    await reporting('GetBatchDetail', { ReportDate: yesterday });
    await reporting('GetBatchDetail', { BatchNumber: '000012', CurrentPageIndex: 1, PageSize: 50 });
    await reporting('GetAuthorizationLogSummary', window);
    await reporting('GetMerchantStatementList');
    await gw.get(linksQuery(merchant1));
    await gw.get(linksQuery(merchant1, { createdOn: yesterday }));
    await gw.get(linksQuery(merchant1, { createdOn: yesterday, status: 'UnPaid', active: true }));
    await gw.post('/api/RecurringBilling/GetAll', merchant1);
    await gw.post('/api/RecurringBilling/GetAll', { ...merchant1, IncludeInactive: true });
  };

  it('reads years of data only through bounding indexes on every listed request path', async () => {
    const seen = await readsDuring(gw, everyListedRequest);
    const distinct = [...new Map(seen.map((c) => [c.sql, c])).values()];
    expect(distinct.filter((c) => /"payments"/.test(c.sql)).length).toBeGreaterThan(10);
    const verdicts = await explainAll(gw, distinct);
    expect(verdicts).toHaveLength(distinct.length);
    expect(verdicts.filter((v) => v.problems.length > 0)).toEqual([]);
  });

  it('catches the whole-history reads it exists to keep out', async () => {
    const q = gw.gateway.storage.read;
    const mid = merchant1.mid;
    const bad = [
      // The in-memory report: every payment of the merchant in one answer.
      q.qb.selectFrom('payments as p').selectAll('p').where('p.mid', '=', mid).orderBy('p.id'),
      // The open batch's payments found by joining every batch the merchant ever had.
      q.qb
        .selectFrom('payments as p')
        .innerJoin('batches as b', 'b.id', 'p.batch_id')
        .select('p.id')
        .where('p.mid', '=', mid)
        .where('b.status', '=', 'open')
        .orderBy('p.id'),
      // A count of the whole history on every page.
      q.qb
        .selectFrom('payments')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('mid', '=', mid),
      // A page by OFFSET over a sort of every settled payment.
      q.qb
        .selectFrom('payments as p')
        .select('p.id')
        .where('p.status', '=', 'approved')
        .orderBy('p.amount_cents')
        .limit(10)
        .offset(1000),
      // Every settled batch's sums, for a report over all history (its running totals' two ends instead).
      q.qb
        .selectFrom('batches as b')
        .innerJoin('batch_totals as t', 't.batch_id', 'b.id')
        .select((eb) => eb.fn.sum('t.sale_cents').as('sale'))
        .where('b.mid', '=', mid)
        .where('t.mid', '=', mid)
        .where('b.status', 'in', ['settled', 'closed']),
      // Every running total of the merchant's groups, where each group's latest is one descent.
      q.qb.selectFrom('group_rollups').selectAll().where('mid', '=', mid),
      // The same grouped and paged: the LIMIT comes after every row was summed.
      q.qb
        .selectFrom('group_rollups')
        .select((eb) => ['card_type', eb.fn.max('cum_n').as('n')])
        .where('mid', '=', mid)
        .groupBy('card_type')
        .limit(10),
    ].map((query) => query.compile());
    const verdicts = await explainAll(gw, bad);
    expect(verdicts.map((v) => v.problems.length > 0)).toEqual([true, true, true, true, true, true, true]);
  });
});
