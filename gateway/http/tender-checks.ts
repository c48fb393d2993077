import { isLuhnValid } from '../../native/protocols/luhn';
import { parseSwipe } from '../../native/protocols/iso7813-track';
import { ResponseCode } from '../contract/response-codes';
import type { Cents } from '../domain/money';
import type { Problems } from '../domain/problems';
import type { StoredValueCard, TenderAmounts } from '../domain/stored-value';
import { money, text } from './checks';
import type { Loose } from './operation';

/** Request checks of the gift card and EBT operations (card, amounts, currency), reported with the schema's. */

/** CardNumber (keyed) or Track2 (swiped); stored-value cards carry no expiry the issuer checks. */
export function resolveStoredValueCard(body: Loose, problems: Problems): StoredValueCard | undefined {
  const track = text(body, 'Track2');
  const keyed = text(body, 'CardNumber');
  let pan: string;
  let entryMode: StoredValueCard['entryMode'];
  if (track !== undefined) {
    const swipe = parseSwipe(track);
    if (!swipe.ok) {
      problems.add(
        ResponseCode.CardDataMissing,
        swipe.error === 'E' ? 'Track2 holds a read error: swipe again' : 'Track2 is not valid track data',
        'Track2',
      );
      return undefined;
    }
    pan = swipe.value.pan;
    entryMode = 'Swiped';
  } else if (keyed !== undefined) {
    pan = keyed.replace(/[\s-]/g, '');
    entryMode = 'KeyEntered';
  } else {
    problems.add(ResponseCode.CardDataMissing, 'CardNumber or Track2 is required', 'CardNumber');
    return undefined;
  }
  if (!/^\d{12,19}$/.test(pan) || !isLuhnValid(pan)) {
    const field = track !== undefined ? 'Track2' : 'CardNumber';
    problems.add(ResponseCode.InvalidCardNumber, `${field} is not a valid card number`, field);
    return undefined;
  }
  return { pan, first6: pan.slice(0, 6), last4: pan.slice(-4), entryMode };
}

const EXTRA_FIELDS = [
  'TaxAmount',
  'TipAmount',
  'SurchargeAmount',
  'CardDifferenceAmount',
  'CashBackAmount',
] as const;
type ExtraField = (typeof EXTRA_FIELDS)[number];

/**
 * The amounts of a stored-value operation. Only the extras listed are taken; any other extra with a value
 * is refused rather than silently dropped (EBT food, for instance, cannot carry tax).
 */
export function tenderAmounts(
  problems: Problems,
  body: Loose,
  options: {
    allowed: readonly ExtraField[];
    amountRequired: boolean;
    allowZero?: boolean;
    ceilingCents: Cents;
  },
): TenderAmounts {
  const baseCents =
    money(problems, body, 'Amount', {
      required: options.amountRequired,
      allowZero: options.allowZero ?? false,
      ceilingCents: options.ceilingCents,
    }) ?? 0;
  const extras: Record<ExtraField, Cents> = {
    TaxAmount: 0,
    TipAmount: 0,
    SurchargeAmount: 0,
    CardDifferenceAmount: 0,
    CashBackAmount: 0,
  };
  for (const field of EXTRA_FIELDS) {
    const cents = money(problems, body, field, { ceilingCents: options.ceilingCents });
    if (cents === undefined || cents === 0) continue;
    if (!options.allowed.includes(field)) {
      problems.add(
        ResponseCode.ExtraAmountNotAllowed,
        `${field} is not taken by this operation${options.allowed.length > 0 ? ` (only ${options.allowed.join(', ')})` : ''}`,
        field,
      );
      continue;
    }
    extras[field] = cents;
  }
  return {
    baseCents,
    taxCents: extras.TaxAmount,
    tipCents: extras.TipAmount,
    cashbackCents: extras.CashBackAmount,
  };
}

export function currencyIsUsd(problems: Problems, body: Loose): void {
  const c = text(body, 'CurrencyCode');
  if (c !== undefined && c !== 'USD') {
    problems.add(
      ResponseCode.InvalidRequest,
      'Gift card and EBT balances are kept in USD only',
      'CurrencyCode',
    );
  }
}
