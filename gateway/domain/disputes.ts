import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { detectBrand } from '../../native/protocols/card-brand';
import { isLuhnValid } from '../../native/protocols/luhn';
import type { Storage } from '../storage/queryable';
import type { DisputesTable } from '../storage/schema-tenders';
import { toCents } from './money';

/**
 * The sandbox dispute feed: chargeback and retrieval records as an acquirer would send them, loaded by
 * `npm run gateway:admin -- load-disputes --data DIR --file disputes.json` and read by the Reporting group.
 * A record may name the gateway payment it disputes (serviceReferenceNumber): the card, authorization code,
 * amount and transaction date then come from it. Card numbers are kept as first six / last four only.
 */
const DateText = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
const Str = (max = 128) => Type.String({ maxLength: max });

export const DisputeRecord = Type.Object({
  mid: Type.Integer({ minimum: 1 }),
  kind: Type.Union([Type.Literal('chargeback'), Type.Literal('retrieval')]),
  recordId: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'unique per merchant and kind' }),
  caseNumber: Str(64),
  reportDate: DateText,
  serviceReferenceNumber: Type.Optional(Str(64)),
  cardNumber: Type.Optional(Str(32)),
  cardType: Type.Optional(Str(32)),
  authorizationCode: Type.Optional(Str(16)),
  amount: Type.Optional(Type.Number()),
  transactionDate: Type.Optional(DateText),
  cbType: Type.Optional(Str(16)),
  cbTypeDescription: Type.Optional(Str()),
  disposition: Type.Optional(Str(64)),
  preDispute: Type.Optional(Str(16)),
  reasonCode: Type.Optional(Str(16)),
  reasonCodeDescription: Type.Optional(Str()),
  reasonText: Type.Optional(Str(1024)),
  requestType: Type.Optional(Str(64)),
  dateReceived: Type.Optional(DateText),
  dueDate: Type.Optional(DateText),
  referenceNumber: Type.Optional(Str(64)),
});
export type DisputeRecord = Static<typeof DisputeRecord>;

export const DisputeFeed = Type.Array(DisputeRecord, { maxItems: 100_000 });

export type LoadResult =
  { ok: true; chargebacks: number; retrievals: number } | { ok: false; errors: string[] };

/** A card as the feed gives it: a full PAN (masked here) or already masked ("411111******1111"). */
function card(value: string): { first6: string; last4: string } | null {
  const digits = value.replace(/[\s-]/g, '');
  if (/^\d{12,19}$/.test(digits) && isLuhnValid(digits))
    return { first6: digits.slice(0, 6), last4: digits.slice(-4) };
  const masked = /^(\d{6})[*Xx]{2,9}(\d{4})$/.exec(digits);
  return masked?.[1] && masked[2] ? { first6: masked[1], last4: masked[2] } : null;
}

type Row = Omit<DisputesTable, 'id'>;

/**
 * Validates the whole feed first and loads nothing when any record is wrong (every problem listed, never
 * a card number); then upserts every record by (mid, kind, recordId), so loading a feed twice is harmless.
 */
export async function loadDisputes(storage: Storage, feed: unknown, now: Date): Promise<LoadResult> {
  if (!Value.Check(DisputeFeed, feed)) {
    const errors = [...Value.Errors(DisputeFeed, feed)]
      .slice(0, 20)
      .map((e) => `${e.instancePath || '(root)'}: ${e.message}`);
    return { ok: false, errors };
  }
  const q = storage.read;
  const errors: string[] = [];
  const rows: Row[] = [];
  const merchants = new Set((await q.all(q.qb.selectFrom('merchants').select('mid'))).map((m) => m.mid));
  for (const [i, r] of feed.entries()) {
    const at = `record ${i} (${r.kind} ${r.recordId})`;
    if (!merchants.has(r.mid)) errors.push(`${at}: merchant ${r.mid} does not exist`);
    let first6 = '';
    let last4 = '';
    let cardType = r.cardType ?? '';
    let authCode = r.authorizationCode ?? '';
    let amountCents: number | undefined;
    let transactionDate = r.transactionDate ?? '';
    let reference = r.referenceNumber ?? '';
    if (r.serviceReferenceNumber !== undefined) {
      const p = await q.first(
        q.qb
          .selectFrom('payments')
          .select([
            'first6',
            'last4',
            'card_type',
            'auth_code',
            'amount_cents',
            'tax_cents',
            'tip_cents',
            'created_at',
          ])
          .where('mid', '=', r.mid)
          .where('srn', '=', r.serviceReferenceNumber),
      );
      if (!p) errors.push(`${at}: serviceReferenceNumber is not a payment of merchant ${r.mid}`);
      else {
        first6 = p.first6;
        last4 = p.last4;
        cardType = r.cardType ?? p.card_type;
        authCode = r.authorizationCode ?? p.auth_code;
        amountCents = p.amount_cents + p.tax_cents + p.tip_cents;
        transactionDate = r.transactionDate ?? p.created_at.slice(0, 10);
        reference = r.referenceNumber ?? r.serviceReferenceNumber;
      }
    }
    if (r.cardNumber !== undefined) {
      const c = card(r.cardNumber);
      if (!c) errors.push(`${at}: cardNumber is neither a valid card number nor masked as 123456******1234`);
      else {
        first6 = c.first6;
        last4 = c.last4;
        if (!cardType) cardType = detectBrand(c.first6);
      }
    }
    if (r.amount !== undefined) {
      const cents = toCents(r.amount, { allowZero: true });
      if (!cents.ok) errors.push(`${at}: amount ${cents.reason}`);
      else amountCents = cents.cents;
    }
    if (amountCents === undefined && r.amount === undefined) {
      errors.push(`${at}: amount is required (or a serviceReferenceNumber)`);
    }
    rows.push({
      mid: r.mid,
      kind: r.kind,
      record_id: r.recordId,
      case_number: r.caseNumber,
      reference_number: reference,
      card_first6: first6,
      card_last4: last4,
      card_type: cardType,
      authorization_code: authCode,
      cb_type: r.cbType ?? '',
      cb_type_description: r.cbTypeDescription ?? '',
      disposition: r.disposition ?? '',
      pre_dispute: r.preDispute ?? '',
      reason_code: r.reasonCode ?? '',
      reason_code_description: r.reasonCodeDescription ?? '',
      reason_text: r.reasonText ?? '',
      request_type: r.requestType ?? '',
      amount_cents: amountCents ?? 0,
      transaction_date: transactionDate,
      report_date: r.reportDate,
      date_received: r.dateReceived ?? '',
      due_date: r.dueDate ?? '',
      loaded_at: now.toISOString(),
    });
  }
  if (errors.length > 0) return { ok: false, errors };
  await storage.write(async (tx) => {
    for (const row of rows) {
      const { mid: _mid, kind: _kind, record_id: _record, ...rest } = row;
      await tx.run(
        tx.qb
          .insertInto('disputes')
          .values(row)
          .onConflict((oc) => oc.columns(['mid', 'kind', 'record_id']).doUpdateSet(rest)),
      );
    }
  });
  return {
    ok: true,
    chargebacks: rows.filter((r) => r.kind === 'chargeback').length,
    retrievals: rows.filter((r) => r.kind === 'retrieval').length,
  };
}
