import type { Selectable } from 'kysely';
import { ResponseCode } from '../contract/response-codes';
import { DeclineCode } from '../contract/decline-codes';
import { cardFingerprint } from '../security/vault-cipher';
import type { Queryable } from '../storage/queryable';
import type { EbtAccountsTable, StoredValueProgram } from '../storage/schema-tenders';
import type { RequestContext, Services } from './context';
import type { Issuers } from './issuer-port';
import { formatCents, type Cents } from './money';
import { DomainError, outcome } from './outcome';
import { saleResponse } from './sale-response';
import { balanceOf, runMovement, type StoredValueCard, type TenderAmounts } from './stored-value';

/** Card type of EBT payments in reports. */
export const EBT_CARD_TYPE = 'EBT';

/** TransactionType of every EBT payment (interface enumeration: EBT=6). */
export const EBT_TRANSACTION_TYPE = 6;

type EbtRow = Selectable<EbtAccountsTable>;

export type PinData = { ksn: string; pinBlock: string };

const unknownCard = () =>
  new DomainError(DeclineCode.CardNotSupported, ['The card is not an EBT card of the sandbox EBT issuer']);

/** The issuer's account for a card, opening a sandbox account (documented balances) on first use. */
async function accountInUnit(
  tx: Queryable,
  issuers: Issuers,
  card: StoredValueCard,
  fingerprint: string,
  now: string,
): Promise<EbtRow> {
  // The benefit account is shared by every merchant: one unit of work at a time reads and spends it.
  await tx.lock(`ebt:${fingerprint}`);
  const found = await tx.first(
    tx.qb.selectFrom('ebt_accounts').selectAll().where('fingerprint', '=', fingerprint),
  );
  if (found) return found;
  const preset = issuers.ebtAccount(card.pan);
  if (!preset) throw unknownCard();
  const values = {
    fingerprint,
    first6: card.first6,
    last4: card.last4,
    food_opening_cents: preset.foodCents,
    cash_opening_cents: preset.cashCents,
    created_at: now,
  };
  const inserted = await tx.first(tx.qb.insertInto('ebt_accounts').values(values).returning('id'));
  if (!inserted) throw new Error('EBT account insert returned no id');
  return { ...values, id: inserted.id };
}

async function balances(q: Queryable, row: EbtRow): Promise<{ food: Cents; cash: Cents }> {
  return {
    food: await balanceOf(q, 'ebt', row.id, 'food', row.food_opening_cents),
    cash: await balanceOf(q, 'ebt', row.id, 'cash', row.cash_opening_cents),
  };
}

function balanceFields(b: { food: Cents; cash: Cents }) {
  return { FoodStampBalance: formatCents(b.food), CashBenefitsBalance: formatCents(b.cash) };
}

/** Balance inquiry of one program (PIN required); both balances are returned, Balance is the program's. */
export async function ebtBalance(
  svc: Services,
  card: StoredValueCard,
  pin: PinData,
  program: 'food' | 'cash',
) {
  const base = { CardType: EBT_CARD_TYPE, LastFour: card.last4 };
  if (!svc.issuers.ebtPinVerifies(card.pan, pin))
    return { ...outcome(DeclineCode.IncorrectPin, ['Incorrect PIN']), ...base };
  const q = svc.storage.read;
  const fingerprint = cardFingerprint(svc.keys.fingerprintKey, card.pan);
  const row = await q.first(
    q.qb.selectFrom('ebt_accounts').selectAll().where('fingerprint', '=', fingerprint),
  );
  let b: { food: Cents; cash: Cents };
  if (row) b = await balances(q, row);
  else {
    const preset = svc.issuers.ebtAccount(card.pan);
    if (!preset) throw unknownCard();
    b = { food: preset.foodCents, cash: preset.cashCents };
  }
  return {
    ...outcome(ResponseCode.Success, ['Balance']),
    ...base,
    Balance: formatCents(program === 'food' ? b.food : b.cash),
    ...balanceFields(b),
  };
}

export type EbtMovement = {
  operation: 'ebt_food_sale' | 'ebt_cash_sale' | 'ebt_cash_withdrawal' | 'refund';
  program: StoredValueProgram & ('food' | 'cash');
  utn: string;
  amounts: TenderAmounts;
  card: StoredValueCard;
  pin: PinData;
  forceDuplication: boolean;
  invoice?: string | undefined;
  orderRef?: string | undefined;
};

/**
 * Food and cash purchases (partial approval on a short balance, but never with cash back), cash
 * withdrawals (all or nothing) and food returns (a credit, recorded as the operation `refund` so the batch
 * nets it). A wrong PIN is a declined payment (105): the number is used, as with a processor decline.
 */
export async function ebtMovement(svc: Services, ctx: RequestContext, m: EbtMovement) {
  const pinOk = svc.issuers.ebtPinVerifies(m.card.pan, m.pin);
  let accountRow: EbtRow | undefined;
  // The other program's balance, read in the movement's own unit of work: the answer tells the balances
  // this movement left, not those of whatever another request did after its commit.
  const other = m.program === 'food' ? 'cash' : 'food';
  let otherBalance: Cents = 0;
  const result = await runMovement(
    svc,
    ctx,
    {
      operation: m.operation,
      transactionType: EBT_TRANSACTION_TYPE,
      cardType: EBT_CARD_TYPE,
      utn: m.utn,
      amounts: m.amounts,
      card: m.card,
      direction: m.operation === 'refund' ? 'credit' : 'debit',
      allowPartial: m.operation !== 'ebt_cash_withdrawal',
      forceDuplication: m.forceDuplication,
      invoice: m.invoice,
      orderRef: m.orderRef,
    },
    async (tx, fingerprint, now) => {
      const row = await accountInUnit(tx, svc.issuers, m.card, fingerprint, now);
      accountRow = row;
      otherBalance = await balanceOf(
        tx,
        'ebt',
        row.id,
        other,
        other === 'food' ? row.food_opening_cents : row.cash_opening_cents,
      );
      return {
        kind: 'ebt',
        accountId: row.id,
        program: m.program,
        openingCents: m.program === 'food' ? row.food_opening_cents : row.cash_opening_cents,
        decline: pinOk ? undefined : { code: DeclineCode.IncorrectPin, message: 'Incorrect PIN' },
      };
    },
  );
  const response = saleResponse(result.row, result.code, result.messages);
  if (!pinOk || !accountRow) {
    const { Balance: _hidden, ...rest } = response;
    return rest;
  }
  const moved = result.balanceCents;
  return {
    ...response,
    ...balanceFields(
      m.program === 'food' ? { food: moved, cash: otherBalance } : { food: otherBalance, cash: moved },
    ),
  };
}
