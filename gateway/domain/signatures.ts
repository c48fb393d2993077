import type { Selectable } from 'kysely';
import { ResponseCode } from '../contract/response-codes';
import type { Queryable, Storage } from '../storage/queryable';
import type { SignaturesTable } from '../storage/schema-commerce';
import { DomainError } from './outcome';
import { paymentByReference } from './references';
import type { CheckedSignature } from './signature-image';

export type SignatureRow = Selectable<SignaturesTable>;

type StoredImage = Extract<CheckedSignature, { ok: true }>;

/**
 * Stores the signature of the merchant's payment `srn`, once: the same image sent again (a terminal
 * retrying a lost answer) is answered with the stored row; a different one is refused.
 */
export function addSignature(
  storage: Storage,
  who: { mid: number; userId: number },
  srn: string,
  image: StoredImage,
  now: Date,
): Promise<SignatureRow> {
  const { mid, userId } = who;
  return storage.write(async (tx) => {
    // A retried Add racing the first (another process) waits, then finds it and compares the image.
    await tx.lock(`signature:${mid}:${srn}`);
    const payment = await paymentByReference(tx, mid, srn);
    const existing = await tx.first(
      tx.qb.selectFrom('signatures').selectAll().where('payment_id', '=', payment.id),
    );
    if (existing) {
      if (existing.sha256 === image.sha256) return existing;
      throw new DomainError(ResponseCode.AlreadyExists, [
        'This transaction already has a different signature',
      ]);
    }
    const inserted = await tx.first(
      tx.qb
        .insertInto('signatures')
        .values({
          mid,
          payment_id: payment.id,
          srn,
          user_id: userId,
          format: image.format,
          data: image.stored,
          size_bytes: image.size,
          sha256: image.sha256,
          created_at: now.toISOString(),
        })
        .returningAll(),
    );
    if (!inserted) throw new Error('signature insert returned nothing');
    return inserted;
  });
}

/** The merchant's signatures, of one payment when `srn` is given (an unknown one is refused). */
export async function merchantSignatures(
  q: Queryable,
  mid: number,
  srn: string | undefined,
): Promise<SignatureRow[]> {
  if (srn !== undefined) {
    await paymentByReference(q, mid, srn);
  }
  let query = q.qb.selectFrom('signatures').selectAll().where('mid', '=', mid);
  if (srn !== undefined) query = query.where('srn', '=', srn);
  return q.all(query.orderBy('id'));
}
