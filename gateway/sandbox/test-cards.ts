import { DeclineCode } from '../contract/decline-codes';

/**
 * The sandbox processor's behaviour by card number (README "Sandbox test cards" renders this table).
 * Any future expiry and any CVN work unless the row says otherwise.
 */
export type SandboxCardBehaviour =
  | { kind: 'approve' }
  | { kind: 'decline'; code: number; message: string }
  | { kind: 'cvn-fail' }
  | { kind: 'partial'; availableCents: number }
  | { kind: 'slow' }
  | { kind: 'unavailable' };

export type SandboxCard = { pan: string; brand: string; behaviour: SandboxCardBehaviour; note: string };

export const sandboxCards: readonly SandboxCard[] = [
  { pan: '4111111111111111', brand: 'Visa', behaviour: { kind: 'approve' }, note: 'approves' },
  { pan: '4242424242424242', brand: 'Visa', behaviour: { kind: 'approve' }, note: 'approves' },
  { pan: '5555555555554444', brand: 'Mastercard', behaviour: { kind: 'approve' }, note: 'approves' },
  { pan: '2223003122003222', brand: 'Mastercard', behaviour: { kind: 'approve' }, note: 'approves' },
  { pan: '378282246310005', brand: 'Amex', behaviour: { kind: 'approve' }, note: 'approves' },
  { pan: '6011111111111117', brand: 'Discover', behaviour: { kind: 'approve' }, note: 'approves' },
  {
    pan: '4000000000000002',
    brand: 'Visa',
    behaviour: { kind: 'decline', code: DeclineCode.Declined, message: 'Do not honor' },
    note: 'declines (100)',
  },
  {
    pan: '4000000000009995',
    brand: 'Visa',
    behaviour: { kind: 'decline', code: DeclineCode.InsufficientFunds, message: 'Insufficient funds' },
    note: 'declines for insufficient funds (101)',
  },
  {
    pan: '4000000000000069',
    brand: 'Visa',
    behaviour: { kind: 'decline', code: DeclineCode.ExpiredCard, message: 'Expired card' },
    note: 'expired (102), whatever ExpDate says',
  },
  {
    pan: '4000000000000127',
    brand: 'Visa',
    behaviour: { kind: 'cvn-fail' },
    note: 'fails the CVN check (103)',
  },
  {
    pan: '4000000000000341',
    brand: 'Visa',
    behaviour: { kind: 'partial', availableCents: 2_000 },
    note: 'holds 20.00: a card-present sale above that is partially approved for 20.00 (210); keyed/e-commerce declines (101)',
  },
  {
    pan: '4000000000000119',
    brand: 'Visa',
    behaviour: { kind: 'slow' },
    note: 'slow processor: approves after the sandbox delay (3 s by default, --sandbox-slow-ms), for timeout tests',
  },
  {
    pan: '4000000000000259',
    brand: 'Visa',
    behaviour: { kind: 'unavailable' },
    note: 'processor unavailable (502): nothing is charged',
  },
];

export const SANDBOX_PIN = '1234';

/** The published ANSI X9.24-1 test BDK: the sandbox PIN pad and the sandbox issuer share it. */
export const SANDBOX_BDK = '0123456789ABCDEFFEDCBA9876543210';

/** AVS triggers: a ZipCode of 99999 fails the zip check; a Street starting with 999 fails the address check. */
export const AVS_FAIL_ZIP = '99999';
export const AVS_FAIL_STREET_PREFIX = '999';

const byPan = new Map(sandboxCards.map((c) => [c.pan, c]));

export function sandboxBehaviour(pan: string): SandboxCardBehaviour {
  return byPan.get(pan)?.behaviour ?? { kind: 'approve' };
}
