import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransactionNumbersResponse, TransactionsReportResponse } from '../../gateway/contract/report';
import { success as outcomeOf } from '../../gateway/domain/outcome';
import { reportRecord } from '../../gateway/domain/report-records';
import type { PaymentRow } from '../../gateway/domain/sale-response';
import { merchant1, merchant2, startGateway, type Json, type TestGateway } from '../support/gateway-harness';
import { growHistory } from '../support/history-sample';

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
    await growHistory(gw, { days: 3, perDay: 400, openRows: 300 });
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

  it('streams an empty report as the whole answer was written', async () => {
    const other = await raw('/api/Report/GetReportByMerchant', merchant2);
    expect(other.text).toBe(await wholeAnswer(TransactionsReportResponse, { ...success, Transactions: [] }));
  });

  it('narrows the reports by StartDate/EndDate and by BatchNumber, which old clients never send', async () => {
    const all = (await readWhole({})) as Json[];
    const day = all.filter((t) => typeof t.BatchNumber === 'string')[700];
    const batch = String(day?.BatchNumber);
    const inBatch = all.filter((t) => t.BatchNumber === batch);
    expect(inBatch.length).toBeGreaterThan(300);
    const byBatch = JSON.parse(
      (await raw('/api/Report/GetReportByMerchant', { ...merchant1, BatchNumber: batch })).text,
    ) as Json;
    expect(byBatch.Transactions).toEqual(inBatch);

    const madeOn = inBatch.map((t) => String(t.MadeOn)).sort();
    const [start, end] = [madeOn[10] ?? '', madeOn[madeOn.length - 10] ?? ''];
    const inWindow = all
      .filter((t) => String(t.MadeOn) >= start && String(t.MadeOn) <= end)
      .sort((a, b) => String(a.MadeOn).localeCompare(String(b.MadeOn)) || Number(a.ID) - Number(b.ID));
    expect(inWindow.length).toBeGreaterThan(REPORT_SLICE_FOR_TEST / 2);
    const byWindow = JSON.parse(
      (await raw('/api/Report/GetReportByMerchant', { ...merchant1, StartDate: start, EndDate: end })).text,
    ) as Json;
    expect(byWindow.Transactions).toEqual(inWindow);

    const numbers = JSON.parse(
      (await raw('/api/Report/GetTransactionNumbers', { ...merchant1, StartDate: start, EndDate: end })).text,
    ) as Json;
    expect(numbers.UserReferenceNumbers).toHaveLength(inWindow.length);
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
});

const REPORT_SLICE_FOR_TEST = 500;
