import { Type, type Static } from 'typebox';
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
