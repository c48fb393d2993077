/**
 * The SaleWithToken check priority and its field-to-code mapping. Interface, Transactions, SaleWithToken
 * rules: "an invalid Amount, an invalid TransactionType and a missing Token are all reported together in
 * Msg before a new UserTransactionNumber is reserved; priority is Amount (506), type (501), missing token
 * (3)"; Errors, Known conditions: "several of the three above: all reported in Msg; priority 506, 501, 3".
 * docs/decisions.md#wire: SaleWithToken's Amount, SurchargeAmount and TransactionType are JSON numbers (506,
 * 501).
 *
 * Where it applies: http/operation.ts maps a schema problem of a field to its code (`codeForField`);
 * domain/problems.ts orders the answer by `FIXED_CODE_PRIORITY`; routes/transactions.ts reports a missing
 * Token with `missingTokenProblem`. The token lookup and the merchant's tax and card-difference rules are
 * separate checks, afterwards.
 */
import { ResponseCode } from '../../contract/response-codes';

// rule: sale-with-token-checks
/** The interface's priority among the codes it fixes; every other code follows in the order found. */
export const FIXED_CODE_PRIORITY: readonly number[] = [
  ResponseCode.InvalidAmount,
  ResponseCode.InvalidTransactionType,
  ResponseCode.MissingToken,
];

/**
 * The code of a field's schema problem: money fields (JSON numbers) answer 506, TransactionType 501, a
 * missing Token 3; a missing UserTransactionNumber is the real catalog's 30; anything else 400.
 */
export function codeForField(field: string, schemaType: string | undefined, keyword: string): number {
  if (field === 'TransactionType') return ResponseCode.InvalidTransactionType;
  if (field === 'Token' && keyword === 'required') return ResponseCode.MissingToken;
  if (field === 'UserTransactionNumber' && keyword === 'required')
    return ResponseCode.UserTransactionNumberEmpty;
  if (schemaType === 'number') return ResponseCode.InvalidAmount;
  return ResponseCode.InvalidRequest;
}

/** A Token absent or empty (the schema lets an empty string through): 3, on the Token field. */
export const missingTokenProblem = {
  code: ResponseCode.MissingToken,
  message: 'Token is required',
  field: 'Token',
} as const;
