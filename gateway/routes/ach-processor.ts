import type { FastifyInstance } from 'fastify';
import { achEndpoints } from '../contract/ach';
import { ResponseCode } from '../contract/response-codes';
import {
  bankTransactionReport,
  authorizeBank,
  bankOutcome,
  checkAnswer,
  methodRules,
  reportBase,
  voidBank,
} from '../domain/bank-transactions';
import { toCents } from '../domain/money';
import { outcome, success } from '../domain/outcome';
import type { Problems } from '../domain/problems';
import { bankInput } from '../http/bank-checks';
import { int, text } from '../http/checks';
import { implement, type Loose } from '../http/operation';
import type { GatewayServices } from '../http/services';

/** A date filter "YYYY-MM-DD" (merchant's local date), or undefined with a problem. */
function localDate(problems: Problems, value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) {
    problems.add(ResponseCode.InvalidRequest, `${field} must be a date YYYY-MM-DD`, field);
    return undefined;
  }
  return value;
}

/** ACH Processor: ACH debits, their voids and the report. */
export function registerAchProcessorRoutes(app: FastifyInstance, services: GatewayServices): void {
  implement(app, services, achEndpoints.processAch, {
    check(body, problems, ctx) {
      const input = bankInput(problems, body, ctx.services.rules.amountCeilingCents, ctx.now);
      return input && problems.empty ? input : undefined;
    },
    async handle(input, ctx) {
      const rules = methodRules[input.method];
      if (!rules) return outcome(ResponseCode.InvalidRequest, ['Method is not valid']);
      const { row } = await authorizeBank(ctx.services, ctx, {
        kind: 'ach',
        packet: 'A',
        input,
        rules,
        saveToken: false,
      });
      const answer = checkAnswer({ row });
      return {
        ...answer,
        TransactionInfo: {
          AccountNumber: answer.TransactionInfo.AccountNumber,
          AchId: row.id,
          CheckAmount: answer.TransactionInfo.CheckAmount,
          RoutingNumber: answer.TransactionInfo.RoutingNumber,
          ServiceTransactionNumber: String(row.id),
        },
      };
    },
  });

  implement(app, services, achEndpoints.voidAch, {
    check(body, problems, ctx) {
      const id = int(body, 'AchId');
      if (id === undefined && !problems.has('AchId'))
        problems.add(ResponseCode.InvalidRequest, 'AchId is required', 'AchId');
      let amountCents: number | undefined;
      if (body.AchAmount !== undefined && !problems.has('AchAmount')) {
        const r = toCents(body.AchAmount, { ceilingCents: ctx.services.rules.amountCeilingCents });
        if (r.ok) amountCents = r.cents;
        else problems.add(ResponseCode.InvalidAmount, `AchAmount ${r.reason}`, 'AchAmount');
      }
      const routing = text(body, 'AbaRouting');
      const account = text(body, 'AccountNumber');
      if (id === undefined || !problems.empty) return undefined;
      return { id, match: { routing, account, amountCents } };
    },
    async handle(c, ctx) {
      const row = await voidBank(ctx.services, ctx, 'ach', c.id, c.match);
      return { ...success(['Voided']), ...bankOutcome(row, true) };
    },
  });

  implement(app, services, achEndpoints.getReport, {
    check(body, problems) {
      const p = (
        typeof body.Parameters === 'object' && body.Parameters !== null ? body.Parameters : {}
      ) as Loose;
      const from = localDate(problems, p.FromDate, 'Parameters.FromDate');
      const to = localDate(problems, p.ToDate, 'Parameters.ToDate');
      const achId = int(p, 'AchId');
      return { from, to, achId };
    },
    async handle(c, ctx) {
      const rows = await bankTransactionReport(ctx.services.storage.read, ctx.principal.mid, 'ach', {
        from: c.from,
        to: c.to,
        id: c.achId,
      });
      return {
        ...success(),
        Transactions: rows.map((r) => ({
          ...reportBase(r),
          ResponseFromHostReceived: true,
          TerminalId: r.terminal_id,
          TransactionId: String(r.id),
          TransactionReverted: r.status === 'voided',
          TransactionRevertedOn: r.voided_at,
        })),
      };
    },
  });
}
