import { sql } from 'kysely';
import type { ChargebackRow, RetrievalRow } from '../../contract/reporting';
import type { Queryable } from '../../storage/queryable';
import { type Page, type Paged, cardDescription, maskedCard, money, pageWithTotals } from './shared';

type DateRange = { from?: string | undefined; to?: string | undefined };

function disputes(q: Queryable, mid: number, kind: 'chargeback' | 'retrieval', dates: DateRange) {
  let query = q.qb.selectFrom('disputes as d').where('d.mid', '=', mid).where('d.kind', '=', kind);
  if (dates.from) query = query.where('d.report_date', '>=', dates.from);
  if (dates.to) query = query.where('d.report_date', '<=', dates.to);
  return query;
}

const DISPUTE_AMOUNT = sql<number>`sum(d.amount_cents)`;

const byReportDate = (report: ReturnType<typeof disputes>) =>
  report.selectAll('d').orderBy('d.report_date').orderBy('d.record_id');

/** GetChargebacksDetail (every record) and GetChargebacksSummary (each case's latest record). */
export async function chargebacks(
  q: Queryable,
  mid: number,
  dates: DateRange,
  latestOnly: boolean,
  p: Page,
): Promise<Paged<ChargebackRow>> {
  const all = disputes(q, mid, 'chargeback', dates);
  const report = latestOnly
    ? all.where('d.record_id', '=', (eb) =>
        eb
          .selectFrom('disputes as later')
          .select((e) => e.fn.max('later.record_id').as('m'))
          .whereRef('later.mid', '=', 'd.mid')
          .whereRef('later.kind', '=', 'd.kind')
          .whereRef('later.case_number', '=', 'd.case_number'),
      )
    : all;
  const found = await pageWithTotals(q, report, byReportDate, DISPUTE_AMOUNT, p);
  return {
    rows: found.rows.map((d) => ({
      AuthorizationCode: d.authorization_code,
      CBType: d.cb_type,
      CBTypeDescription: d.cb_type_description,
      CardNumber: maskedCard(d.card_first6, d.card_last4),
      CardType: d.card_type,
      CardTypeDescription: cardDescription(d.card_type),
      CaseNumber: d.case_number,
      Disposition: d.disposition,
      PreDispute: d.pre_dispute,
      ReasonCode: d.reason_code,
      ReasonCodeDescription: d.reason_code_description,
      ReasonText: d.reason_text,
      ReferenceNumber: d.reference_number,
      ReportDate: d.report_date,
      RecordID: d.record_id,
      RepresentedCBAmount: money(d.amount_cents),
    })),
    total: {
      AuthorizationCode: '',
      CBType: '',
      CBTypeDescription: '',
      CardNumber: '',
      CardType: '',
      CardTypeDescription: '',
      CaseNumber: 'Total',
      Disposition: '',
      PreDispute: '',
      ReasonCode: '',
      ReasonCodeDescription: '',
      ReasonText: '',
      ReferenceNumber: '',
      ReportDate: '',
      RecordID: 0,
      RepresentedCBAmount: money(found.amount),
    },
    count: found.count,
  };
}

export async function retrievals(
  q: Queryable,
  mid: number,
  dates: DateRange,
  p: Page,
): Promise<Paged<RetrievalRow>> {
  const found = await pageWithTotals(
    q,
    disputes(q, mid, 'retrieval', dates),
    byReportDate,
    DISPUTE_AMOUNT,
    p,
  );
  return {
    rows: found.rows.map((d) => ({
      CardNumber: maskedCard(d.card_first6, d.card_last4),
      CardType: d.card_type,
      CardTypeDescription: cardDescription(d.card_type),
      DateReceived: d.date_received,
      DueDate: d.due_date,
      ReasonCode: d.reason_code,
      ReasonCodeDescription: d.reason_code_description,
      ReferenceNumber: d.reference_number,
      ReportDate: d.report_date,
      RequestType: d.request_type,
      TransactionDate: d.transaction_date,
      TransactionAmount: money(d.amount_cents),
    })),
    total: {
      CardNumber: '',
      CardType: '',
      CardTypeDescription: '',
      DateReceived: '',
      DueDate: '',
      ReasonCode: '',
      ReasonCodeDescription: 'Total',
      ReferenceNumber: '',
      ReportDate: '',
      RequestType: '',
      TransactionDate: '',
      TransactionAmount: money(found.amount),
    },
    count: found.count,
  };
}
