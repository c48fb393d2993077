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

export type SandboxCard = {
  pan: string;
  brand: string;
  behaviour: SandboxCardBehaviour;
  note: string;
  /** A contact chip card (docs/chip.md): its ARQC is checked when read by the chip (9F39 05) or tapped. */
  chip?: {
    cvn: string;
    cvm: 'online PIN' | 'signature';
    /**
     * What the approval carries: `put-data-and-unblock`, scripts 71 (PUT DATA) and 72 (PIN UNBLOCK);
     * `pin-change`, script 72 setting the card's offline PIN to the sandbox PIN (PIN CHANGE/UNBLOCK).
     */
    issuerScripts?: 'put-data-and-unblock' | 'pin-change';
    trigger?: string;
  };
};

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
  // Contact chip cards (service code 201): the chip's ARQC is verified, the issuer answers with an ARPC.
  chipCard('4012888888881881', 'Visa', { cvn: 'Visa CVN 18', cvm: 'signature' }),
  chipCard('4000000000000408', 'Visa', { cvn: 'Visa CVN 18', cvm: 'online PIN' }),
  chipCard('5100000000000016', 'Mastercard', { cvn: 'Mastercard CVN 16', cvm: 'signature' }),
  chipCard('5200828282828210', 'Mastercard', { cvn: 'Mastercard CVN 16', cvm: 'online PIN' }),
  chipCard('4000000000000416', 'Visa', {
    cvn: 'Visa CVN 18',
    cvm: 'signature',
    trigger: 'the issuer approves, the chip declines (AAC at the 2nd GENERATE AC): the terminal must reverse',
  }),
  chipCard('4000000000000424', 'Visa', {
    cvn: 'Visa CVN 18',
    cvm: 'signature',
    issuerScripts: 'put-data-and-unblock',
    trigger: 'the approval carries issuer scripts 71 and 72 (PUT DATA, PIN UNBLOCK) with their MACs',
  }),
  chipCard('5100000000000024', 'Mastercard', {
    cvn: 'Mastercard CVN 16',
    cvm: 'signature',
    issuerScripts: 'pin-change',
    trigger:
      "the approval carries a PIN change script (72: the card's offline PIN becomes 1234, enciphered and MACed); the card reports it in 9F5B",
  }),
  chipCard('4000000000000432', 'Visa', {
    cvn: 'Visa CVN 18',
    cvm: 'signature',
    trigger: 'the chip cannot be read: the reader falls back to the stripe (ChipFallbackSwipe)',
  }),
];

function chipCard(pan: string, brand: string, chip: NonNullable<SandboxCard['chip']>): SandboxCard {
  const note = `chip card (${chip.cvn}, ${chip.cvm}): approves${chip.trigger ? `; ${chip.trigger}` : ''}`;
  return { pan, brand, behaviour: { kind: 'approve' }, note, chip };
}

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

/** Which scripts the sandbox issuer sends to this chip card with its approval, if any. */
export function issuerScriptsOf(pan: string): NonNullable<SandboxCard['chip']>['issuerScripts'] {
  return byPan.get(pan)?.chip?.issuerScripts;
}
