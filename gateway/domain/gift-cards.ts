import type { Selectable } from 'kysely';
import type { SaleResponse } from '../contract/card-sale';
import { ResponseCode } from '../contract/response-codes';
import { DeclineCode } from '../contract/decline-codes';
import {
  GIFT_CARD_MAX_BALANCE_CENTS,
  sandboxGiftCards,
  type SandboxGiftCard,
} from '../sandbox/tender-test-data';
import { cardFingerprint } from '../security/vault-cipher';
import type { Queryable } from '../storage/queryable';
import type { GiftCardsTable } from '../storage/schema-tenders';
import type { RequestContext, Services } from './context';
import { formatCents, type Cents } from './money';
import { DomainError, outcome } from './outcome';
import { saleResponse } from './sale-response';
import {
  balanceOf,
  runMovement,
  type AccountCheck,
  type StoredValueCard,
  type TenderAmounts,
} from './stored-value';
import { reserveTransactionNumber, settleTransactionNumber } from './transaction-numbers';

/** Card type of gift card payments in reports (the card mix shows it as "Gift Card"). */
export const GIFT_CARD_TYPE = 'GiftCard';

type GiftRow = Selectable<GiftCardsTable>;

const sandboxByPan = new Map(sandboxGiftCards.map((c) => [c.pan, c]));

function sandboxCard(sandbox: boolean, pan: string): SandboxGiftCard | undefined {
  return sandbox ? sandboxByPan.get(pan) : undefined;
}

async function findCard(q: Queryable, mid: number, fingerprint: string): Promise<GiftRow | undefined> {
  // One unit of work at a time reads and spends a card's balance (PostgreSQL; SQLite's writer is single).
  await q.lock(`gift:${mid}:${fingerprint}`);
  return q.first(
    q.qb.selectFrom('gift_cards').selectAll().where('mid', '=', mid).where('fingerprint', '=', fingerprint),
  );
}

/** The merchant's card, issuing a sandbox pre-issued card (in its documented state) on first use. */
async function cardInUnit(
  tx: Queryable,
  mid: number,
  card: StoredValueCard,
  fingerprint: string,
  now: string,
  sandbox: boolean,
): Promise<GiftRow | undefined> {
  const found = await findCard(tx, mid, fingerprint);
  if (found) return found;
  const preset = sandboxCard(sandbox, card.pan);
  if (!preset) return undefined;
  const row = {
    mid,
    fingerprint,
    first6: card.first6,
    last4: card.last4,
    status: preset.status,
    opening_cents: preset.openingCents,
    created_at: now,
    updated_at: now,
  };
  const inserted = await tx.first(tx.qb.insertInto('gift_cards').values(row).returning('id'));
  if (!inserted) throw new Error('gift card insert returned no id');
  return { ...row, id: inserted.id };
}

const notIssued = () =>
  new DomainError(ResponseCode.NotFound, [
    'Gift card not found: it was never activated at this merchant (Activate issues it)',
  ]);

function account(row: GiftRow, decline?: AccountCheck['decline']): AccountCheck {
  return {
    kind: 'gift',
    accountId: row.id,
    program: 'gift',
    openingCents: row.opening_cents,
    maxBalanceCents: GIFT_CARD_MAX_BALANCE_CENTS,
    decline,
  };
}

const inactive = { code: DeclineCode.CardInactive, message: 'The gift card is not active' };

function cardOnlyAnswer(
  code: number,
  messages: string[],
  card: StoredValueCard,
  balance?: Cents,
): SaleResponse {
  return {
    ...outcome(code, messages),
    CardType: GIFT_CARD_TYPE,
    LastFour: card.last4,
    ...(balance !== undefined ? { Balance: formatCents(balance) } : {}),
  };
}

export type GiftMovement = {
  operation: 'gift_sale' | 'gift_reload' | 'refund';
  utn: string;
  amounts: TenderAmounts;
  card: StoredValueCard;
  forceDuplication: boolean;
  invoice?: string | undefined;
  orderRef?: string | undefined;
};

/**
 * Sale (debit, partial approval when the balance is short, never below zero), Reload and Refund (credits,
 * up to the maximum balance). Gift card refunds are recorded with the operation `refund`, so a batch nets
 * them as returns; they are not tied to an original sale (the card is credited).
 */
export async function giftMovement(
  svc: Services & { sandbox: boolean },
  ctx: RequestContext,
  m: GiftMovement,
): Promise<SaleResponse> {
  const result = await runMovement(
    svc,
    ctx,
    {
      operation: m.operation,
      transactionType: 7,
      cardType: GIFT_CARD_TYPE,
      utn: m.utn,
      amounts: m.amounts,
      card: m.card,
      direction: m.operation === 'gift_sale' ? 'debit' : 'credit',
      allowPartial: true,
      forceDuplication: m.forceDuplication,
      invoice: m.invoice,
      orderRef: m.orderRef,
    },
    async (tx, fingerprint, now) => {
      const row = await cardInUnit(tx, ctx.principal.mid, m.card, fingerprint, now, svc.sandbox);
      if (!row) throw notIssued();
      return account(row, row.status === 'active' ? undefined : inactive);
    },
  );
  return saleResponse(result.row, result.code, result.messages);
}

/**
 * Activate: issues the card (a sandbox pre-issued one, or any valid number) or re-activates a deactivated
 * one, and loads Amount when it is positive (a payment that joins the batch). An active card is refused.
 */
export async function activateGiftCard(
  svc: Services & { sandbox: boolean },
  ctx: RequestContext,
  a: { utn: string; card: StoredValueCard; amounts: TenderAmounts; forceDuplication: boolean },
): Promise<SaleResponse> {
  const { mid } = ctx.principal;
  const activate = async (tx: Queryable, fingerprint: string, now: string): Promise<GiftRow> => {
    let row = await cardInUnit(tx, mid, a.card, fingerprint, now, svc.sandbox);
    if (row?.status === 'active') {
      throw new DomainError(ResponseCode.GiftCardAlreadyActive, [
        'The gift card is already active: use Reload to add value',
      ]);
    }
    if (!row) {
      const values = {
        mid,
        fingerprint,
        first6: a.card.first6,
        last4: a.card.last4,
        status: 'active' as const,
        opening_cents: 0,
        created_at: now,
        updated_at: now,
      };
      const inserted = await tx.first(tx.qb.insertInto('gift_cards').values(values).returning('id'));
      if (!inserted) throw new Error('gift card insert returned no id');
      row = { ...values, id: inserted.id };
    } else {
      await tx.run(
        tx.qb.updateTable('gift_cards').set({ status: 'active', updated_at: now }).where('id', '=', row.id),
      );
      row = { ...row, status: 'active' };
    }
    const balance = await balanceOf(tx, 'gift', row.id, 'gift', row.opening_cents);
    if (balance + a.amounts.baseCents > GIFT_CARD_MAX_BALANCE_CENTS) {
      // Thrown before anything is kept: the card stays as it was.
      throw new DomainError(ResponseCode.GiftCardBalanceLimit, [
        `The load would take the balance past ${formatCents(GIFT_CARD_MAX_BALANCE_CENTS)}; the card was not activated`,
      ]);
    }
    return row;
  };

  if (a.amounts.baseCents > 0) {
    const result = await runMovement(
      svc,
      ctx,
      {
        operation: 'gift_activate',
        transactionType: 7,
        cardType: GIFT_CARD_TYPE,
        utn: a.utn,
        amounts: a.amounts,
        card: a.card,
        direction: 'credit',
        allowPartial: false,
        forceDuplication: a.forceDuplication,
      },
      async (tx, fingerprint, now) => account(await activate(tx, fingerprint, now)),
    );
    return saleResponse(result.row, result.code, [
      'Activated',
      ...result.messages.filter((x) => x !== 'Approved'),
    ]);
  }
  const fingerprint = cardFingerprint(svc.keys.fingerprintKey, a.card.pan);
  const balance = await svc.storage.write(async (tx) => {
    const now = svc.clock.now().toISOString();
    await reserveTransactionNumber(tx, mid, a.utn, 'gift_activate', now);
    const row = await activate(tx, fingerprint, now);
    await settleTransactionNumber(tx, mid, a.utn, null);
    return balanceOf(tx, 'gift', row.id, 'gift', row.opening_cents);
  });
  return cardOnlyAnswer(ResponseCode.Success, ['Activated'], a.card, balance);
}

/** Deactivate: the card keeps its balance but refuses every operation (114) until activated again. */
export async function deactivateGiftCard(
  svc: Services & { sandbox: boolean },
  ctx: RequestContext,
  card: StoredValueCard,
): Promise<SaleResponse> {
  const fingerprint = cardFingerprint(svc.keys.fingerprintKey, card.pan);
  await svc.storage.write(async (tx) => {
    const now = svc.clock.now().toISOString();
    const row = await cardInUnit(tx, ctx.principal.mid, card, fingerprint, now, svc.sandbox);
    if (!row) throw notIssued();
    if (row.status !== 'active') {
      throw new DomainError(ResponseCode.InvalidState, ['The gift card is already inactive']);
    }
    await tx.run(
      tx.qb.updateTable('gift_cards').set({ status: 'inactive', updated_at: now }).where('id', '=', row.id),
    );
  });
  return cardOnlyAnswer(ResponseCode.Success, ['Deactivated'], card);
}

/** GetBalance: read only; a sandbox card not used yet shows its documented state without being written. */
export async function giftCardBalance(
  svc: Services & { sandbox: boolean },
  ctx: RequestContext,
  card: StoredValueCard,
): Promise<SaleResponse> {
  const q = svc.storage.read;
  const fingerprint = cardFingerprint(svc.keys.fingerprintKey, card.pan);
  const row = await q.first(
    q.qb
      .selectFrom('gift_cards')
      .selectAll()
      .where('mid', '=', ctx.principal.mid)
      .where('fingerprint', '=', fingerprint),
  );
  const preset = sandboxCard(svc.sandbox, card.pan);
  if (!row && !preset) throw notIssued();
  const status = row?.status ?? preset?.status;
  if (status !== 'active') return cardOnlyAnswer(inactive.code, [inactive.message], card);
  const balance = row
    ? await balanceOf(q, 'gift', row.id, 'gift', row.opening_cents)
    : (preset?.openingCents ?? 0);
  return cardOnlyAnswer(ResponseCode.Success, ['Balance'], card, balance);
}
