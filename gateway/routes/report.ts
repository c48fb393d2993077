import type { FastifyInstance } from 'fastify';
import { reportEndpoints as ep } from '../contract/core-endpoints';
import { fromCents } from '../domain/money';
import { success } from '../domain/outcome';
import { paymentReport, usedTransactionNumbers, type ReportFilter } from '../domain/report-records';
import { lastSettlement, settlementsBetween, type SettlementRow } from '../domain/settlements';
import { unsettledTransactions } from '../domain/unsettled-transactions';
import type { Problems } from '../domain/problems';
import { ResponseCode } from '../contract/response-codes';
import { TransactionNumber, TransactionReportRecord } from '../contract/report';
import { implement, type Loose, type OperationContext } from '../http/operation';
import { sendStreamedArray } from '../http/streamed-json';
import type { GatewayServices } from '../http/services';
import { text } from '../http/checks';

function settlementReports(rows: SettlementRow[]) {
  return rows.map((s) => ({
    AmountSettled: fromCents(s.amount_settled_cents),
    Batches: JSON.parse(s.batch_numbers) as string[],
    CompletedOn: s.completed_on,
  }));
}

/**
 * The optional filters of a Report group listing; a window that ends before it starts is refused. The
 * schema has already checked the formats (a problem there is reported with these).
 */
function reportWindow(body: Loose, problems: Problems) {
  const instant = (field: string) => {
    const raw = text(body, field);
    const t = raw === undefined ? NaN : new Date(raw).getTime();
    return Number.isNaN(t) ? undefined : new Date(t).toISOString();
  };
  const fromIso = instant('StartDate');
  const toIso = instant('EndDate');
  if (fromIso !== undefined && toIso !== undefined && fromIso > toIso)
    problems.add(ResponseCode.InvalidRequest, 'StartDate must not be after EndDate', 'StartDate');
  return { fromIso, toIso };
}

const reportFilter = (body: Loose, problems: Problems) => ({
  ...reportWindow(body, problems),
  batchNumber: text(body, 'BatchNumber'),
});

/** Every transaction of the filter, streamed: years of payments never sit in memory (streamed-json.ts). */
function streamedReport(ctx: OperationContext, filter: ReportFilter) {
  return sendStreamedArray(
    ctx.reply,
    success(),
    'Transactions',
    TransactionReportRecord,
    paymentReport(ctx.services.storage.read, filter),
  );
}

const transactionNumbers = {
  check: reportWindow,
  handle: (window: ReturnType<typeof reportWindow>, ctx: OperationContext) =>
    sendStreamedArray(
      ctx.reply,
      success(),
      'UserReferenceNumbers',
      TransactionNumber,
      usedTransactionNumbers(ctx.services.storage.read, { mid: ctx.principal.mid, ...window }),
    ),
};

export function registerReportRoutes(app: FastifyInstance, services: GatewayServices): void {
  implement(app, services, ep.geTransactionNumbers, transactionNumbers);
  implement(app, services, ep.getTransactionNumbers, transactionNumbers);

  implement(app, services, ep.getLastSettlementByMerchant, {
    async handle(_c, ctx) {
      const rows = await lastSettlement(ctx.services.storage.read, ctx.principal.mid);
      return { ...success(), SettlementReports: settlementReports(rows) };
    },
  });

  implement(app, services, ep.getSettlementsByDate, {
    check(body) {
      return { start: text(body, 'StartDate'), end: text(body, 'EndDate') };
    },
    async handle(c, ctx) {
      const rows = await settlementsBetween(ctx.services.storage.read, ctx.principal.mid, c);
      return { ...success(), SettlementReports: settlementReports(rows) };
    },
  });

  implement(app, services, ep.getReportByMerchant, {
    check: reportFilter,
    handle: (filter, ctx) => streamedReport(ctx, { mid: ctx.principal.mid, ...filter }),
  });

  implement(app, services, ep.getReportByUserAndCashier, {
    check: reportFilter,
    handle(filter, ctx) {
      const { mid, userId, cid } = ctx.principal;
      return streamedReport(ctx, { mid, userId, cid, ...filter });
    },
  });

  implement(app, services, ep.getUnsettledTransactions, {
    async handle(_c, ctx) {
      return {
        ...success(),
        UnsettledTransactions: await unsettledTransactions(ctx.services.storage.read, ctx.principal.mid),
      };
    },
  });
}
