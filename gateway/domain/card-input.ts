import { isLuhnValid } from '../../native/protocols/luhn';
import { detectBrand } from '../../native/protocols/card-brand';
import { parseSwipe } from '../../native/protocols/iso7813-track';
import { ResponseCode } from '../contract/response-codes';
import type { PosEntryMode } from '../contract/card-sale';
import type { Problems } from './problems';
import { readEmvCardData } from '../../native/protocols/emv-sanitize';

/** A card as the payment rules need it. The PAN stays in memory for the processor call only. */
export type ResolvedCard = {
  pan: string;
  expiryYYMM: string;
  cvn?: string;
  name?: string;
  entryMode: PosEntryMode;
  cardType: string;
  /** Swiped, chip or contactless: the card was at the counter. */
  present: boolean;
  first6: string;
  last4: string;
  /**
   * The EmvData the card came from, for the issuer's cryptogram check (docs/chip.md). Lives in memory
   * for the processor call only, like the PAN: never stored, never logged.
   */
  emvTlvHex?: string;
};

export type CardFields = {
  CardNumber?: string | undefined;
  ExpDate?: string | undefined;
  CVN?: string | undefined;
  Track2?: string | undefined;
  EmvData?: string | undefined;
  NameOnCard?: string | undefined;
  PosEntryMode?: PosEntryMode | undefined;
};

/** MMYY (or MM/YY where allowed) → YYMM, the order tracks and EMV use. */
export function parseExpDate(value: string, allowSlash: boolean): string | null {
  const m = (allowSlash ? /^(\d{2})\/?(\d{2})$/ : /^(\d{2})(\d{2})$/).exec(value.trim());
  if (!m?.[1] || !m[2]) return null;
  const month = Number(m[1]);
  if (month < 1 || month > 12) return null;
  return m[2] + m[1];
}

export function isExpired(expiryYYMM: string, now: Date): boolean {
  const year = 2000 + Number(expiryYYMM.slice(0, 2));
  const month = Number(expiryYYMM.slice(2, 4));
  return year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}

function build(
  pan: string,
  expiryYYMM: string,
  entryMode: PosEntryMode,
  present: boolean,
  extra: Partial<ResolvedCard>,
) {
  return {
    pan,
    expiryYYMM,
    entryMode,
    present,
    cardType: detectBrand(pan),
    first6: pan.slice(0, 6),
    last4: pan.slice(-4),
    ...extra,
  } satisfies ResolvedCard;
}

function checkPan(pan: string, problems: Problems, field: string): boolean {
  if (!/^\d{12,19}$/.test(pan) || !isLuhnValid(pan)) {
    problems.add(ResponseCode.InvalidCardNumber, `${field} is not a valid card number`, field);
    return false;
  }
  return true;
}

/**
 * Finds the card in a request: EMV data (chip/contactless) first, then track data (swiped), then the keyed
 * number. Problems are reported without echoing any card data.
 */
export function resolveCard(
  fields: CardFields,
  problems: Problems,
  options: { allowSlashExpiry?: boolean } = {},
) {
  if (fields.EmvData) {
    const chip = readEmvCardData(fields.EmvData);
    if (!chip.ok || chip.value.expiryYYMM === undefined) {
      const why =
        !chip.ok && chip.error === 'tlv'
          ? 'is not valid BER-TLV hex'
          : 'has no usable PAN (5A/57) and expiry (5F24)';
      problems.add(ResponseCode.CardDataMissing, `EmvData ${why}`, 'EmvData');
      return null;
    }
    if (!checkPan(chip.value.pan, problems, 'EmvData')) return null;
    const mode: PosEntryMode =
      fields.PosEntryMode === 'Contactless' || fields.PosEntryMode === 'NetworkAContactless'
        ? fields.PosEntryMode
        : 'Chip';
    return build(chip.value.pan, chip.value.expiryYYMM, mode, true, {
      emvTlvHex: fields.EmvData,
      ...(fields.NameOnCard ? { name: fields.NameOnCard } : {}),
    });
  }
  if (fields.Track2) {
    const swipe = parseSwipe(fields.Track2);
    if (!swipe.ok) {
      problems.add(
        ResponseCode.CardDataMissing,
        swipe.error === 'E' ? 'Track2 holds a read error: swipe again' : 'Track2 is not valid track data',
        'Track2',
      );
      return null;
    }
    if (!checkPan(swipe.value.pan, problems, 'Track2')) return null;
    const mode: PosEntryMode = fields.PosEntryMode === 'ChipFallbackSwipe' ? 'ChipFallbackSwipe' : 'Swiped';
    const name = swipe.value.name ?? fields.NameOnCard;
    return build(swipe.value.pan, swipe.value.expiryYYMM, mode, true, {
      ...(name ? { name } : {}),
      ...(fields.CVN ? { cvn: fields.CVN } : {}),
    });
  }
  if (fields.CardNumber) {
    const pan = fields.CardNumber.replace(/[\s-]/g, '');
    const panOk = checkPan(pan, problems, 'CardNumber');
    const expiry = fields.ExpDate ? parseExpDate(fields.ExpDate, options.allowSlashExpiry ?? false) : null;
    if (!expiry)
      problems.add(ResponseCode.InvalidExpiry, 'ExpDate is required as MMYY for a keyed card', 'ExpDate');
    if (fields.CVN !== undefined && !/^\d{3,4}$/.test(fields.CVN)) {
      problems.add(ResponseCode.InvalidRequest, 'CVN must be 3 or 4 digits', 'CVN');
    }
    if (!panOk || !expiry) return null;
    const mode: PosEntryMode =
      fields.PosEntryMode === 'ChipFallbackManual' ? 'ChipFallbackManual' : 'KeyEntered';
    return build(pan, expiry, mode, false, {
      ...(fields.CVN ? { cvn: fields.CVN } : {}),
      ...(fields.NameOnCard ? { name: fields.NameOnCard } : {}),
    });
  }
  problems.add(
    ResponseCode.CardDataMissing,
    'Card data is required: CardNumber and ExpDate, Track2 or EmvData',
    'CardNumber',
  );
  return null;
}
