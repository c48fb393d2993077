import { Type, type TInteger, type TString } from 'typebox';

/**
 * The building blocks of the bridge's payload schemas. A schema may carry `problem`: the plain words the
 * cashier reads when that part of a payload is wrong (the dispatcher reports the nearest one; see
 * bridge/payload-check.ts). Never a value in it: a payload may hold a card number.
 */
export type Problem = { problem?: string };

/** Integer cents: money on the bridge is never a float (a safe integer, as util/money's isCents). */
export function Cents(options: { minimum?: number; exclusiveMinimum?: number } & Problem = {}): TInteger {
  return Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, ...options });
}

/** A required, non-empty string of at most `max` characters (an id, a name). */
export function Text(max: number, name: string): TString {
  return Type.String({
    minLength: 1,
    maxLength: max,
    problem: `${name} is required (at most ${max} characters).`,
  });
}

/** How many rows at most (the handler caps it). */
export function Limit(): TInteger {
  return Type.Integer({ minimum: 1, problem: 'The limit is a positive integer.' });
}
