import { encryptTdesDukptPinBlock } from '../../../native/protocols/dukpt-tdes';
import { SANDBOX_BDK, SANDBOX_PIN } from '../../../gateway/sandbox/test-cards';
import { merchant1, utn, type Json, type TestGateway } from '../../support/gateway-harness';

/** Sandbox numbers of docs/gateway-tenders.md. */
export const gift = {
  hundred: '6035710000000018',
  twentyFive: '6035710000000026',
  empty: '6035710000000034',
  notActivated: '6035710000000042',
  deactivated: '6035710000000059',
  /** Not pre-issued: unknown until Activate. */
  fresh: '6035710000000091',
} as const;

export const ebt = {
  rich: '5077010000000014',
  poor: '5077010000000022',
  empty: '5077010000000030',
  /** Luhn-valid, not an account of the sandbox EBT issuer. */
  unknown: '5077010000000097',
} as const;

let ksnCounter = 1;

/** A fresh KSN (the counter must be non-zero and moves on, as a PIN pad's does) and the PIN block for it. */
export function pinFor(pan: string, pin: string = SANDBOX_PIN): { KSN: string; PinBlock: string } {
  ksnCounter += 1;
  const KSN = 'FFFF9876543210E' + ksnCounter.toString(16).toUpperCase().padStart(5, '0');
  return { KSN, PinBlock: encryptTdesDukptPinBlock({ bdk: SANDBOX_BDK, ksn: KSN, pin, pan }) };
}

export function giftBody(card: string, overrides: Json = {}, envelope: Json = merchant1): Json {
  return {
    ...envelope,
    CardNumber: card,
    TransactionType: 7,
    UserTransactionNumber: utn('gift'),
    ForceDuplication: true,
    ...overrides,
  };
}

export function ebtBody(card: string, overrides: Json = {}, envelope: Json = merchant1): Json {
  return {
    ...envelope,
    CardNumber: card,
    TransactionType: 6,
    UserTransactionNumber: utn('ebt'),
    ForceDuplication: true,
    ...pinFor(card),
    ...overrides,
  };
}

/** POST /api/Auth and return the bearer header of the Reporting group. */
export async function bearer(gw: TestGateway, envelope: Json = merchant1): Promise<Record<string, string>> {
  const r = await gw.post('/api/Auth', envelope);
  if (typeof r.body.Token !== 'string') throw new Error(`no token: ${JSON.stringify(r.body)}`);
  return { authorization: `Bearer ${r.body.Token}` };
}

/** Every string of a JSON answer, for "no PAN / account number anywhere" assertions. */
export function allText(value: unknown): string {
  return JSON.stringify(value);
}
