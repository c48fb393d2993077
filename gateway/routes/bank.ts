import type { FastifyInstance } from 'fastify';
import { achEndpoints } from '../contract/ach';
import { checkEndpoints } from '../contract/checks';
import { ResponseCode } from '../contract/response-codes';
import {
  amountText,
  authorizeBank,
  bankOutcome,
  checkAnswer,
  loadCheckToken,
  mask,
  methodRules,
  reportBase,
  voidBank,
  type BankInput,
} from '../domain/bank-transactions';
import { addDays, merchantTimeZone, zonedInstant } from '../domain/local-time';
import { toCents } from '../domain/money';
import { outcome, success } from '../domain/outcome';
import type { Problems } from '../domain/problems';
import { bankInput, checkAmount, checkNumber } from '../http/bank-checks';
import { flag, int, text } from '../http/checks';
import { implement, type Loose } from '../http/operation';
import type { GatewayServices } from '../http/services';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

type CheckCommand =
  | { packet: 'A'; input: BankInput; saveToken: boolean }
  | { packet: 'O'; input: BankInput; saveToken: boolean; previous: number }
  | { packet: 'V'; previous: number };

function previousId(problems: Problems, body: Loose, packet: string): number | undefined {
  const id = int(body, 'CheckTransactionId');
  if (id === undefined && !problems.has('CheckTransactionId')) {
    problems.add(
      ResponseCode.InvalidRequest,
      `CheckTransactionId (the prior check's ServiceTransactionNumber) is required for PacketIdentifier ${packet}`,
      'CheckTransactionId',
    );
  }
  return id;
}

/** A date filter "YYYY-MM-DD" (merchant's local date), or undefined with a problem. */
function localDate(problems: Problems, value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) {
    problems.add(ResponseCode.InvalidRequest, `${field} must be a date YYYY-MM-DD`, field);
    return undefined;
  }
  return value;
}

export function registerBankRoutes(app: FastifyInstance, services: GatewayServices): void {
  implement(app, services, checkEndpoints.processCheck, {
    check(body, problems, ctx): CheckCommand | undefined {
      const packet = (typeof body.PacketIdentifier === 'string' ? body.PacketIdentifier : 'A') as
        'A' | 'O' | 'V';
      if (packet === 'V') {
        if (flag(body, 'SaveToken'))
          problems.add(ResponseCode.InvalidRequest, 'SaveToken is not taken by a void', 'SaveToken');
        const previous = previousId(problems, body, 'V');
        return previous !== undefined && problems.empty ? { packet, previous } : undefined;
      }
      let previous: number | undefined;
      if (packet === 'O') previous = previousId(problems, body, 'O');
      else if (body.CheckTransactionId !== undefined) {
        problems.add(
          ResponseCode.InvalidRequest,
          'CheckTransactionId is only taken with PacketIdentifier O or V',
          'CheckTransactionId',
        );
      }
      const input = bankInput(problems, body, ctx.services.rules.amountCeilingCents, ctx.now);
      if (!input || !problems.empty) return undefined;
      const saveToken = flag(body, 'SaveToken');
      if (packet === 'O') return previous === undefined ? undefined : { packet, input, saveToken, previous };
      return { packet: 'A', input, saveToken };
    },
    async handle(c, ctx) {
      if (c.packet === 'V') {
        const row = await voidBank(ctx.services, ctx, 'check', c.previous);
        return {
          ...success(['Voided']),
          ...bankOutcome(row, true),
          ErrorMessages: [],
          TransactionInfo: {
            AccountNumber: mask(row.account_last4),
            CheckAmount: amountText(row.amount_cents),
            CheckNumber: row.check_number,
            RoutingNumber: mask(row.routing_last4),
            ServiceTransactionNumber: String(row.id),
          },
        };
      }
      const rules = methodRules[c.input.method];
      if (!rules) return outcome(ResponseCode.InvalidRequest, ['Method is not valid']);
      const result = await authorizeBank(ctx.services, ctx, {
        kind: 'check',
        packet: c.packet,
        input: c.input,
        rules,
        saveToken: c.saveToken,
        replacesId: c.packet === 'O' ? c.previous : undefined,
      });
      return checkAnswer(result);
    },
  });

  implement(app, services, checkEndpoints.processToken, {
    check(body, problems, ctx) {
      const token = text(body, 'Token');
      if (token !== undefined && !UUID_V4.test(token)) {
        problems.add(
          ResponseCode.InvalidRequest,
          'Token must be the UUIDv4 returned by ProcessCheck',
          'Token',
        );
      }
      const amountCents = checkAmount(problems, body, ctx.services.rules.amountCeilingCents);
      const number = checkNumber(problems, body);
      if (!token || amountCents === undefined || !problems.empty) return undefined;
      return { token: token.toLowerCase(), amountCents, checkNumber: number };
    },
    async handle(c, ctx) {
      const saved = await loadCheckToken(ctx.services, ctx.principal.mid, c.token);
      if (!saved) return outcome(ResponseCode.NotFound, ['Token not found for this merchant']);
      const rules = methodRules[saved.method];
      if (!rules) return outcome(ResponseCode.InvalidState, ['The saved token has an unknown Method']);
      const input: BankInput = {
        ...saved.holder,
        routing: saved.bank.routing,
        account: saved.bank.account,
        dlNumber: saved.bank.dlNumber,
        accountType: saved.accountType === 'SAVING' ? 'SAVING' : 'CHECKING',
        method: saved.method,
        amountCents: c.amountCents,
        checkNumber: c.checkNumber,
      };
      const result = await authorizeBank(ctx.services, ctx, {
        kind: 'check',
        packet: 'A',
        input,
        rules,
        saveToken: false,
        tokenId: saved.id,
      });
      return checkAnswer(result);
    },
  });

  implement(app, services, checkEndpoints.getReport, {
    async handle(_c, ctx) {
      const q = ctx.services.storage.read;
      const rows = await q.all(
        q.qb
          .selectFrom('bank_transactions')
          .selectAll()
          .where('mid', '=', ctx.principal.mid)
          .where('kind', '=', 'check')
          .orderBy('id'),
      );
      return {
        ...success(),
        Transactions: rows.map((r) => ({
          ...reportBase(r),
          ServiceTransactionNumber: String(r.id),
          TypeCode: r.type_code,
          TransactionVoided: r.status === 'voided',
          TransactionVoidedOn: r.voided_at,
        })),
      };
    },
  });

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
      const q = ctx.services.storage.read;
      const zone = await merchantTimeZone(q, ctx.principal.mid);
      let query = q.qb
        .selectFrom('bank_transactions')
        .selectAll()
        .where('mid', '=', ctx.principal.mid)
        .where('kind', '=', 'ach');
      if (c.from) query = query.where('created_at', '>=', zonedInstant(c.from, '00:00', zone).toISOString());
      if (c.to)
        query = query.where('created_at', '<', zonedInstant(addDays(c.to, 1), '00:00', zone).toISOString());
      if (c.achId !== undefined) query = query.where('id', '=', c.achId);
      const rows = await q.all(query.orderBy('id'));
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
