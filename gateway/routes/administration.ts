import type { FastifyInstance } from 'fastify';
import { adminEndpoints as ep, ProcessorValues } from '../contract/admin';
import { ResponseCode } from '../contract/response-codes';
import { parseFraudOptions } from '../domain/fraud-options';
import type { Problems } from '../domain/problems';
import {
  addProcessorUser,
  CARD_TYPES,
  deleteProcessorUser,
  processorCredentials,
  type NewProcessorUser,
} from '../domain/processor-users';
import { subAccounts } from '../domain/sub-accounts';
import { int, text } from '../http/checks';
import { implement, type Loose } from '../http/operation';
import type { GatewayServices } from '../http/services';

function processorIdOf(problems: Problems, body: Loose, required: boolean): number | undefined {
  const byId = int(body, 'ProcessorId');
  const byName = typeof body.Processor === 'string' ? ProcessorValues.indexOf(body.Processor) + 1 : undefined;
  if (byId !== undefined && (byId < 1 || byId > ProcessorValues.length)) {
    problems.add(
      ResponseCode.InvalidRequest,
      'ProcessorId must be 1 to 40 (the Processor enumeration)',
      'ProcessorId',
    );
    return undefined;
  }
  if (byId !== undefined && byName !== undefined && byName > 0 && byId !== byName) {
    problems.add(
      ResponseCode.InvalidRequest,
      'ProcessorId and Processor name different processors',
      'ProcessorId',
    );
    return undefined;
  }
  const id = byId ?? (byName !== undefined && byName > 0 ? byName : undefined);
  if (id === undefined && required && !problems.has('ProcessorId') && !problems.has('Processor')) {
    problems.add(ResponseCode.InvalidRequest, 'ProcessorId (or Processor) is required', 'ProcessorId');
  }
  return id;
}

function list(raw: string | undefined): string[] {
  return raw === undefined ? [] : raw.split(',').map((s) => s.trim());
}

function checkNewUser(body: Loose, problems: Problems): NewProcessorUser | undefined {
  const processorId = processorIdOf(problems, body, true);
  const user = text(body, 'NewUser');
  const password = text(body, 'NewPass');
  if (!user?.trim()) problems.add(ResponseCode.InvalidRequest, 'NewUser is required', 'NewUser');
  if (!password) problems.add(ResponseCode.InvalidRequest, 'NewPass is required', 'NewPass');
  const cardTypes: string[] = [];
  for (const t of list(text(body, 'CardTypes'))) {
    const known = CARD_TYPES.find((c) => c.toLowerCase() === t.toLowerCase());
    if (!known) {
      problems.add(
        ResponseCode.InvalidRequest,
        `CardTypes must list only ${CARD_TYPES.join(', ')}`,
        'CardTypes',
      );
      break;
    }
    if (!cardTypes.includes(known)) cardTypes.push(known);
  }
  const keys = list(text(body, 'ExtraFielsKeys'));
  const values = list(text(body, 'ExtraFielsValues'));
  const extra: Record<string, string> = {};
  if (keys.length !== values.length) {
    problems.add(
      ResponseCode.InvalidRequest,
      'ExtraFielsKeys and ExtraFielsValues must have as many entries',
      'ExtraFielsKeys',
    );
  }
  const fields =
    typeof body.ProcessorExtraFields === 'object' && body.ProcessorExtraFields !== null
      ? body.ProcessorExtraFields
      : {};
  const pairs: [string, unknown][] = [
    ...keys.map((k, i): [string, unknown] => [k, values[i]]),
    ...Object.entries(fields),
  ];
  for (const [k, v] of pairs) {
    if (!/^[A-Za-z0-9_.-]{1,32}$/.test(k)) {
      problems.add(
        ResponseCode.InvalidRequest,
        'Extra field keys must be 1-32 letters, digits, _ . or -',
        'ExtraFielsKeys',
      );
      break;
    }
    if (typeof v === 'string') extra[k] = v;
  }
  let fraudOptions = '';
  const fraudRaw = text(body, 'FraudAutodenyOptions');
  if (fraudRaw !== undefined) {
    const parsed = parseFraudOptions(fraudRaw);
    if (!parsed.ok)
      problems.add(
        ResponseCode.InvalidFraudOptions,
        `FraudAutodenyOptions: ${parsed.reason}`,
        'FraudAutodenyOptions',
      );
    else
      fraudOptions = fraudRaw
        .split(',')
        .map((s) => s.trim())
        .join(',');
  }
  if (!problems.empty || processorId === undefined || !user || !password) return undefined;
  return {
    processorId,
    industryCode: typeof body.IndustryCode === 'string' ? body.IndustryCode : '',
    user: user.trim(),
    password,
    cardTypes: cardTypes.join(','),
    extraData: text(body, 'ExtraData') ?? '',
    extra,
    fraudOptions,
  };
}

/** Administration: the merchant's users at its processors and its cashiers (sub-accounts). */
export function registerAdministrationRoutes(app: FastifyInstance, services: GatewayServices): void {
  implement(app, services, ep.addUserToProcessor, {
    check: checkNewUser,
    handle: addProcessorUser,
  });

  implement(app, services, ep.deleteUserFromProcessor, {
    check: (body, problems) => processorIdOf(problems, body, true),
    handle: deleteProcessorUser,
  });

  implement(app, services, ep.getCredentials, {
    check: (body, problems) => ({ processorId: processorIdOf(problems, body, false) }),
    handle: processorCredentials,
  });

  implement(app, services, ep.getSubAccounts, {
    handle: (_c, ctx) => subAccounts(ctx, ctx.services.config.sandbox),
  });
}
