import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type TokenScope = 'reporting' | 'threeds';

export type TokenClaims = {
  /** ApiKey: the token's id. */
  kid: string;
  mid: number;
  cid: number;
  uid: number;
  scope: TokenScope;
  /** Seconds since the epoch. */
  iat: number;
  exp: number;
};

function sign(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

/** `payload.signature`, both base64url; HMAC-SHA256 with the gateway's token key. */
export function issueToken(
  key: Buffer,
  claims: Omit<TokenClaims, 'kid' | 'iat' | 'exp'>,
  ttlSeconds: number,
  now: Date,
): { token: string; claims: TokenClaims } {
  const iat = Math.floor(now.getTime() / 1000);
  const full: TokenClaims = {
    ...claims,
    kid: randomBytes(12).toString('base64url'),
    iat,
    exp: iat + ttlSeconds,
  };
  const payload = Buffer.from(JSON.stringify(full)).toString('base64url');
  return { token: `${payload}.${sign(key, payload)}`, claims: full };
}

export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; reason: string };

export function verifyToken(key: Buffer, token: string, now: Date, scope: TokenScope): TokenCheck {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return { ok: false, reason: 'malformed token' };
  const expected = Buffer.from(sign(key, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, reason: 'bad token signature' };
  }
  let claims: TokenClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenClaims;
  } catch {
    return { ok: false, reason: 'malformed token' };
  }
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now.getTime())
    return { ok: false, reason: 'token expired' };
  if (claims.scope !== scope) return { ok: false, reason: `token is not valid for ${scope}` };
  return { ok: true, claims };
}
