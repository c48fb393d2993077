/**
 * Device-wallet tokens. Real wallet payloads are encrypted to the merchant's processing certificate; the
 * sandbox stands in for that decryption with a documented convention (README, "Device wallets"): the
 * encrypted field holds base64 of the JSON the wallet would decrypt to. Every shape the interface lists
 * is accepted around it.
 */

export type WalletCard = { pan: string; expiryYYMM: string; cryptogram?: string };
export type WalletResult = { ok: true; card: WalletCard } | { ok: false; reason: string };

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A value that may be an object or that object as a JSON string ("either inner value as a JSON string"). */
function asObject(v: unknown): Json | undefined {
  if (isObject(v)) return v;
  if (typeof v === 'string') {
    const parsed = parseJson(v);
    return isObject(parsed) ? parsed : undefined;
  }
  return undefined;
}

function fromBase64Json(text: string): unknown {
  if (!/^[A-Za-z0-9+/=_-]+$/.test(text.trim())) return undefined;
  return parseJson(Buffer.from(text, 'base64').toString('utf8'));
}

function expiryFromYYMMDD(v: unknown): string | undefined {
  return typeof v === 'string' && /^\d{6}$/.test(v) ? v.slice(0, 4) : undefined;
}

/**
 * Device wallet A: Token is base64 of JSON that is one of: `{ paymentData: {...} }`, `{ token: { paymentData } }`
 * or `{ token: {...payment data...} }`, a bare `{ data, signature, version, header }`, or any of these with
 * the inner value as a JSON string.
 */
export function decodeWalletAToken(token: string): WalletResult {
  const outer = fromBase64Json(token);
  let node = asObject(outer);
  if (!node) return { ok: false, reason: 'Token is not base64 of a JSON object' };
  for (let depth = 0; depth < 3 && node && !('data' in node); depth += 1) {
    node = asObject(node.paymentData) ?? asObject(node.token);
  }
  if (!node || typeof node.data !== 'string') return { ok: false, reason: 'Token has no payment data' };
  if (typeof node.signature !== 'string' || typeof node.version !== 'string' || !isObject(node.header)) {
    return { ok: false, reason: 'Token payment data lacks signature, version or header' };
  }
  const decrypted = asObject(fromBase64Json(node.data));
  const pan = decrypted?.applicationPrimaryAccountNumber;
  const expiry = expiryFromYYMMDD(decrypted?.applicationExpirationDate);
  if (typeof pan !== 'string' || !/^\d{12,19}$/.test(pan) || !expiry) {
    return { ok: false, reason: 'Token payment data does not decrypt to a card' };
  }
  const pd = asObject(decrypted?.paymentData);
  const cryptogram = pd?.onlinePaymentCryptogram;
  return {
    ok: true,
    card: { pan, expiryYYMM: expiry, ...(typeof cryptogram === 'string' ? { cryptogram } : {}) },
  };
}

/**
 * Device wallet B: Token is the wallet's JSON token `{ signature, protocolVersion, signedMessage }` (as text,
 * or base64 of it); signedMessage is a JSON string whose `encryptedMessage` stands for the encrypted
 * payment method details.
 */
export function decodeWalletBToken(token: string): WalletResult {
  const outer = asObject(token) ?? asObject(fromBase64Json(token));
  if (!outer) return { ok: false, reason: 'Token is not a wallet token' };
  if (typeof outer.signature !== 'string' || typeof outer.protocolVersion !== 'string') {
    return { ok: false, reason: 'Token lacks signature or protocolVersion' };
  }
  const signed = asObject(outer.signedMessage);
  if (!signed || typeof signed.encryptedMessage !== 'string')
    return { ok: false, reason: 'Token has no signedMessage' };
  const message = asObject(fromBase64Json(signed.encryptedMessage));
  const details = asObject(message?.paymentMethodDetails);
  const pan = details?.pan;
  const month = details?.expirationMonth;
  const year = details?.expirationYear;
  if (
    typeof pan !== 'string' ||
    !/^\d{12,19}$/.test(pan) ||
    typeof month !== 'number' ||
    typeof year !== 'number'
  ) {
    return { ok: false, reason: 'Token does not decrypt to a card' };
  }
  const expiry = String(year % 100).padStart(2, '0') + String(month).padStart(2, '0');
  const cryptogram = details?.cryptogram;
  return {
    ok: true,
    card: { pan, expiryYYMM: expiry, ...(typeof cryptogram === 'string' ? { cryptogram } : {}) },
  };
}
