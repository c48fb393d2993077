import type { CardEntry, KeyedCard, SaleStep } from '../bridge/contract';
import { BridgeFailure } from '../bridge/failure';
import { detectBrand } from '../../native/protocols/card-brand';
import { readEmvCardData } from '../../native/protocols/emv-sanitize';
import { isLuhnValid } from '../../native/protocols/luhn';
import { lastFour, maskPan } from '../../native/protocols/pan-mask';
import type { CardReaderEvent, RoleApi } from '../../native/drivers/roles';

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
    }
  | {
      source: 'emv';
      emvHex: string;
      pan: string;
      maskedPan: string;
      last4: string;
      brand: string;
      entry: 'chip' | 'contactless';
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
  amountCents: number;
  timeoutMs: number;
  signal: AbortSignal;
  prompt: Prompt;
  /** Which readers are connected right now. */
  connected: (role: 'cardReader' | 'contactless') => boolean;
};

export type AcquireResult =
  { kind: 'card'; card: AcquiredCard } | { kind: 'cancelled' } | { kind: 'timeout' };

/** A keyed card, checked enough that an obvious typo is caught before a number is spent on it. */
export function keyedCard(k: KeyedCard | undefined): AcquiredCard {
  if (!k || typeof k.cardNumber !== 'string' || typeof k.expiry !== 'string')
    throw new BridgeFailure('invalid', 'Keyed entry needs the card number and expiry (MMYY).');
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
  };
}

const waitingPrompt: Record<Exclude<CardEntry, 'keyed'>, string> = {
  present: 'Insert, tap or swipe',
  swipe: 'Swipe card',
  chip: 'Insert card',
  contactless: 'Tap card',
};

/**
 * Waits for a card on the readers the entry allows. With `present` the magstripe reader and the EMV
 * reader both listen and the first card wins; the other is cancelled. A bad swipe asks for another swipe
 * instead of failing the tender.
 */
export async function acquireCard(o: AcquireOptions): Promise<AcquireResult> {
  if (o.entry === 'keyed') return { kind: 'card', card: keyedCard(o.keyed) };
  const useSwipe = (o.entry === 'present' || o.entry === 'swipe') && o.connected('cardReader');
  const useEmv =
    (o.entry === 'present' || o.entry === 'chip' || o.entry === 'contactless') && o.connected('contactless');
  if (!o.devices || (!useSwipe && !useEmv)) {
    throw new BridgeFailure(
      'device',
      o.entry === 'swipe'
        ? 'The card reader is not connected. Key the card or ask a tech to check the reader.'
        : 'No card reader is connected. Key the card or ask a tech to check the readers.',
    );
  }
  const devices = o.devices;
  if (o.signal.aborted) return { kind: 'cancelled' };
  o.prompt('waiting-for-card', waitingPrompt[o.entry], Math.round(o.timeoutMs / 1000));

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

    if (useSwipe) {
      const off = devices.cardReader.onCard((e) => {
        if (done) return;
        if (e.kind === 'read-error') {
          o.prompt(
            'waiting-for-card',
            `Could not read the card: swipe again${useEmv ? ', insert or tap' : ''}`,
          );
          return;
        }
        const card = swipeCard(e);
        if (!card) {
          o.prompt('waiting-for-card', 'Could not read the card: swipe again');
          return;
        }
        o.prompt('reading-card', 'Reading card…');
        finish({ kind: 'card', card });
      });
      cleanups.push(off);
    }
    if (useEmv) {
      let emvDone = false;
      cleanups.push(() => {
        // The other reader won, or the cashier cancelled: stop the EMV reader waiting for a tap.
        if (!emvDone) devices.contactless.cancel().catch(() => undefined);
      });
      devices.contactless
        .activateTransaction({ amountCents: o.amountCents, timeoutMs: o.timeoutMs })
        .then((r) => {
          emvDone = true;
          if (done) return;
          if (r.kind === 'emv') {
            const entry = o.entry === 'chip' ? 'chip' : o.entry === 'contactless' ? 'contactless' : 'chip';
            const card = emvCard(r.emvTlvHex, entry);
            if (card) {
              o.prompt('reading-card', 'Reading card…');
              finish({ kind: 'card', card });
            } else if (!useSwipe) finish({ kind: 'timeout' });
          } else if (r.kind === 'cancelled') {
            if (!useSwipe) finish({ kind: 'cancelled' });
          } else if (r.kind === 'timeout') {
            if (!useSwipe) finish({ kind: 'timeout' });
          } else if (!useSwipe) {
            finish({ kind: 'timeout' });
          }
        })
        .catch(() => {
          emvDone = true;
          if (!useSwipe) finish({ kind: 'timeout' });
        });
    }
  });
}
