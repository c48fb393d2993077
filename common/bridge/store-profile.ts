import { Type, type Static } from 'typebox';
import { CURRENCIES, STORE_LOCALES } from '../store-locale';
import { STORE_PROFILE_LIMITS } from './retail-limits';

/**
 * The store as its receipts name it (printed and on screen): the header (store name, address lines,
 * phone) and the footer (the return policy). A manager sets them on the Settings screen.
 */
const P = STORE_PROFILE_LIMITS;

export const StoreProfileSchema = Type.Object({
  storeName: Type.String({
    maxLength: P.storeNameLength,
    problem: `The store name is at most ${P.storeNameLength} characters.`,
  }),
  addressLines: Type.Array(
    Type.String({
      maxLength: P.addressLineLength,
      problem: `An address line is at most ${P.addressLineLength} characters.`,
    }),
    { maxItems: P.addressLines, problem: `The address is at most ${P.addressLines} lines.` },
  ),
  phone: Type.String({
    maxLength: P.phoneLength,
    problem: `The phone is at most ${P.phoneLength} characters.`,
  }),
  returnPolicy: Type.String({
    maxLength: P.returnPolicyLength,
    problem: `The return policy is at most ${P.returnPolicyLength} characters.`,
  }),
});
export type StoreProfileView = Static<typeof StoreProfileSchema>;

/**
 * What a cashier may do without a manager on a ticket: a line discount up to `maxLineDiscountPercent` of
 * the line, a ticket discount up to `maxTicketDiscountPercent` of the ticket, and (unless
 * `priceOverrideNeedsApproval` is false) no change to a catalog price. The core enforces it
 * (electron/sale/discount-approval-rules.ts).
 */
export const DiscountLimitsSchema = Type.Object({
  maxLineDiscountPercent: Type.Number({
    minimum: 0,
    maximum: 100,
    problem: 'A discount limit is 0 to 100 %, with at most four decimals.',
  }),
  maxTicketDiscountPercent: Type.Number({
    minimum: 0,
    maximum: 100,
    problem: 'A discount limit is 0 to 100 %, with at most four decimals.',
  }),
  priceOverrideNeedsApproval: Type.Boolean(),
});
export type DiscountLimitsView = Static<typeof DiscountLimitsSchema>;

/**
 * The store's locale and currency (common/store-locale.ts): the language its receipts and till reports
 * print in and its screens start in, how dates and figures are written, and the currency amounts show in.
 * A manager's setting; a cashier's window and the customer display may each choose another language.
 */
export const StoreLocaleSchema = Type.Object({
  locale: Type.Enum([...STORE_LOCALES], {
    problem: 'The store’s language is en-US (English), es-US or es-MX (Spanish).',
  }),
  currency: Type.Enum([...CURRENCIES], {
    problem: 'The store sells in US dollars (USD): the gateway and the drawer count know no other currency.',
  }),
});
export type StoreLocaleView = Static<typeof StoreLocaleSchema>;
