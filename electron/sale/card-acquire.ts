import type { CardEntry, KeyedCard, SaleStep } from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import { detectBrand } from '../../native/protocols/card-brand';
import { readEmvCardData } from '../../native/protocols/emv-sanitize';
import { isLuhnValid } from '../../native/protocols/luhn';
import { lastFour, maskPan } from '../../native/protocols/pan-mask';
import type { CardReaderEvent, ChipCvm, ChipStartResult, RoleApi } from '../../native/drivers/roles';

/**
 * A card as the sale engine holds it for the one authorization request it is read for. The PAN, tracks
 * and EMV data live only in this object, in memory, until the request is built; everything that is
 * logged, journaled or shown uses `maskedPan` / `last4`.
 */
export type AcquiredCard =
  | {
      source: 'swipe';
      track2: string;
      pan: string;
      expiryYYMM: string;
      name?: string;
      maskedPan: string;
      last4: string;
      brand: string;
      entry: 'swipe';
      /** ISO/IEC 7813: a first digit 2 or 6 says the card has a chip. */
      serviceCode: string;
      /** The swipe of a chip card whose chip failed first: PosEntryMode ChipFallbackSwipe. */
      fallback?: boolean;
    }
  | {
      source: 'emv';
      emvHex: string;
      pan: string;
      maskedPan: string;
      last4: string;
      brand: string;
      entry: 'chip' | 'contactless';
      /**
       * A contact chip read that went online (ARQC): the card is still in the slot, in its transaction,
       * and waits for the issuer's answer (chip-sale.ts). `cvm` is what its CVM list (8E) asks for.
       */
      chip?: { cvm: ChipCvm };
    }
  | {
      source: 'keyed';
      pan: string;
      expiry: string;
      cvn?: string;
      zip?: string;
      street?: string;
      maskedPan: string;
      last4: string;
      brand: string;
      entry: 'keyed';
    };

export type Prompt = (step: SaleStep, prompt: string, timeoutSeconds?: number) => void;

export type AcquireOptions = {
  devices: RoleApi | undefined;
  entry: CardEntry;
  keyed?: KeyedCard | undefined;
  /** Everything the card is charged, cash back included (9F02 for a chip). */
  amountCents: number;
  /** The cash back part of `amountCents` (9F03). */
  otherAmountCents?: number;
  timeoutMs: number;
  signal: AbortSignal;
  prompt: Prompt;
  /** Which readers are connected right now. */
  connected: (role: 'cardReader' | 'contactless') => boolean;
  /**
   * `complete`: an inserted chip card runs its EMV transaction and the caller completes it with the
   * issuer's answer (a sale). `none`: the caller cannot (a balance inquiry): the EMV reader only listens
   * for a tap, and swipes are taken as they come. Default `complete`.
   */
  chip?: 'complete' | 'none';
  /** Failed chip reads before a chip card's swipe is taken as a fallback (settings `sale`). Default 1. */
  chipFallbackAfterFailures?: number;
};

export type AcquireResult =
  | { kind: 'card'; card: AcquiredCard }
  | { kind: 'cancelled' }
  | { kind: 'timeout' }
  /** Nothing more can read this card here (e.g. its chip failed and no stripe reader is connected). */
  | { kind: 'failed'; reason: string };

/** A keyed card, checked enough that an obvious typo is caught before a number is spent on it. */
export function keyedCard(k: KeyedCard | undefined): AcquiredCard {
  if (!k || typeof k.cardNumber !== 'string' || typeof k.expiry !== 'string')
    throw new BridgeFailure('invalid', 'Keyed entry needs the card number and expiry (MMYY).', {
      messageId: 'sale.keyedNeeds',
    });
  const pan = k.cardNumber.replace(/[\s-]/g, '');
  const problems: string[] = [];
  if (!/^\d{12,19}$/.test(pan) || !isLuhnValid(pan)) problems.push('The card number is not valid.');
  if (!/^(0[1-9]|1[0-2])\d{2}$/.test(k.expiry)) problems.push('The expiry must be MMYY.');
  if (k.cvn !== undefined && !/^\d{3,4}$/.test(k.cvn)) problems.push('The security code is 3 or 4 digits.');
  if (problems.length > 0) throw new BridgeFailure('invalid', problems.join(' '), { problems });
  return {
    source: 'keyed',
    pan,
    expiry: k.expiry,
    ...(k.cvn ? { cvn: k.cvn } : {}),
    ...(k.zip ? { zip: k.zip } : {}),
    ...(k.street ? { street: k.street } : {}),
    maskedPan: maskPan(pan),
    last4: lastFour(pan),
    brand: detectBrand(pan),
    entry: 'keyed',
  };
}

/**
 * ISO/IEC 7813 service code, first digit: 2 (international) or 6 (national) interchange with an
 * integrated circuit. Such a card's stripe is for fallback only where the terminal reads chips.
 */
export function hasChip(serviceCode: string): boolean {
  return /^[26]\d\d$/.test(serviceCode);
}

/** The card from EMV TLV (5A or 57): the PAN stays in memory for the PIN block only. */
export function emvCard(emvHex: string, entry: 'chip' | 'contactless'): AcquiredCard | undefined {
  const read = readEmvCardData(emvHex);
  if (!read.ok) return undefined;
  const pan = read.value.pan;
  return {
    source: 'emv',
    emvHex,
    pan,
    maskedPan: maskPan(pan),
    last4: lastFour(pan),
    brand: detectBrand(pan),
    entry,
  };
}

function swipeCard(e: Extract<CardReaderEvent, { kind: 'swipe' }>): AcquiredCard | undefined {
  const m = /^(\d{12,19})=(\d{4})/.exec(e.track2);
  if (!m?.[1] || !m[2]) return undefined;
  return {
    source: 'swipe',
    track2: e.track2,
    pan: m[1],
    expiryYYMM: m[2],
    ...(e.cardholderName ? { name: e.cardholderName } : {}),
    maskedPan: e.maskedPan,
    last4: e.last4,
    brand: e.brand,
    entry: 'swipe',
    serviceCode: e.serviceCode,
  };
}

/** Cashier's words for the chip steps (docs/screens.md). */
export const CHIP_PROMPTS = {
  doNotRemove: 'Do not remove the card',
  insertChipCard: 'Chip card: insert the card',
  insertAgain: 'Chip could not be read — insert the card again',
  swipeFallback: 'Chip could not be read — swipe the card',
  removedTooSoon: 'Card removed too soon — insert the card again',
} as const;

const waitingPrompt: Record<Exclude<CardEntry, 'keyed'>, string> = {
  present: 'Insert, tap or swipe',
  swipe: 'Swipe card',
  chip: 'Insert card',
  contactless: 'Tap card',
};

// rule: chip-fallback
/**
 * Waits for a card on the readers the entry allows; the first card wins and the other readers are
 * cancelled. `present` listens on the magstripe reader and on the EMV reader for an insert or a tap
 * (one 02-40 for both interfaces); `chip` on the contact slot; `contactless` for a tap. A bad swipe asks
 * for another swipe instead of failing the tender.
 *
 * Chip fallback (Visa/Mastercard rules for a chip-capable terminal): the swipe of a chip card (service
 * code 2xx/6xx) is refused with "insert the card" until the chip has failed `chipFallbackAfterFailures`
 * times in this wait (unreadable chip, card not answering, reader error); then the swipe is taken and
 * marked `fallback` (PosEntryMode ChipFallbackSwipe).
 */
export async function acquireCard(o: AcquireOptions): Promise<AcquireResult> {
  if (o.entry === 'keyed') return { kind: 'card', card: keyedCard(o.keyed) };
  const completes = (o.chip ?? 'complete') === 'complete';
  const emvReader = o.connected('contactless');
  const swipeReader = o.connected('cardReader');
  const useSwipe = (o.entry === 'present' || o.entry === 'swipe') && swipeReader;
  // A chip transaction only where the caller completes it with the issuer's answer.
  const useChip = completes && (o.entry === 'present' || o.entry === 'chip') && emvReader;
  const useTap = (o.entry === 'contactless' || (!completes && o.entry === 'present')) && emvReader;
  if (!o.devices || (!useSwipe && !useChip && !useTap)) {
    throw new BridgeFailure(
      'device',
      o.entry === 'swipe'
        ? 'The card reader is not connected. Key the card or ask a tech to check the reader.'
        : 'No card reader is connected. Key the card or ask a tech to check the readers.',
      { messageId: o.entry === 'swipe' ? 'sale.noSwipeReader' : 'sale.noCardReader' },
    );
  }
  const devices = o.devices;
  if (o.signal.aborted) return { kind: 'cancelled' };
  o.prompt('waiting-for-card', waitingPrompt[o.entry], Math.round(o.timeoutMs / 1000));
  const deadline = Date.now() + o.timeoutMs;
  const threshold = Math.max(1, Math.floor(o.chipFallbackAfterFailures ?? 1));
  // The chip is the networks' rule only where this wait can read one.
  const chipCapable = completes && emvReader;

  return new Promise<AcquireResult>((resolve) => {
    let done = false;
    const cleanups: (() => void)[] = [];
    const finish = (r: AcquireResult): void => {
      if (done) return;
      done = true;
      for (const c of cleanups) c();
      resolve(r);
    };
    const timer = setTimeout(() => finish({ kind: 'timeout' }), o.timeoutMs);
    cleanups.push(() => clearTimeout(timer));
    const onAbort = (): void => finish({ kind: 'cancelled' });
    o.signal.addEventListener('abort', onAbort, { once: true });
    cleanups.push(() => o.signal.removeEventListener('abort', onAbort));

    let swipeListening = false;
    let chipOut = false;
    let chipFailures = 0;
    /** No other reader can still bring a card: this one's end is the wait's end. */
    const alone = (): boolean => !swipeListening && !chipOut;

    const listenSwipe = (): void => {
      if (swipeListening || done) return;
      swipeListening = true;
      const off = devices.cardReader.onCard((e) => {
        if (done) return;
        if (e.kind === 'read-error') {
          o.prompt(
            'waiting-for-card',
            `Could not read the card: swipe again${useChip || useTap ? ', insert or tap' : ''}`,
          );
          return;
        }
        const card = swipeCard(e);
        if (!card) {
          o.prompt('waiting-for-card', 'Could not read the card: swipe again');
          return;
        }
        if (card.source === 'swipe' && chipCapable && hasChip(card.serviceCode)) {
          if (chipFailures < threshold) {
            // A chip card's stripe is for fallback only: read the chip first.
            o.prompt('waiting-for-card', CHIP_PROMPTS.insertChipCard);
            startChip(false);
            return;
          }
          card.fallback = true;
        }
        o.prompt('reading-card', 'Reading card…');
        finish({ kind: 'card', card });
      });
      cleanups.push(off);
    };

    /** One chip failure more: read it again, or — at the threshold — ask for the swipe. */
    const chipFailed = (): void => {
      chipFailures += 1;
      if (chipFailures < threshold) {
        o.prompt('waiting-for-card', CHIP_PROMPTS.insertAgain);
        startChip(false);
        return;
      }
      if (!swipeReader) {
        finish({
          kind: 'failed',
          reason: 'the chip could not be read and no card reader is connected to swipe it: key the card',
        });
        return;
      }
      o.prompt('waiting-for-card', CHIP_PROMPTS.swipeFallback);
      listenSwipe();
    };

    const onChip = (r: ChipStartResult): void => {
      switch (r.kind) {
        case 'online': {
          const card = emvCard(r.emvTlvHex, 'chip');
          if (!card || card.source !== 'emv') {
            void devices.chipReader.cancel().catch(() => undefined);
            chipFailed();
            return;
          }
          card.chip = { cvm: r.cvm };
          // The card stays in its transaction until the issuer's answer reaches it (Book 4 §6.3.8).
          o.prompt('reading-card', CHIP_PROMPTS.doNotRemove);
          finish({ kind: 'card', card });
          return;
        }
        case 'contactless': {
          const card = emvCard(r.emvTlvHex, 'contactless');
          if (card) {
            o.prompt('reading-card', 'Reading card…');
            finish({ kind: 'card', card });
          } else {
            o.prompt('waiting-for-card', 'Could not read the card: tap again, insert or swipe');
            startChip(o.entry === 'present');
          }
          return;
        }
        case 'fallback':
          chipFailed();
          return;
        case 'card-removed':
          o.prompt('waiting-for-card', CHIP_PROMPTS.removedTooSoon);
          startChip(o.entry === 'present');
          return;
        case 'offline':
          // A card that decides at the 1st GENERATE AC (not the sandbox's: they all go online) is not
          // completed here: this terminal is online-only (9F35 22). Read as a failed chip.
          chipFailed();
          return;
        case 'timeout':
        case 'cancelled':
          if (alone()) finish({ kind: r.kind });
          return;
        case 'failed':
          if (r.code === 'not-connected' || r.code === 'busy') {
            if (alone()) finish({ kind: 'failed', reason: r.reason });
            return;
          }
          // card-not-answering, reader-error, no-answer, invalid-request: the chip did not work.
          chipFailed();
          return;
      }
    };

    const startChip = (contactless: boolean): void => {
      if (done || chipOut) return;
      chipOut = true;
      devices.chipReader
        .start({
          amountCents: o.amountCents,
          ...(o.otherAmountCents ? { otherAmountCents: o.otherAmountCents } : {}),
          timeoutMs: Math.max(1000, deadline - Date.now()),
          contactless,
        })
        .then(
          (r) => {
            chipOut = false;
            if (done) {
              // The wait ended meanwhile (another card, cancel): a card that went online is released.
              if (r.kind === 'online') void devices.chipReader.cancel().catch(() => undefined);
              return;
            }
            onChip(r);
          },
          () => {
            chipOut = false;
            if (!done && alone()) finish({ kind: 'timeout' });
          },
        );
    };
    cleanups.push(() => {
      // The other reader won, or the cashier cancelled: stop the EMV reader waiting for a card.
      if (chipOut) devices.chipReader.cancel().catch(() => undefined);
    });

    if (useSwipe) listenSwipe();
    if (useChip) startChip(o.entry === 'present');
    if (useTap) {
      let emvDone = false;
      cleanups.push(() => {
        if (!emvDone) devices.contactless.cancel().catch(() => undefined);
      });
      devices.contactless
        .activateTransaction({ amountCents: o.amountCents, timeoutMs: o.timeoutMs })
        .then((r) => {
          emvDone = true;
          if (done) return;
          if (r.kind === 'emv') {
            const card = emvCard(r.emvTlvHex, 'contactless');
            if (card) {
              o.prompt('reading-card', 'Reading card…');
              finish({ kind: 'card', card });
            } else if (alone()) finish({ kind: 'timeout' });
          } else if (r.kind === 'cancelled') {
            if (alone()) finish({ kind: 'cancelled' });
          } else if (alone()) finish({ kind: 'timeout' });
        })
        .catch(() => {
          emvDone = true;
          if (alone()) finish({ kind: 'timeout' });
        });
    }
  });
}
