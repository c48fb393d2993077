import { ResponseCode } from '../contract/response-codes';
import { toCents, type Cents } from '../domain/money';
import type { Problems } from '../domain/problems';
import type { Loose } from './operation';

/**
 * Field checks shared by the operations. Each reads the loose body defensively (it may have failed the
 * schema) and adds at most one problem per field.
 */
export function money(
  problems: Problems,
  body: Loose,
  field: string,
  options: { required?: boolean; allowZero?: boolean; ceilingCents?: number } = {},
): Cents | undefined {
  const value = body[field];
  if (value === undefined || value === null) {
    if (options.required) problems.add(ResponseCode.InvalidAmount, `${field} is required`, field);
    return undefined;
  }
  if (problems.has(field)) return undefined;
  const r = toCents(value, {
    allowZero: options.allowZero ?? !options.required,
    ...(options.ceilingCents !== undefined ? { ceilingCents: options.ceilingCents } : {}),
  });
  if (!r.ok) {
    problems.add(ResponseCode.InvalidAmount, `${field} ${r.reason}`, field);
    return undefined;
  }
  return r.cents;
}

export function transactionType(problems: Problems, body: Loose, expected: number, name: string): void {
  if (problems.has('TransactionType')) return;
  if (body.TransactionType !== expected) {
    problems.add(
      ResponseCode.InvalidTransactionType,
      `TransactionType must be the JSON integer ${expected} (${name}) for this operation`,
      'TransactionType',
    );
  }
}

export function text(body: Loose, field: string): string | undefined {
  const v = body[field];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** A required text field; a missing UserTransactionNumber is the real catalog's 30, anything else 400. */
export function requiredText(
  problems: Problems,
  body: Loose,
  field: string,
  code: number = field === 'UserTransactionNumber'
    ? ResponseCode.UserTransactionNumberEmpty
    : ResponseCode.InvalidRequest,
): string | undefined {
  const v = text(body, field);
  if (v === undefined && !problems.has(field)) problems.add(code, `${field} is required`, field);
  return v;
}

export function flag(body: Loose, field: string): boolean {
  return body[field] === true;
}

export function int(body: Loose, field: string): number | undefined {
  const v = body[field];
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}
