import type { FastifyInstance } from 'fastify';
import { ResponseCode } from '../contract/response-codes';
import { signatureEndpoints as ep, type SignatureRecord } from '../contract/signatures';
import { success } from '../domain/outcome';
import { checkSignatureData } from '../domain/signature-image';
import { addSignature, merchantSignatures, type SignatureRow } from '../domain/signatures';
import { requiredText, text } from '../http/checks';
import { implement } from '../http/operation';
import type { GatewayServices } from '../http/services';

function signatureRecord(s: SignatureRow): SignatureRecord {
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
      const row = await addSignature(ctx.services.storage, ctx.principal, c.srn, c.image, ctx.now);
      return { ...success(['Signature stored']), Signature: signatureRecord(row) };
    },
  });

  implement(app, services, ep.getSignatures, {
    check: (body) => text(body, 'ServiceTransactionNumber'),
    async handle(srn, ctx) {
      const rows = await merchantSignatures(ctx.services.storage.read, ctx.principal.mid, srn);
      return { ...success(), Signatures: rows.map(signatureRecord) };
    },
  });
}
