import { ProcessorValues } from '../contract/admin';
import { ResponseCode } from '../contract/response-codes';
import { outcome, success } from './outcome';
import type { RequestScope } from './request-scope';
import { seal } from '../security/sealed-data';
import { UniqueViolation, type Queryable } from '../storage/queryable';

/**
 * The merchant's users at its processors (Administration AddUserToProcessor, DeleteUserFromProcessor,
 * GetCredentials): one user per processor, its secret sealed in the vault, only hints ever shown.
 */

/** The card types a processor user may be set up for. */
export const CARD_TYPES = [
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

export type NewProcessorUser = {
  processorId: number;
  industryCode: string;
  user: string;
  password: string;
  cardTypes: string;
  extraData: string;
  extra: Record<string, string>;
  fraudOptions: string;
};

export const processorName = (id: number) => ProcessorValues[id - 1] ?? '';

/** A new user at a processor; a second one at the same processor is refused (delete it first). */
export async function addProcessorUser(u: NewProcessorUser, scope: RequestScope) {
  const mid = scope.principal.mid;
  try {
    await scope.services.storage.write((tx) =>
      tx.run(
        tx.qb.insertInto('processor_users').values({
          mid,
          processor_id: u.processorId,
          industry_code: u.industryCode,
          secret_ciphertext: seal(scope.services.keys.vaultKey, 'processor-credentials', mid, {
            user: u.user,
            password: u.password,
            extra: u.extra,
          }),
          user_hint: maskHint(u.user),
          card_types: u.cardTypes,
          extra_data: u.extraData,
          extra_field_keys: Object.keys(u.extra).join(','),
          fraud_options: u.fraudOptions,
          created_at: scope.now.toISOString(),
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
}

/** The merchant's user at this processor, removed. */
export async function deleteProcessorUser(processorId: number, scope: RequestScope) {
  const r = await scope.services.storage.write((tx) =>
    tx.run(
      tx.qb
        .deleteFrom('processor_users')
        .where('mid', '=', scope.principal.mid)
        .where('processor_id', '=', processorId),
    ),
  );
  if (r.changes === 0) return outcome(ResponseCode.NotFound, ['The merchant has no user at this processor']);
  return {
    ...success(['User removed from the processor']),
    ProcessorId: processorId,
    Processor: processorName(processorId),
    Deleted: true,
  };
}

/** The merchant's processor users (or the one asked for), secrets masked. */
export async function processorCredentials(c: { processorId: number | undefined }, scope: RequestScope) {
  const q = scope.services.storage.read;
  let query = q.qb.selectFrom('processor_users').selectAll().where('mid', '=', scope.principal.mid);
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
}

/** The processors the merchant has a user at, by id. */
export async function processorIdsOf(q: Queryable, mid: number): Promise<number[]> {
  const rows = await q.all(
    q.qb.selectFrom('processor_users').select('processor_id').where('mid', '=', mid).orderBy('processor_id'),
  );
  return rows.map((r) => r.processor_id);
}
