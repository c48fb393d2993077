import { JurisdictionCodes } from '../contract/checks';
import { methodRules, type BankInput } from '../domain/bank-transactions';
import { ResponseCode } from '../contract/response-codes';
import { DEFAULT_AMOUNT_CEILING_CENTS, formatCents, type Cents } from '../domain/money';
import type { Problems } from '../domain/problems';
import { text } from './checks';
import type { Loose } from './operation';

/**
 * CHECK_AMOUNT is a string in the interface: parsed strictly to cents. Digits, optionally a point and one
 * or two decimals; no sign, exponent, thousands separator or spaces, positive, under the ceiling.
 */
export function parseCheckAmount(raw: string, ceilingCents: Cents = DEFAULT_AMOUNT_CEILING_CENTS) {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(raw);
  if (!m?.[1])
    return { ok: false as const, reason: 'must be a decimal amount such as "125.50" (at most two decimals)' };
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  if (cents <= 0) return { ok: false as const, reason: 'must be greater than zero' };
  if (cents > ceilingCents)
    return { ok: false as const, reason: `must not exceed ${formatCents(ceilingCents)}` };
  return { ok: true as const, cents };
}

/** The ABA prefixes in use: 00-12 (banks), 21-32 (thrifts), 61-72 (electronic), 80 (traveller's checks). */
function abaPrefixValid(routing: string): boolean {
  const p = Number(routing.slice(0, 2));
  return p <= 12 || (p >= 21 && p <= 32) || (p >= 61 && p <= 72) || p === 80;
}

/** ABA routing number: 9 digits, a prefix in use, and 3-7-1 weighted digits summing to a multiple of 10. */
export function abaValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing) || !abaPrefixValid(routing)) return false;
  const d = routing.split('').map(Number);
  const w = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  return d.reduce((s, x, i) => s + x * (w[i] ?? 0), 0) % 10 === 0;
}

/** A jurisdiction code, or its zero-based position as text ("7" = CA), as the code. */
export function jurisdiction(raw: string): string | undefined {
  const upper = raw.trim().toUpperCase();
  if (/^\d{1,2}$/.test(upper)) return JurisdictionCodes[Number(upper)];
  return (JurisdictionCodes as readonly string[]).includes(upper) ? upper : undefined;
}

export function checkAmount(problems: Problems, body: Loose, ceilingCents: Cents): Cents | undefined {
  const raw = body.CHECK_AMOUNT;
  if (raw === undefined) {
    if (!problems.has('CHECK_AMOUNT'))
      problems.add(ResponseCode.InvalidAmount, 'CHECK_AMOUNT is required', 'CHECK_AMOUNT');
    return undefined;
  }
  if (typeof raw !== 'string') {
    problems.add(
      ResponseCode.InvalidAmount,
      'CHECK_AMOUNT must be a string such as "125.50"',
      'CHECK_AMOUNT',
    );
    return undefined;
  }
  const r = parseCheckAmount(raw, ceilingCents);
  if (!r.ok) {
    problems.add(ResponseCode.InvalidAmount, `CHECK_AMOUNT ${r.reason}`, 'CHECK_AMOUNT');
    return undefined;
  }
  return r.cents;
}

export function checkNumber(problems: Problems, body: Loose): string {
  const raw = text(body, 'CHECK_NUMBER');
  if (raw === undefined) return '';
  if (!/^\d{1,10}$/.test(raw)) {
    problems.add(ResponseCode.InvalidRequest, 'CHECK_NUMBER must be 1 to 10 digits', 'CHECK_NUMBER');
    return '';
  }
  return raw;
}

function pattern(
  problems: Problems,
  body: Loose,
  field: string,
  re: RegExp,
  what: string,
): string | undefined {
  const v = text(body, field);
  if (v === undefined) return undefined;
  if (!re.test(v)) {
    problems.add(ResponseCode.InvalidRequest, `${field} must be ${what}`, field);
    return undefined;
  }
  return v;
}

/**
 * Reads and checks the bank fields of ProcessCheck / ProcessAch, every problem reported. Never echoes a
 * routing, account, licence or SSN value in a message.
 */
export function bankInput(
  problems: Problems,
  body: Loose,
  ceilingCents: Cents,
  now: Date,
): BankInput | undefined {
  const routing = text(body, 'ROUTING_NUMBER');
  if (routing === undefined) {
    if (!problems.has('ROUTING_NUMBER'))
      problems.add(ResponseCode.IncorrectCheckData, 'ROUTING_NUMBER is required', 'ROUTING_NUMBER');
  } else if (!abaValid(routing)) {
    problems.add(
      ResponseCode.IncorrectCheckData,
      'ROUTING_NUMBER is not a valid ABA routing number (9 digits, valid prefix and check digit)',
      'ROUTING_NUMBER',
    );
  }
  const account = text(body, 'ACCOUNT_NUMBER');
  if (account === undefined || !/^\d{4,17}$/.test(account)) {
    if (!problems.has('ACCOUNT_NUMBER'))
      problems.add(
        ResponseCode.IncorrectCheckData,
        account === undefined ? 'ACCOUNT_NUMBER is required' : 'ACCOUNT_NUMBER must be 4 to 17 digits',
        'ACCOUNT_NUMBER',
      );
  }
  const amountCents = checkAmount(problems, body, ceilingCents);
  const number = checkNumber(problems, body);

  const methodValue = body.Method === undefined ? 0 : typeof body.Method === 'number' ? body.Method : NaN;
  const rules = methodRules[methodValue];
  if (!rules && !problems.has('Method')) {
    problems.add(
      ResponseCode.InvalidRequest,
      'Method must be one of 0, 1, 3, 4, 5, 6, 7, 8 (the Check Method enumeration)',
      'Method',
    );
  }

  const states: Partial<Record<'DL_STATE' | 'STATE', string>> = {};
  for (const field of ['DL_STATE', 'STATE'] as const) {
    const raw = text(body, field);
    if (raw === undefined) continue;
    const code = jurisdiction(raw);
    if (!code) {
      problems.add(
        ResponseCode.IncorrectCheckData,
        `${field} must be a jurisdiction code (AB..YT) or its position (0-67)`,
        field,
      );
    } else states[field] = code;
  }
  const dlNumber = pattern(problems, body, 'DL_NUMBER', /^[A-Za-z0-9*-]{1,24}$/, '1 to 24 letters or digits');
  if (rules?.dlRequired && (text(body, 'DL_NUMBER') === undefined || text(body, 'DL_STATE') === undefined)) {
    problems.add(
      ResponseCode.IncorrectCheckData,
      `Method ${methodValue} (${rules.name}) requires DL_NUMBER and DL_STATE`,
      'DL_NUMBER',
    );
  }
  const firstName = text(body, 'FIRST_NAME') ?? '';
  const lastName = text(body, 'LAST_NAME') ?? '';
  if (rules?.verifyIdentity && (firstName.trim() === '' || lastName.trim() === '')) {
    problems.add(
      ResponseCode.IncorrectCheckData,
      `Method ${methodValue} (${rules.name}) verifies identity: FIRST_NAME and LAST_NAME are required`,
      'FIRST_NAME',
    );
  }
  const zip = pattern(problems, body, 'ZIP', /^\d{5}(-?\d{4})?$/, '5 digits or ZIP+4') ?? '';
  const phone = pattern(problems, body, 'PHONE_NUMBER', /^\d{10}$/, '10 digits') ?? '';
  const ssn4 = pattern(problems, body, 'SSN4', /^\d{4}$/, '4 digits');
  const dobYear = pattern(problems, body, 'DOB_YEAR', /^\d{4}$/, 'a four-digit year');
  if (dobYear !== undefined) {
    const y = Number(dobYear);
    if (y < 1900 || y > now.getUTCFullYear())
      problems.add(ResponseCode.InvalidRequest, 'DOB_YEAR must be a past year after 1900', 'DOB_YEAR');
  }
  const accountType = body.ACCOUNT_TYPE === 'SAVING' ? 'SAVING' : 'CHECKING';

  if (!problems.empty || !routing || !account || amountCents === undefined || !rules) return undefined;
  return {
    routing,
    account,
    accountType,
    checkNumber: number,
    method: methodValue,
    amountCents,
    dlNumber,
    dlState: states.DL_STATE,
    state: states.STATE,
    firstName,
    lastName,
    companyName: text(body, 'COMPANY_NAME') ?? '',
    address1: text(body, 'ADDRESS1') ?? '',
    address2: text(body, 'ADDRESS2') ?? '',
    city: text(body, 'CITY') ?? '',
    zip,
    phone,
    ssn4,
    dobYear,
    terminalId: text(body, 'TerminalID') ?? '',
    courtesyCardId: text(body, 'COURTESY_CARD_ID') ?? '',
  };
}
