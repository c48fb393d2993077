import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import { ResponseCode } from '../contract/response-codes';
import { CheckMethod, type AccountTypeValues } from '../contract/checks';
import { bankFingerprint, seal, unseal } from '../security/sealed-data';
import type { Queryable } from '../storage/queryable';
import type { BankKind, BankTransactionsTable } from '../storage/schema-tenders';
import type { RequestContext, Services } from './context';
import type { BankVerificationTriggers } from './issuer-port';
import { addDays, localParts, merchantTimeZone, zonedInstant } from './local-time';
import { fromCents, type Cents } from './money';
import { DomainError, outcome, type BaseOutcome } from './outcome';

/**
 * Electronic checks and ACH debits. The sandbox verification service decides synchronously (no network),
 * so each operation is one unit of work. Routing, account and licence numbers are sealed (AES-GCM, bound
 * to the merchant); rows keep the last four digits and a keyed fingerprint for the duplicate-check rule.
 */

export type BankRow = Selectable<BankTransactionsTable>;

/** What a check method asks for (the interface names the methods; the names say what each verifies). */
export type MethodRules = {
  name: string;
  verifyAccount: boolean;
  verifyIdentity: boolean;
  dlRequired: boolean;
};

export const methodRules: Readonly<Record<number, MethodRules>> = Object.fromEntries(
  Object.entries(CheckMethod).map(([name, value]) => [
    value,
    {
      name,
      verifyAccount: name.startsWith('CheckVerification'),
      verifyIdentity: name.includes('IdentityVerification'),
      dlRequired: name.endsWith('DLRequired'),
    },
  ]),
);

export type BankInput = {
  routing: string;
  account: string;
  accountType: (typeof AccountTypeValues)[number];
  checkNumber: string;
  method: number;
  amountCents: Cents;
  dlNumber?: string | undefined;
  dlState?: string | undefined;
  state?: string | undefined;
  firstName: string;
  lastName: string;
  companyName: string;
  address1: string;
  address2: string;
  city: string;
  zip: string;
  phone: string;
  ssn4?: string | undefined;
  dobYear?: string | undefined;
  terminalId: string;
  courtesyCardId: string;
};

/** The customer fields sealed with a check token (everything but the bank numbers and the amount). */
export type HolderData = Omit<
  BankInput,
  'routing' | 'account' | 'amountCents' | 'checkNumber' | 'method' | 'accountType'
>;

type Decision = {
  approved: boolean;
  responseCode: number;
  code: 'APPROVED' | 'DECLINED';
  resultCode: string;
  message: string;
};

const resultMessages: Record<string, string> = {
  '00': 'Approved',
  '05': 'Declined: the account is on the negative file',
  '12': 'Declined: the identity of the check writer was not verified',
  '20': 'Voided',
};

const codeMessages: Record<string, string> = {
  APPROVED: 'The transaction was authorized',
  DECLINED: 'The transaction was declined by the verification service',
  VOIDED: 'The transaction was voided',
};

/** The sandbox verification service: the Method says what is verified; the triggers say what fails. */
export function sandboxVerify(
  input: BankInput,
  rules: MethodRules,
  triggers: BankVerificationTriggers,
): Decision {
  if (rules.verifyAccount && input.account.endsWith(triggers.negativeFileSuffix)) {
    return {
      approved: false,
      responseCode: ResponseCode.CheckNotProcessed,
      code: 'DECLINED',
      resultCode: '05',
      message: resultMessages['05'] ?? '',
    };
  }
  if (
    rules.verifyIdentity &&
    (input.dlNumber?.startsWith(triggers.identityFailDlPrefix) === true ||
      input.ssn4 === triggers.identityFailSsn4)
  ) {
    return {
      approved: false,
      responseCode: ResponseCode.CheckNotProcessed,
      code: 'DECLINED',
      resultCode: '12',
      message: resultMessages['12'] ?? '',
    };
  }
  return {
    approved: true,
    responseCode: ResponseCode.Success,
    code: 'APPROVED',
    resultCode: '00',
    message: 'Approved',
  };
}

export const mask = (last4: string) => `****${last4}`;

/** Amount as the interface's CheckAmount string: 12550 → "125.50" (no thousands separator). */
export function amountText(cents: Cents): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

function typeCode(kind: BankKind, input: Pick<BankInput, 'companyName'>): string {
  if (kind === 'check') return 'POP';
  // Corporate debits are CCD; consumer debits PPD (NACHA standard entry class codes).
  return input.companyName.trim() !== '' ? 'CCD' : 'PPD';
}

/** The outcome fields of a check or ACH response, for a stored row (or a void of it). */
export function bankOutcome(row: BankRow, voided = false) {
  const code = voided ? 'VOIDED' : row.code;
  const resultCode = voided ? '20' : row.result_code;
  const responseType = voided ? 'V' : row.status === 'declined' ? 'D' : 'A';
  return {
    Code: code,
    CodeTypeMsg: [codeMessages[code] ?? code],
    Message: voided ? 'Voided' : row.message,
    ResponseType: responseType,
    ResponseTypeText: { A: 'APPROVED', D: 'DECLINED', V: 'VOIDED' }[responseType] ?? '',
    ResultCode: resultCode,
    ResultCodeMsg: [resultMessages[resultCode] ?? resultCode],
    TypeCode: row.type_code,
    ValidationMessage: '',
  };
}

type SealedBank = { routing: string; account: string; dlNumber?: string | undefined };

export type Authorization = {
  kind: BankKind;
  packet: 'A' | 'O';
  input: BankInput;
  rules: MethodRules;
  saveToken: boolean;
  /** O: the check this one replaces (voided when this one is approved). */
  replacesId?: number | undefined;
  tokenId?: number | undefined;
};

export type AuthorizationResult = { row: BankRow; token?: string | undefined };

async function loadOwn(q: Queryable, mid: number, kind: BankKind, id: number): Promise<BankRow> {
  const row = await q.first(
    q.qb
      .selectFrom('bank_transactions')
      .selectAll()
      .where('id', '=', id)
      .where('mid', '=', mid)
      .where('kind', '=', kind),
  );
  // Another merchant's id answers exactly like an unknown one.
  if (!row)
    throw new DomainError(ResponseCode.CheckNotFound, [
      `${kind === 'check' ? 'CheckTransactionId' : 'AchId'} not found`,
    ]);
  return row;
}

/** Why a transaction cannot be voided now, or null: only an approved one, only on its calendar day. */
function voidBlocker(row: BankRow, today: string): DomainError | null {
  if (row.status === 'voided')
    return new DomainError(ResponseCode.CheckAlreadyVoided, ['The transaction is already voided']);
  if (row.status !== 'approved')
    return new DomainError(ResponseCode.CheckVoidNotProcessed, [
      'Only an approved transaction can be voided',
    ]);
  if (row.local_date !== today) {
    return new DomainError(ResponseCode.VoidWindowClosed, [
      `A void is possible only on the authorization's calendar day (${row.local_date}, merchant's time zone)`,
    ]);
  }
  return null;
}

/** A (authorize) and O (void the previous, enter this one in its place, both or neither). */
export async function authorizeBank(
  svc: Services,
  ctx: RequestContext,
  a: Authorization,
): Promise<AuthorizationResult> {
  const { mid, cid, userId } = ctx.principal;
  const zone = await merchantTimeZone(svc.storage.read, mid);
  const fingerprint = bankFingerprint(svc.keys.fingerprintKey, a.input.routing, a.input.account);
  const decision = sandboxVerify(a.input, a.rules, svc.issuers.bankVerification);
  return svc.storage.write(async (tx) => {
    const now = svc.clock.now();
    const iso = now.toISOString();
    const today = localParts(now, zone).date;
    await tx.lock(`bank:${mid}:${fingerprint}`);
    if (a.replacesId !== undefined) {
      await tx.lock(`bank-tx:${mid}:${a.replacesId}`);
      const previous = await loadOwn(tx, mid, a.kind, a.replacesId);
      const blocker = voidBlocker(previous, today);
      if (blocker) throw blocker;
    }
    if (a.input.checkNumber !== '') {
      let dup = tx.qb
        .selectFrom('bank_transactions')
        .select('id')
        .where('mid', '=', mid)
        .where('kind', '=', a.kind)
        .where('bank_fingerprint', '=', fingerprint)
        .where('check_number', '=', a.input.checkNumber)
        .where('status', '=', 'approved');
      // An override replaces the previous entry, typically of the very same check.
      if (a.replacesId !== undefined) dup = dup.where('id', '!=', a.replacesId);
      if (await tx.first(dup.limit(1))) {
        throw new DomainError(ResponseCode.CheckNotProcessed, [
          'This check number of this account is already authorized; void it or use PacketIdentifier O',
        ]);
      }
    }
    let tokenId = a.tokenId ?? null;
    let token: string | undefined;
    const sealedBank = seal(svc.keys.vaultKey, 'bank', mid, {
      routing: a.input.routing,
      account: a.input.account,
      dlNumber: a.input.dlNumber,
    } satisfies SealedBank);
    if (a.saveToken && decision.approved) {
      token = randomUUID();
      const {
        routing: _r,
        account: _a,
        amountCents: _m,
        checkNumber: _c,
        method: _me,
        accountType: _t,
        ...holder
      } = a.input;
      const inserted = await tx.first(
        tx.qb
          .insertInto('check_tokens')
          .values({
            mid,
            user_id: userId,
            token,
            bank_ciphertext: sealedBank,
            bank_fingerprint: fingerprint,
            routing_last4: a.input.routing.slice(-4),
            account_last4: a.input.account.slice(-4),
            account_type: a.input.accountType,
            method: a.input.method,
            holder_ciphertext: seal(svc.keys.vaultKey, 'check-holder', mid, holder satisfies HolderData),
            active: 1,
            created_at: iso,
          })
          .returning('id'),
      );
      tokenId = inserted?.id ?? null;
    }
    const values: Omit<BankRow, 'id'> = {
      kind: a.kind,
      mid,
      cid,
      user_id: userId,
      packet_identifier: a.packet,
      method: a.input.method,
      account_type: a.input.accountType,
      bank_ciphertext: sealedBank,
      bank_fingerprint: fingerprint,
      routing_last4: a.input.routing.slice(-4),
      account_last4: a.input.account.slice(-4),
      check_number: a.input.checkNumber,
      amount_cents: a.input.amountCents,
      status: decision.approved ? 'approved' : 'declined',
      response_code: decision.responseCode,
      code: decision.code,
      result_code: decision.resultCode,
      message: decision.message,
      type_code: typeCode(a.kind, a.input),
      terminal_id: a.input.terminalId,
      first_name: a.input.firstName,
      last_name: a.input.lastName,
      company_name: a.input.companyName,
      token_id: tokenId,
      replaces_id: a.replacesId ?? null,
      local_date: today,
      voided_at: null,
      created_at: iso,
    };
    const inserted = await tx.first(tx.qb.insertInto('bank_transactions').values(values).returning('id'));
    if (!inserted) throw new Error('bank transaction insert returned no id');
    if (decision.approved && a.replacesId !== undefined) {
      await tx.run(
        tx.qb
          .updateTable('bank_transactions')
          .set({ status: 'voided', voided_at: iso })
          .where('id', '=', a.replacesId)
          .where('mid', '=', mid),
      );
    }
    return { row: { ...values, id: inserted.id }, token };
  });
}

export type VoidMatch = {
  routing?: string | undefined;
  account?: string | undefined;
  amountCents?: Cents | undefined;
};

/** V (checks) and VoidAch: only an approved transaction, only on its calendar day, only once. */
export async function voidBank(
  svc: Services,
  ctx: RequestContext,
  kind: BankKind,
  id: number,
  match: VoidMatch = {},
): Promise<BankRow> {
  const { mid } = ctx.principal;
  const zone = await merchantTimeZone(svc.storage.read, mid);
  return svc.storage.write(async (tx) => {
    const now = svc.clock.now();
    await tx.lock(`bank-tx:${mid}:${id}`);
    const row = await loadOwn(tx, mid, kind, id);
    const mismatched: string[] = [];
    if (match.routing !== undefined || match.account !== undefined) {
      const bank = unseal(svc.keys.vaultKey, 'bank', mid, row.bank_ciphertext) as SealedBank;
      if (match.routing !== undefined && match.routing !== bank.routing) mismatched.push('AbaRouting');
      if (match.account !== undefined && match.account !== bank.account) mismatched.push('AccountNumber');
    }
    if (match.amountCents !== undefined && match.amountCents !== row.amount_cents)
      mismatched.push('AchAmount');
    if (mismatched.length > 0) {
      throw new DomainError(ResponseCode.IncorrectCheckData, [
        `${mismatched.join(', ')} ${mismatched.length === 1 ? 'does' : 'do'} not match the transaction; nothing was voided`,
      ]);
    }
    const blocker = voidBlocker(row, localParts(now, zone).date);
    if (blocker) throw blocker;
    const iso = now.toISOString();
    await tx.run(
      tx.qb
        .updateTable('bank_transactions')
        .set({ status: 'voided', voided_at: iso })
        .where('id', '=', row.id),
    );
    return { ...row, status: 'voided', voided_at: iso };
  });
}

/** A saved check token of this merchant, opened for one authorization. */
export async function loadCheckToken(
  svc: Services,
  mid: number,
  token: string,
): Promise<{ id: number; bank: SealedBank; holder: HolderData; method: number; accountType: string } | null> {
  const q = svc.storage.read;
  const row = await q.first(
    q.qb
      .selectFrom('check_tokens')
      .selectAll()
      .where('mid', '=', mid)
      .where('token', '=', token)
      .where('active', '=', 1),
  );
  if (!row) return null;
  return {
    id: row.id,
    bank: unseal(svc.keys.vaultKey, 'bank', mid, row.bank_ciphertext) as SealedBank,
    holder: unseal(svc.keys.vaultKey, 'check-holder', mid, row.holder_ciphertext) as HolderData,
    method: row.method,
    accountType: row.account_type,
  };
}

/** The response of an authorization (A, O, ProcessToken). */
export function checkAnswer(r: AuthorizationResult) {
  const base: BaseOutcome = outcome(r.row.response_code, [r.row.message]);
  return {
    ...base,
    ...bankOutcome(r.row),
    ErrorMessages: [],
    ...(r.token ? { Token: r.token } : {}),
    TransactionInfo: {
      AccountNumber: mask(r.row.account_last4),
      CheckAmount: amountText(r.row.amount_cents),
      CheckNumber: r.row.check_number,
      RoutingNumber: mask(r.row.routing_last4),
      ServiceTransactionNumber: String(r.row.id),
    },
  };
}

export function reportBase(row: BankRow) {
  const o = bankOutcome(row);
  return {
    AccountNumber: mask(row.account_last4),
    AccountType: row.account_type,
    CheckAmount: fromCents(row.amount_cents),
    CheckNumber: row.check_number,
    Code: o.Code,
    MadeOn: row.created_at,
    Message: row.message,
    PacketIdentifier: row.packet_identifier,
    ResponseType: o.ResponseType,
    ResponseTypeText: o.ResponseTypeText,
    ResultCode: o.ResultCode,
    RoutingNumber: mask(row.routing_last4),
  };
}

/**
 * The merchant's check or ACH transactions in id order (the processors' GetReport): optionally those made
 * on the merchant's local days `from`..`to` (inclusive) and one transaction by its id.
 */
export async function bankTransactionReport(
  q: Queryable,
  mid: number,
  kind: BankKind,
  filter: { from?: string | undefined; to?: string | undefined; id?: number | undefined } = {},
): Promise<BankRow[]> {
  let query = q.qb
    .selectFrom('bank_transactions')
    .selectAll()
    .where('mid', '=', mid)
    .where('kind', '=', kind);
  if (filter.from !== undefined || filter.to !== undefined) {
    const zone = await merchantTimeZone(q, mid);
    if (filter.from)
      query = query.where('created_at', '>=', zonedInstant(filter.from, '00:00', zone).toISOString());
    if (filter.to)
      query = query.where(
        'created_at',
        '<',
        zonedInstant(addDays(filter.to, 1), '00:00', zone).toISOString(),
      );
  }
  if (filter.id !== undefined) query = query.where('id', '=', filter.id);
  return q.all(query.orderBy('id'));
}
