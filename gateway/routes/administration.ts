import type { FastifyInstance } from 'fastify';
import { adminEndpoints as ep, ProcessorValues } from '../contract/admin';
import { ResponseCode } from '../contract/response-codes';
import { parseFraudOptions } from '../domain/fraud-options';
import { outcome, success } from '../domain/outcome';
import type { Problems } from '../domain/problems';
import { int, text } from '../http/checks';
import { implement, type Loose } from '../http/operation';
import type { GatewayServices } from '../http/services';
import { seal } from '../security/sealed-data';
import { UniqueViolation } from '../storage/queryable';

const CARD_TYPES = [
  'Visa',
  'Mastercard',
  'Amex',
  'Discover',
  'JCB',
  'Diners',
  'UnionPay',
  'Debit',
  'EBT',
  'GiftCard',
];

/** A credential shown as its first two characters: enough to tell users apart, never the secret. */
export function maskHint(value: string): string {
  return value.length <= 2
    ? '*'.repeat(Math.max(2, value.length))
    : value.slice(0, 2) + '*'.repeat(Math.min(10, value.length - 2));
}

type NewProcessorUser = {
  processorId: number;
  industryCode: string;
  user: string;
  password: string;
  cardTypes: string;
  extraData: string;
  extra: Record<string, string>;
  fraudOptions: string;
};

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

const processorName = (id: number) => ProcessorValues[id - 1] ?? '';

/** Administration: the merchant's users at its processors and its cashiers (sub-accounts). */
export function registerAdministrationRoutes(app: FastifyInstance, services: GatewayServices): void {
  implement(app, services, ep.addUserToProcessor, {
    check: checkNewUser,
    async handle(u, ctx) {
      const mid = ctx.principal.mid;
      try {
        await ctx.services.storage.write((tx) =>
          tx.run(
            tx.qb.insertInto('processor_users').values({
              mid,
              processor_id: u.processorId,
              industry_code: u.industryCode,
              secret_ciphertext: seal(ctx.services.keys.vaultKey, 'processor-credentials', mid, {
                user: u.user,
                password: u.password,
                extra: u.extra,
              }),
              user_hint: maskHint(u.user),
              card_types: u.cardTypes,
              extra_data: u.extraData,
              extra_field_keys: Object.keys(u.extra).join(','),
              fraud_options: u.fraudOptions,
              created_at: ctx.now.toISOString(),
            }),
          ),
        );
      } catch (error) {
        if (error instanceof UniqueViolation) {
          return outcome(ResponseCode.AlreadyExists, [
            'The merchant already has a user at this processor: DeleteUserFromProcessor first',
          ]);
        }
        throw error;
      }
      return {
        ...success(['User added to the processor']),
        ProcessorId: u.processorId,
        Processor: processorName(u.processorId),
        IndustryCode: u.industryCode,
        UserName: maskHint(u.user),
      };
    },
  });

  implement(app, services, ep.deleteUserFromProcessor, {
    check: (body, problems) => processorIdOf(problems, body, true),
    async handle(processorId, ctx) {
      const r = await ctx.services.storage.write((tx) =>
        tx.run(
          tx.qb
            .deleteFrom('processor_users')
            .where('mid', '=', ctx.principal.mid)
            .where('processor_id', '=', processorId),
        ),
      );
      if (r.changes === 0)
        return outcome(ResponseCode.NotFound, ['The merchant has no user at this processor']);
      return {
        ...success(['User removed from the processor']),
        ProcessorId: processorId,
        Processor: processorName(processorId),
        Deleted: true,
      };
    },
  });

  implement(app, services, ep.getCredentials, {
    check: (body, problems) => ({ processorId: processorIdOf(problems, body, false) }),
    async handle(c, ctx) {
      const q = ctx.services.storage.read;
      let query = q.qb.selectFrom('processor_users').selectAll().where('mid', '=', ctx.principal.mid);
      if (c.processorId !== undefined) query = query.where('processor_id', '=', c.processorId);
      const rows = await q.all(query.orderBy('processor_id'));
      if (c.processorId !== undefined && rows.length === 0) {
        return outcome(ResponseCode.NotFound, ['The merchant has no user at this processor']);
      }
      return {
        ...success(),
        Credentials: rows.map((r) => {
          const keys = r.extra_field_keys === '' ? [] : r.extra_field_keys.split(',');
          return {
            ProcessorId: r.processor_id,
            Processor: processorName(r.processor_id),
            IndustryCode: r.industry_code,
            UserName: r.user_hint,
            Password: '********',
            CardTypes: r.card_types,
            ExtraData: r.extra_data,
            ExtraFieldKeys: keys,
            ExtraFieldValues: keys.map(() => '****'),
            FraudAutodenyOptions: r.fraud_options,
            CreatedOn: r.created_at,
          };
        }),
      };
    },
  });

  implement(app, services, ep.getSubAccounts, {
    async handle(_c, ctx) {
      const q = ctx.services.storage.read;
      const mid = ctx.principal.mid;
      const [cashiers, settings, counts, firstUser] = await Promise.all([
        q.all(q.qb.selectFrom('cashiers').selectAll().where('mid', '=', mid).orderBy('cid')),
        q.all(q.qb.selectFrom('cashier_settings').selectAll().where('mid', '=', mid)),
        q.all(
          q.qb
            .selectFrom('payments')
            .select((eb) => ['cid', eb.fn.countAll<number>().as('n')])
            .where('mid', '=', mid)
            .where('pos_code', '=', 'ECommerce')
            .where('status', '=', 'approved')
            .groupBy('cid'),
        ),
        q.first(
          q.qb
            .selectFrom('processor_users')
            .select('user_hint')
            .where('mid', '=', mid)
            .orderBy('processor_id')
            .limit(1),
        ),
      ]);
      return {
        ...success(),
        SubAccounts: cashiers.map((c) => {
          const s = settings.find((x) => x.cid === c.cid);
          return {
            CanSale: c.can_sale === 1,
            in_black_list: false,
            isDemo: ctx.services.config.sandbox,
            is_enable: c.is_enable === 1,
            DataWireId: s?.datawire_id ?? '',
            DataWireIdBackUp: s?.datawire_id_backup ?? '',
            description: c.description,
            first_name: c.first_name,
            host_pass: '',
            host_user: firstUser?.user_hint ?? '',
            last_name: c.last_name,
            picture_link: '',
            WebsitePaymentsCount: Number(counts.find((n) => n.cid === c.cid)?.n ?? 0),
            id: c.cid,
            mid: c.mid,
            createdOn: c.created_at,
          };
        }),
      };
    },
  });
}
