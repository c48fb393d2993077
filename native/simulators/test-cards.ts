/**
 * The sandbox processor's test cards (docs/decisions.md#sandbox-data), as the simulators present them: each
 * with a cardholder name, an expiry in the future and a service code, so a script can swipe, tap or
 * key them. Only published test PANs belong here.
 */
import { type CardBrand, detectBrand } from '../protocols/card-brand';
import type { CryptogramVersionId, MasterKeys } from '../protocols/emv-cryptogram-versions';
import { hexToBytes } from '../protocols/hex';

/** What the sandbox processor does with the card (docs/decisions.md#sandbox-data). */
export type TestCardOutcome =
  | 'approve'
  | 'decline'
  | 'insufficient-funds'
  | 'expired'
  | 'cvn-fail'
  | 'partial'
  | 'slow'
  | 'unavailable'
  | 'gift'
  | 'ebt';

/** How the cardholder is verified, as the card's CVM list (8E) asks: a debit card's online PIN or a signature. */
export type ChipCvm = 'online-pin' | 'signature';

/**
 * The chip of a contact EMV card: its cryptogram version, PAN sequence number, CVM and application, and
 * the trigger behaviours of the sandbox. Its ICC master keys are derived from the sandbox issuer master
 * keys of its scheme (SANDBOX_ISSUER_MASTER_KEYS) when the simulator personalises it.
 */
export type ChipProfile = {
  cryptogramVersion: CryptogramVersionId;
  /** 5F34, two digits. */
  panSequenceNumber: string;
  cvm: ChipCvm;
  /** 84 / 4F. */
  aid: string;
  /** 50. */
  label: string;
  /**
   * `declines-after-approval`: the chip answers AAC at the 2nd GENERATE AC even after a good ARPC and an
   * approval; `unreadable`: the chip never answers reset, so the reader falls back to the stripe.
   */
  behaviour?: 'declines-after-approval' | 'unreadable';
  /**
   * The offline PIN the card is personalised with (SANDBOX_PIN unless said): what an issuer PIN change
   * script replaces. The sandbox never asks for it (its CVMs are online PIN and signature).
   */
  offlinePin?: string;
};

export type TestCard = {
  pan: string;
  brand: CardBrand;
  /** Track 1 form, `SURNAME/GIVEN` (docs/devices.md §1). */
  name: string;
  /** YYMM, as on the tracks. */
  expiryYYMM: string;
  /**
   * 101: international, normal authorisation, no restrictions (ISO/IEC 7813); 201: the same on a card with
   * an integrated circuit, whose swipe a terminal refuses until its chip has failed (ISO/IEC 7813 digit 1).
   */
  serviceCode: string;
  outcome: TestCardOutcome;
  /** Present on chip cards only. */
  chip?: ChipProfile;
};

/** Debit and EBT test PIN of the sandbox (docs/decisions.md#sandbox-data). */
export const SANDBOX_PIN = '1234';

/**
 * December, four years ahead of `now`: "any future expiry" for the sandbox, far enough that a run never
 * straddles it, and computed so the cards never go stale.
 */
export function futureExpiryYYMM(now: Date = new Date()): string {
  return `${String((now.getUTCFullYear() + 4) % 100).padStart(2, '0')}12`;
}

function card(pan: string, name: string, outcome: TestCardOutcome): TestCard {
  return { pan, brand: detectBrand(pan), name, expiryYYMM: futureExpiryYYMM(), serviceCode: '101', outcome };
}

export const TEST_CARDS: readonly TestCard[] = [
  card('4111111111111111', 'DOE/JOHN', 'approve'),
  card('4242424242424242', 'SMITH/ANNA', 'approve'),
  card('5555555555554444', 'GARCIA/MARIA', 'approve'),
  card('2223003122003222', 'NGUYEN/LINH', 'approve'),
  card('378282246310005', 'BROWN/JAMES', 'approve'),
  card('6011111111111117', 'MULLER/KARL', 'approve'),
  card('4000000000000002', 'DECLINE/TEST', 'decline'),
  card('4000000000009995', 'NSF/TEST', 'insufficient-funds'),
  card('4000000000000069', 'EXPIRED/TEST', 'expired'),
  card('4000000000000127', 'CVN/TEST', 'cvn-fail'),
  // The sandbox's triggers (README "Sandbox test cards"): partial approval above 20.00, a slow processor,
  // an unavailable processor.
  card('4000000000000341', 'PARTIAL/TEST', 'partial'),
  card('4000000000000119', 'SLOW/TEST', 'slow'),
  card('4000000000000259', 'DOWN/TEST', 'unavailable'),
  // Sandbox gift and EBT cards (docs/gateway-tenders.md), swiped like any card.
  card('6035710000000018', 'GIFT/CARD', 'gift'),
  card('6035710000000026', 'GIFT/CARD', 'gift'),
  card('6035710000000034', 'GIFT/CARD', 'gift'),
  card('5077010000000014', 'EBT/CARDHOLDER', 'ebt'),
  card('5077010000000022', 'EBT/CARDHOLDER', 'ebt'),
];

/** The default card of the simulators. */
export const DEFAULT_TEST_CARD: TestCard = TEST_CARDS[0] as TestCard;

const VISA_AID = 'A0000000031010';
const MASTERCARD_AID = 'A0000000041010';

function chipCard(pan: string, name: string, chip: ChipProfile): TestCard {
  return { ...card(pan, name, 'approve'), serviceCode: '201', chip };
}

const visaChip = (cvm: ChipCvm, behaviour?: ChipProfile['behaviour']): ChipProfile => ({
  cryptogramVersion: 'visa-18',
  panSequenceNumber: '01',
  cvm,
  aid: VISA_AID,
  label: cvm === 'online-pin' ? 'VISA DEBIT' : 'VISA CREDIT',
  ...(behaviour ? { behaviour } : {}),
});
const mastercardChip = (cvm: ChipCvm): ChipProfile => ({
  cryptogramVersion: 'mastercard-16',
  panSequenceNumber: '01',
  cvm,
  aid: MASTERCARD_AID,
  label: cvm === 'online-pin' ? 'DEBIT MASTERCARD' : 'MASTERCARD',
});

/**
 * The sandbox's contact chip cards (README "Sandbox test cards"): service code 201, a chip with Visa CVN
 * 18 or Mastercard CVN 16 keys, an online-PIN (debit) or signature CVM, and four triggers. They are
 * separate numbers from the stripe cards above, whose swipes stay service code 101.
 */
export const CHIP_TEST_CARDS: readonly TestCard[] = [
  chipCard('4012888888881881', 'CHIP/VISA', visaChip('signature')),
  chipCard('4000000000000408', 'CHIP/VISADEBIT', visaChip('online-pin')),
  chipCard('5100000000000016', 'CHIP/MASTERCARD', mastercardChip('signature')),
  chipCard('5200828282828210', 'CHIP/MCDEBIT', mastercardChip('online-pin')),
  chipCard('4000000000000416', 'CHIP/DECLINES', visaChip('signature', 'declines-after-approval')),
  chipCard('4000000000000424', 'CHIP/SCRIPT', visaChip('signature')),
  chipCard('4000000000000432', 'CHIP/UNREADABLE', visaChip('signature', 'unreadable')),
  // The issuer's approval carries a PIN change script (72) that sets the card's offline PIN to the
  // sandbox PIN; the card starts with another one, so the change shows.
  chipCard('5100000000000024', 'CHIP/PINCHANGE', { ...mastercardChip('signature'), offlinePin: '4321' }),
];

/**
 * The chip a tapped card answers with (its contactless application): a chip card's own; for a stripe
 * test card of a scheme the sandbox issuer holds keys for, that scheme's profile (Visa CVN 18, Mastercard
 * CVN 16) with PAN sequence number 00. Other brands (Amex, Discover, the gift and EBT cards): none — their
 * taps carry no cryptogram the sandbox issuer can verify.
 */
export function tapProfile(card: TestCard): ChipProfile | undefined {
  if (card.chip) return card.chip;
  if (card.outcome === 'gift' || card.outcome === 'ebt') return undefined;
  if (card.brand === 'Visa') return { ...visaChip('signature'), panSequenceNumber: '00' };
  if (card.brand === 'Mastercard') return { ...mastercardChip('signature'), panSequenceNumber: '00' };
  return undefined;
}

/** The card an insert presents when none is named: the Visa chip card. */
export const DEFAULT_CHIP_TEST_CARD: TestCard = CHIP_TEST_CARDS[0] as TestCard;

/**
 * The sandbox issuer's master keys per scheme (MK-AC, MK-SMI, MK-SMC; EMV Book 2 A1.4), published in the
 * README like the sandbox BDK: the simulated chips derive their ICC keys from them, and the gateway's
 * sandbox issuer holds the same values. Test keys, never a production key.
 */
export const SANDBOX_ISSUER_MASTER_KEYS: Readonly<Record<'visa' | 'mastercard', MasterKeys>> = {
  visa: {
    ac: hexToBytes('0123456789ABCDEFFEDCBA9876543210'),
    smi: hexToBytes('FEDCBA98765432100123456789ABCDEF'),
    smc: hexToBytes('89ABCDEF0123456776543210FEDCBA98'),
  },
  mastercard: {
    ac: hexToBytes('11111111111111112222222222222222'),
    smi: hexToBytes('33333333333333334444444444444444'),
    smc: hexToBytes('55555555555555556666666666666666'),
  },
};

/**
 * Looks a card up by PAN. A PAN not in the list is refused: simulators must never be pointed at a real
 * card number.
 */
export function findTestCard(pan: string): TestCard | undefined {
  return TEST_CARDS.find((c) => c.pan === pan) ?? CHIP_TEST_CARDS.find((c) => c.pan === pan);
}

// ISO/IEC 7811-2 capacities without SS, ES and LRC: track 1 holds 76 characters, track 2 37.
const TRACK1_BODY_MAX = 76;
const TRACK2_BODY_MAX = 37;

/**
 * Track 1 format B between its sentinels: `%B PAN ^ NAME ^ YYMM SVC discretionary ?` (§1), with the
 * zero-filled discretionary data of the reference's example, shortened for long PANs.
 */
export function track1For(c: TestCard): string {
  const head = `B${c.pan}^${c.name}^${c.expiryYYMM}${c.serviceCode}`;
  const disc = '0'.repeat(Math.max(0, Math.min(18, TRACK1_BODY_MAX - head.length)));
  return `%${head}${disc}?`;
}

/** Track 2: `; PAN = YYMM SVC discretionary ?` (§1). */
export function track2For(c: TestCard): string {
  const head = `${c.pan}=${c.expiryYYMM}${c.serviceCode}`;
  const disc = '0'.repeat(Math.max(0, Math.min(13, TRACK2_BODY_MAX - head.length)));
  return `;${head}${disc}?`;
}
