/**
 * The sandbox processor's test cards (DESIGN.md "Sandbox data"), as the simulators present them: each
 * with a cardholder name, an expiry in the future and a service code, so a script can swipe, tap or
 * key them. Only published test PANs belong here.
 */
import { type CardBrand, detectBrand } from '../protocols/card-brand';

/** What the sandbox processor does with the card (DESIGN.md). */
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

export type TestCard = {
  pan: string;
  brand: CardBrand;
  /** Track 1 form, `SURNAME/GIVEN` (§1). */
  name: string;
  /** YYMM, as on the tracks. */
  expiryYYMM: string;
  /** 101: international, normal authorisation, no restrictions (ISO/IEC 7813). */
  serviceCode: string;
  outcome: TestCardOutcome;
};

/** Debit and EBT test PIN of the sandbox (DESIGN.md). */
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

/**
 * Looks a card up by PAN. A PAN not in the list is refused: simulators must never be pointed at a real
 * card number.
 */
export function findTestCard(pan: string): TestCard | undefined {
  return TEST_CARDS.find((c) => c.pan === pan);
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
