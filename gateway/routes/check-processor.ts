import type { FastifyInstance } from 'fastify';
import { checkEndpoints } from '../contract/checks';
import { ResponseCode } from '../contract/response-codes';
import {
  bankTransactionReport,
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

/** Check Processor: checks by bank data or by a saved check token, their voids and refunds, the report. */
export function registerCheckProcessorRoutes(app: FastifyInstance, services: GatewayServices): void {
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
      const rows = await bankTransactionReport(ctx.services.storage.read, ctx.principal.mid, 'check');
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
}
