import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { SIGNATURE_MAX_BYTES } from '../contract/signatures';
import { ResponseCode } from '../contract/response-codes';
import type { SignatureFormat } from '../storage/schema-commerce';
import { svgProblem } from './svg-allowlist';

/** Largest side of a signature image: pads are a few hundred pixels; this bounds what a viewer must decode. */
export const SIGNATURE_MAX_SIDE = 4096;

export type CheckedSignature =
  | { ok: true; format: SignatureFormat; stored: string; size: number; sha256: string }
  | { ok: false; code: number; reason: string };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Valid (colour type → bit depths) pairs of PNG's IHDR (ISO/IEC 15948 §11.2.2). */
const PNG_DEPTHS: Readonly<Record<number, readonly number[]>> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

const invalid = (reason: string): CheckedSignature => ({
  ok: false,
  code: ResponseCode.InvalidSignature,
  reason,
});
const tooLarge = (reason: string): CheckedSignature => ({
  ok: false,
  code: ResponseCode.SignatureTooLarge,
  reason,
});

/**
 * A PNG as base64: the 8-byte signature, IHDR first with sane dimensions and a legal depth/colour pair,
 * every chunk's CRC, at least one IDAT, and IEND last. The pixels are not inflated: the structure is what a
 * stored signature must get right, and inflating attacker data costs memory.
 */
function checkPng(text: string): CheckedSignature {
  const b64 = text.replace(/^data:image\/png;base64,/i, '').replace(/\s+/g, '');
  if (b64.length === 0 || b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64))
    return invalid('SignatureData is neither base64 PNG data nor an SVG document');
  const size = (b64.length / 4) * 3 - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);
  if (size > SIGNATURE_MAX_BYTES)
    return tooLarge(`SignatureData exceeds ${SIGNATURE_MAX_BYTES / 1024} KiB decoded`);
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE))
    return invalid('SignatureData is base64 but not a PNG (bad signature bytes)');
  let offset = 8;
  let first = true;
  let sawData = false;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (length > 0x7fffffff || end > bytes.length)
      return invalid(`PNG chunk ${JSON.stringify(type)} is truncated`);
    const crc = bytes.readUInt32BE(offset + 8 + length);
    if (crc32(bytes.subarray(offset + 4, offset + 8 + length)) !== crc)
      return invalid(`PNG chunk ${JSON.stringify(type)} fails its CRC`);
    if (first) {
      if (type !== 'IHDR' || length !== 13) return invalid('PNG does not start with a 13-byte IHDR chunk');
      const width = bytes.readUInt32BE(offset + 8);
      const height = bytes.readUInt32BE(offset + 12);
      const depth = bytes[offset + 16] ?? 0;
      const colour = bytes[offset + 17] ?? 0;
      const [compression, filter, interlace] = [bytes[offset + 18], bytes[offset + 19], bytes[offset + 20]];
      if (width === 0 || height === 0) return invalid('PNG IHDR has a zero width or height');
      if (width > SIGNATURE_MAX_SIDE || height > SIGNATURE_MAX_SIDE)
        return tooLarge(`PNG is larger than ${SIGNATURE_MAX_SIDE}×${SIGNATURE_MAX_SIDE} pixels`);
      if (!(PNG_DEPTHS[colour] ?? []).includes(depth))
        return invalid('PNG IHDR has an invalid colour type and bit depth');
      if (compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1))
        return invalid('PNG IHDR has an unknown compression, filter or interlace method');
      first = false;
    } else if (type === 'IHDR') {
      return invalid('PNG has a second IHDR chunk');
    }
    if (type === 'IDAT') sawData = true;
    offset = end;
    if (type === 'IEND') {
      if (offset !== bytes.length) return invalid('PNG has data after IEND');
      if (!sawData) return invalid('PNG has no image data (IDAT)');
      return {
        ok: true,
        format: 'png',
        stored: b64,
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      };
    }
  }
  return invalid('PNG ends without an IEND chunk');
}

function checkSvg(text: string): CheckedSignature {
  const svg = text.trim();
  const size = Buffer.byteLength(svg, 'utf8');
  if (size > SIGNATURE_MAX_BYTES) return tooLarge(`SignatureData exceeds ${SIGNATURE_MAX_BYTES / 1024} KiB`);
  if (!/^<svg[\s>]/.test(svg) || !/<\/svg>$/.test(svg))
    return invalid('An SVG signature must be one <svg>…</svg> document');
  // Parsed and allow-listed (svg-allowlist.ts), not searched for known-bad patterns.
  const problem = svgProblem(svg);
  if (problem) return invalid(`The SVG signature contains ${problem}, which is not allowed`);
  return {
    ok: true,
    format: 'svg',
    stored: svg,
    size,
    sha256: createHash('sha256').update(svg, 'utf8').digest('hex'),
  };
}

/** SignatureData as a PNG (base64) or an SVG (text starting `<svg`), validated and size-limited. */
export function checkSignatureData(data: string): CheckedSignature {
  return data.trimStart().startsWith('<') ? checkSvg(data) : checkPng(data);
}
