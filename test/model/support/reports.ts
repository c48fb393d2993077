import { ResponseCode } from '../../../gateway/contract/response-codes';
import { pinBlock } from '../../support/cards';
import type { Json } from '../../support/gateway-harness';
import { rowCharged, rowRefundable, type Books } from './books';
import { centsOfText, EBT_PAN, post, type Envelope } from './driver';
import { balanceOf, type Model } from './money-model';
import type { Violation } from './invariants';

/**
 * Reports agree with the books: the Report group (envelope), the Reporting group (bearer token from
 * /api/Auth), the check report and the balances, read over HTTP from either gateway process.
 */

export type ReportContext = {
  urls: readonly string[];
  envelope: Envelope;
  bearer: Record<string, string>;
  giftPan(key: string): string;
  checkId(ref: string): string | undefined;
  /** Which process answers the reports this time (both get their turn). */
  via: number;
};

const money = (c: number) => (c / 100).toFixed(2);
const cents = (v: unknown) => (typeof v === 'number' ? Math.round(v * 100) : Number.NaN);
const list = (a: Json, field: string): Json[] => (Array.isArray(a[field]) ? (a[field] as Json[]) : []);

export async function judgeReports(m: Model, b: Books, r: ReportContext): Promise<Violation[]> {
  const out: Violation[] = [];
  const v = (invariant: string, detail: string) => out.push({ invariant, detail });
  const report = 'reports agree with the books';
  const timed = async (path: string, p: Promise<Json>) => {
    const t = Date.now();
    const x = await p;
    if (process.env.MODEL_DEBUG) process.stdout.write(`  ${path} ${Date.now() - t}ms\n`);
    return x;
  };
  const ask = (path: string, body: Json = {}) =>
    timed(path, post(r.urls, r.via, path, { ...r.envelope, ...body }));
  const reporting = (op: string, body: Json) => post(r.urls, r.via, `/api/Reporting/${op}`, body, r.bearer);

  const [byMerchant, unsettled, last, numbers, batchSummary, checks] = await Promise.all([
    ask('/api/Report/GetReportByMerchant'),
    ask('/api/Report/GetUnsettledTransactions'),
    ask('/api/Report/GetLastSettlementByMerchant'),
    ask('/api/Report/GetTransactionNumbers'),
    reporting('GetBatchSummaryByMerchant', { PageSize: 500 }),
    ask('/api/CheckProcessor/GetReport'),
  ]);

  // GetReportByMerchant: one row per answered payment, as the books hold it.
  const rows = new Map(list(byMerchant, 'Transactions').map((t) => [String(t.ServiceReferenceNumber), t]));
  const batchNumberOf = new Map(b.batches.map((x) => [x.id, x.batch_number]));
  const answered = b.payments.filter((p) => p.status !== 'pending');
  if (rows.size !== answered.length)
    v(report, `GetReportByMerchant lists ${rows.size} payments, the books hold ${answered.length}`);
  for (const p of answered) {
    const t = rows.get(p.srn);
    if (!t) {
      v(report, `GetReportByMerchant misses ${p.utn}`);
      continue;
    }
    const want = `${p.status} total ${money(rowRefundable(p))} refunded ${money(p.refunded_cents)} batch ${p.batch_id === null ? 'none' : (batchNumberOf.get(p.batch_id) ?? 'gone')}`;
    const got = `${String(t.Status)} total ${money(cents(t.TotalAmount))} refunded ${money(cents(t.TotalRefundedAmount))} batch ${typeof t.BatchNumber === 'string' ? t.BatchNumber : 'none'}`;
    if (want !== got) v(report, `GetReportByMerchant shows ${p.utn} as ${got}; the books hold ${want}`);
  }

  // GetUnsettledTransactions: the approved payments of the open batch.
  const open = new Set(b.batches.filter((x) => x.status === 'open').map((x) => x.id));
  const wantUnsettled = b.payments
    .filter((p) => p.status === 'approved' && p.batch_id !== null && open.has(p.batch_id))
    .map((p) => p.srn)
    .sort();
  const gotUnsettled = list(unsettled, 'UnsettledTransactions')
    .map((t) => String(t.ServiceReferenceNumber))
    .sort();
  if (wantUnsettled.join() !== gotUnsettled.join())
    v(
      report,
      `GetUnsettledTransactions lists ${gotUnsettled.length} payments, the open batch holds ${wantUnsettled.length} approved`,
    );

  // GetLastSettlementByMerchant: the newest settlement.
  const newest = b.settlements.at(-1);
  const lastReports = list(last, 'SettlementReports');
  const lastAmount = lastReports[0] ? cents(lastReports[0].AmountSettled) : undefined;
  if ((newest?.amount_settled_cents ?? undefined) !== lastAmount)
    v(
      report,
      `GetLastSettlementByMerchant says ${lastAmount === undefined ? 'none' : money(lastAmount)}, the newest settlement is ${newest ? money(newest.amount_settled_cents) : 'none'}`,
    );

  // GetTransactionNumbers: every used number once.
  const used = Array.isArray(numbers.UserReferenceNumbers) ? (numbers.UserReferenceNumbers as string[]) : [];
  const wantUsed = b.numbers.filter((n) => n.state === 'used').map((n) => n.utn);
  if (new Set(used).size !== used.length)
    v('every UserTransactionNumber is used once', 'GetTransactionNumbers lists a number twice');
  if ([...used].sort().join() !== [...wantUsed].sort().join())
    v(report, `GetTransactionNumbers lists ${used.length} numbers, the books hold ${wantUsed.length} used`);

  // Reporting group: each settled batch's figures are its approved payments', and its settlement's.
  const settledAmount = new Map<string, number>();
  for (const s of b.settlements)
    for (const n of JSON.parse(s.batch_numbers) as string[]) settledAmount.set(n, s.amount_settled_cents);
  const summaryRows = list(batchSummary, 'Result');
  if (batchSummary.ResponseCode !== ResponseCode.Success)
    v(report, `GetBatchSummaryByMerchant answered ${String(batchSummary.ResponseCode)}`);
  for (const row of summaryRows) {
    const number = String(row.BatchNumber);
    const batch = b.batches.find((x) => x.batch_number === number);
    const approved = b.payments.filter((p) => p.status === 'approved' && p.batch_id === batch?.id);
    const net = approved.reduce(
      (t, p) => t + (p.operation === 'refund' ? -p.amount_cents : rowCharged(p)),
      0,
    );
    const reported = cents(row.NetAmount);
    if (reported !== net || Number(row.TransactionCount) !== approved.length)
      v(
        report,
        `GetBatchSummaryByMerchant batch ${number}: net ${money(reported)} of ${String(row.TransactionCount)}; its approved payments: ${money(net)} of ${approved.length}`,
      );
    if (settledAmount.get(number) !== reported)
      v(
        "a settled batch's total equals its approved, unvoided payments",
        `batch ${number}: the Reporting group shows ${money(reported)}, its settlement recorded ${money(settledAmount.get(number) ?? 0)}`,
      );
  }
  const settledBatches = b.batches.filter(
    (x) => x.status !== 'open' && b.payments.some((p) => p.batch_id === x.id && p.status === 'approved'),
  );
  if (summaryRows.length !== settledBatches.length)
    v(
      report,
      `GetBatchSummaryByMerchant lists ${summaryRows.length} batches, ${settledBatches.length} are settled with approved payments`,
    );

  // The check report: each check as the model holds it.
  const checkRows = new Map(list(checks, 'Transactions').map((t) => [String(t.ServiceTransactionNumber), t]));
  for (const ref of m.checkOrder) {
    const c = m.checks[ref];
    const id = r.checkId(ref);
    const row = id ? checkRows.get(id) : undefined;
    if (!c || !row) {
      v(report, `CheckProcessor/GetReport misses check ${ref}`);
      continue;
    }
    if (cents(row.CheckAmount) !== c.amount || (row.TransactionVoided === true) !== (c.status === 'voided'))
      v(
        report,
        `check ${ref}: reported ${money(cents(row.CheckAmount))} voided=${String(row.TransactionVoided)}, the model ${money(c.amount)} ${c.status}`,
      );
  }

  // Balances: what the gateway answers for each card is the model's, and never below zero.
  const balances = await Promise.all([
    ...m.giftOrder.map(async (key) => {
      const a = await ask('/api/GiftCard/GetBalance', { CardNumber: r.giftPan(key) });
      return { name: `gift card ${key}`, got: centsOfText(a.Balance), want: balanceOf(m, key) };
    }),
    (async () => {
      const a = await ask('/api/EbtTransaction/EbtFoodStampBalance', {
        CardNumber: EBT_PAN,
        ...pinBlock(EBT_PAN),
      });
      return {
        name: 'the EBT food account',
        got: centsOfText(a.FoodStampBalance),
        want: balanceOf(m, m.ebt.key),
      };
    })(),
  ]);
  for (const x of balances) {
    if (x.got === undefined || x.got < 0)
      v('no balance below zero', `${x.name} reads ${x.got === undefined ? 'nothing' : money(x.got)}`);
    if (x.got !== x.want)
      v(
        report,
        `${x.name}: the gateway says ${x.got === undefined ? 'nothing' : money(x.got)}, the model ${money(x.want)}`,
      );
  }
  return out;
}
