import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import { ResponseCode } from '../contract/response-codes';
import { signatureEndpoints as ep, type SignatureRecord } from '../contract/signatures';
import { DomainError, success } from '../domain/outcome';
import { paymentByReference } from '../domain/references';
import { checkSignatureData } from '../domain/signature-image';
import { requiredText, text } from '../http/checks';
import { implement } from '../http/operation';
import type { GatewayServices } from '../http/services';
import type { SignaturesTable } from '../storage/schema-commerce';

function signatureRecord(s: Selectable<SignaturesTable>): SignatureRecord {
  return {
    Id: s.id,
    ServiceTransactionNumber: s.srn,
    Format: s.format,
    SignatureData: s.data,
    Size: s.size_bytes,
    AddedOn: s.created_at,
  };
}

export function registerSignatureRoutes(app: FastifyInstance, services: GatewayServices): void {
  implement(app, services, ep.add, {
    check(body, problems) {
      const srn = requiredText(problems, body, 'ServiceTransactionNumber');
      const data = requiredText(problems, body, 'SignatureData', ResponseCode.SignatureDataEmpty);
      if (data === undefined) return undefined;
      const image = checkSignatureData(data);
      if (!image.ok) problems.add(image.code, image.reason, 'SignatureData');
      return srn && image.ok ? { srn, image } : undefined;
    },
    async handle(c, ctx) {
      const { mid, userId } = ctx.principal;
      const row = await ctx.services.storage.write(async (tx) => {
        // A retried Add racing the first (another process) waits, then finds it and compares the image.
        await tx.lock(`signature:${mid}:${c.srn}`);
        const payment = await paymentByReference(tx, mid, c.srn);
        const existing = await tx.first(
          tx.qb.selectFrom('signatures').selectAll().where('payment_id', '=', payment.id),
        );
        if (existing) {
          // A terminal retrying a lost answer sends the same image: answer it again; a different one is refused.
          if (existing.sha256 === c.image.sha256) return existing;
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
              srn: c.srn,
              user_id: userId,
              format: c.image.format,
              data: c.image.stored,
              size_bytes: c.image.size,
              sha256: c.image.sha256,
              created_at: ctx.now.toISOString(),
            })
            .returningAll(),
        );
        if (!inserted) throw new Error('signature insert returned nothing');
        return inserted;
      });
      return { ...success(['Signature stored']), Signature: signatureRecord(row) };
    },
  });

  implement(app, services, ep.getSignatures, {
    check: (body) => text(body, 'ServiceTransactionNumber'),
    async handle(srn, ctx) {
      const q = ctx.services.storage.read;
      const mid = ctx.principal.mid;
      if (srn !== undefined) {
        await paymentByReference(q, mid, srn);
      }
      let query = q.qb.selectFrom('signatures').selectAll().where('mid', '=', mid);
      if (srn !== undefined) query = query.where('srn', '=', srn);
      const rows = await q.all(query.orderBy('id'));
      return { ...success(), Signatures: rows.map(signatureRecord) };
    },
  });
}
