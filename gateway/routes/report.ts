import type { FastifyInstance } from 'fastify';
import { reportEndpoints as ep } from '../contract/core-endpoints';
import { fromCents } from '../domain/money';
import { success } from '../domain/outcome';
import { paymentReport } from '../domain/report-records';
import { implement, type OperationContext } from '../http/operation';
import type { GatewayServices } from '../http/services';
import type { Selectable } from 'kysely';
import type { SettlementsTable } from '../storage/schema';
import { text } from '../http/checks';

type SettlementRow = Selectable<SettlementsTable>;

function settlementReports(rows: SettlementRow[]) {
  return rows.map((s) => ({
    AmountSettled: fromCents(s.amount_settled_cents),
    Batches: JSON.parse(s.batch_numbers) as string[],
    CompletedOn: s.completed_on,
  }));
}

async function transactionNumbers(ctx: OperationContext) {
  const q = ctx.services.storage.read;
  const rows = await q.all(
    q.qb
      .selectFrom('transaction_numbers')
      .select('utn')
      .where('mid', '=', ctx.principal.mid)
      .where('state', '=', 'used')
      // Same-millisecond numbers in a stable order whatever the dialect (PostgreSQL has no rowid order).
      .orderBy('created_at')
      .orderBy('utn'),
  );
  return { ...success(), UserReferenceNumbers: rows.map((r) => r.utn) };
}

export function registerReportRoutes(app: FastifyInstance, services: GatewayServices): void {
  implement(app, services, ep.geTransactionNumbers, { handle: (_c, ctx) => transactionNumbers(ctx) });
  implement(app, services, ep.getTransactionNumbers, { handle: (_c, ctx) => transactionNumbers(ctx) });

  implement(app, services, ep.getLastSettlementByMerchant, {
    async handle(_c, ctx) {
      const q = ctx.services.storage.read;
      const rows = await q.all(
        q.qb
          .selectFrom('settlements')
          .selectAll()
          .where('mid', '=', ctx.principal.mid)
          .orderBy('id', 'desc')
          .limit(1),
      );
      return { ...success(), SettlementReports: settlementReports(rows) };
    },
  });

  implement(app, services, ep.getSettlementsByDate, {
    check(body) {
      return { start: text(body, 'StartDate'), end: text(body, 'EndDate') };
    },
    async handle(c, ctx) {
      const q = ctx.services.storage.read;
      let query = q.qb.selectFrom('settlements').selectAll().where('mid', '=', ctx.principal.mid);
      if (c.start) query = query.where('completed_on', '>=', new Date(c.start).toISOString());
      if (c.end) query = query.where('completed_on', '<=', new Date(c.end).toISOString());
      const rows = await q.all(query.orderBy('completed_on').orderBy('id'));
      return { ...success(), SettlementReports: settlementReports(rows) };
    },
  });

  implement(app, services, ep.getReportByMerchant, {
    async handle(_c, ctx) {
      return {
        ...success(),
        Transactions: await paymentReport(ctx.services.storage.read, { mid: ctx.principal.mid }),
      };
    },
  });

  implement(app, services, ep.getReportByUserAndCashier, {
    async handle(_c, ctx) {
      const { mid, userId, cid } = ctx.principal;
      return {
        ...success(),
        Transactions: await paymentReport(ctx.services.storage.read, { mid, userId, cid }),
      };
    },
  });

  implement(app, services, ep.getUnsettledTransactions, {
    async handle(_c, ctx) {
      const q = ctx.services.storage.read;
      const rows = await q.all(
        q.qb
          .selectFrom('payments as p')
          .innerJoin('batches as b', 'b.id', 'p.batch_id')
          .select([
            'p.id',
            'p.mid',
            'p.cid',
            'p.srn',
            'p.utn',
            'p.created_at',
            'p.amount_cents',
            'b.batch_number',
          ])
          .where('p.mid', '=', ctx.principal.mid)
          .where('b.status', '=', 'open')
          .where('p.status', '=', 'approved')
          .orderBy('p.id'),
      );
      return {
        ...success(),
        UnsettledTransactions: rows.map((r) => ({
          id: r.id,
          mid: r.mid,
          cid: r.cid,
          ServiceReferenceNumber: r.srn,
          UserReferenceNumber: r.utn,
          batch_number: r.batch_number,
          SettlementResult: 0,
          TimeSpan: r.created_at,
          Amount: fromCents(r.amount_cents),
        })),
      };
    },
  });
}
