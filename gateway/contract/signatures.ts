import { Type, type Static } from 'typebox';
import { Int32, Text, withBase, withEnvelope } from './common';
import { endpoint } from './endpoint';

/** Decoded size limit of one signature image. */
export const SIGNATURE_MAX_BYTES = 256 * 1024;

export const SignatureAddRequest = withEnvelope({
  ServiceTransactionNumber: Type.Optional(
    Text(64, { description: 'the transaction signed for, of this merchant (required in practice)' }),
  ),
  SignatureData: Type.Optional(
    // No maxLength here: the size rule has its own code (608), checked on the decoded bytes; the
    // endpoint's bodyLimit caps what is read at all.
    Type.String({
      description:
        'a PNG as base64 (optionally a data:image/png;base64, URL) or an SVG document as text; at most 256 KiB decoded',
    }),
  ),
});
export type SignatureAddRequest = Static<typeof SignatureAddRequest>;

export const SignatureListRequest = withEnvelope({
  ServiceTransactionNumber: Type.Optional(
    Text(64, { description: "the transaction's signatures; every signature of the merchant when left out" }),
  ),
});
export type SignatureListRequest = Static<typeof SignatureListRequest>;

export const SignatureRecord = Type.Object({
  Id: Int32(),
  ServiceTransactionNumber: Type.String(),
  Format: Type.Union([Type.Literal('png'), Type.Literal('svg')]),
  SignatureData: Type.String({ description: 'as stored: PNG base64 or SVG text' }),
  Size: Int32({ description: 'decoded bytes' }),
  AddedOn: Type.String({ format: 'date-time' }),
});
export type SignatureRecord = Static<typeof SignatureRecord>;

export const SignatureAddResponse = withBase({ Signature: SignatureRecord });
export type SignatureAddResponse = Static<typeof SignatureAddResponse>;

export const SignaturesResponse = withBase({ Signatures: Type.Array(SignatureRecord) });
export type SignaturesResponse = Static<typeof SignaturesResponse>;

const group = 'Signature Capture';

export const signatureEndpoints = {
  add: endpoint({
    method: 'POST',
    path: '/api/SignatureCapture/Add',
    group,
    summary: 'Attach a PNG or SVG signature to a transaction of the merchant (one per transaction)',
    auth: 'envelope',
    body: SignatureAddRequest,
    response: SignatureAddResponse,
    // The signature rides in the body: room for 256 KiB decoded as base64, plus the envelope.
    bodyLimit: 512 * 1024,
  }),
  getSignatures: endpoint({
    method: 'POST',
    path: '/api/SignatureCapture/GetSignatures',
    group,
    summary: "A transaction's signature, or every signature of the merchant",
    auth: 'envelope',
    body: SignatureListRequest,
    response: SignaturesResponse,
  }),
};
