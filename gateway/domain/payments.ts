import { ResponseCode } from '../contract/response-codes';
import { DeclineCode } from '../contract/decline-codes';
import type { SaleResponse } from '../contract/card-sale';
import type { AuthorizationKind, AuthorizationResult } from '../sandbox/processor';
import { cardFingerprint } from '../security/vault-cipher';
import type { Queryable } from '../storage/queryable';
import { prepare } from '../storage/prepared';
import type { RequestContext, Services } from './context';
import type { ResolvedCard } from './card-input';
import type { CustomerInput } from './customers';
import { saveCustomer } from './customers';
import { openBatchId } from './batches';
import { newServiceReferenceNumber } from './ids';
import { withTimeout } from './processor-timeout';
import { type Cents } from './money';
import { DomainError } from './outcome';
import { saleResponse, type PaymentRow } from './sale-response';
import { reserveTransactionNumber, settleTransactionNumber } from './transaction-numbers';
import { storeCard } from './vault';

export type Amounts = {
  baseCents: Cents;
  taxCents: Cents;
  tipCents: Cents;
  surchargeCents: Cents;
  cardDifferenceCents: Cents;
  cashbackCents: Cents;
};

export const noExtras = {
  taxCents: 0,
  tipCents: 0,
  surchargeCents: 0,
  cardDifferenceCents: 0,
  cashbackCents: 0,
};

/** Everything the card is charged, cash back included (TotalAmount of the report excludes cash back). */
export function chargedCents(a: Amounts): Cents {
  return a.baseCents + a.taxCents + a.tipCents + a.surchargeCents + a.cardDifferenceCents + a.cashbackCents;
}

export type PaymentRequest = {
  operation: string;
  authorizationKind: AuthorizationKind;
  transactionType: number;
  utn: string;
  amounts: Amounts;
  currency: string;
  card: ResolvedCard;
  pin?: { ksn: string; pinBlock: string } | undefined;
  forceDuplication: boolean;
  allowPartial: boolean;
  posCode: string;
  preauth: boolean;
  invoice?: string | undefined;
  orderRef?: string | undefined;
  paymentLinkId?: string | undefined;
  customerId?: number | undefined;
  saveToken: boolean;
  customer?: CustomerInput | undefined;
  tokenId?: number | undefined;
  street?: string | undefined;
  zip?: string | undefined;
  /** ForceRetailSale: the voice authorization code; the processor is not asked. */
  forcedAuthCode?: string | undefined;
};

export type FraudDenial = { code: number; message: string };
export type AuthorizationFacts = {
  avs: string;
  cvn: string;
  cvnGiven: boolean;
  addressGiven: boolean;
  zipGiven: boolean;
};

/**
 * The merchant's auto-deny checks for one payment, read once inside its first unit of work: the account
 * check runs before the processor is asked; `afterAuthorization` judges its AVS and CVN results with the
 * same settings (a change made while the processor answers applies from the next payment).
 */
export type FraudScreen = {
  beforeAuthorization(
    tx: Queryable,
    mid: number,
    fingerprint: string,
  ): Promise<{
    denied: FraudDenial | null;
    afterAuthorization: (facts: AuthorizationFacts) => FraudDenial | null;
  }>;
};

export const noFraudScreen: FraudScreen = {
  beforeAuthorization: () => Promise.resolve({ denied: null, afterAuthorization: () => null }),
};

// The sale path's statements, compiled once per dialect (storage/prepared.ts).
const selectDuplicate = prepare<
  { mid: number; fingerprint: string; amount: number; since: string; type: number },
  { id: number }
>((qb, p) =>
  qb
    .selectFrom('payments')
    .select('id')
    .where('mid', '=', p('mid'))
    .where('fingerprint', '=', p('fingerprint'))
    .where('amount_cents', '=', p('amount'))
    .where('created_at', '>=', p('since'))
    .where('transaction_type', '=', p('type'))
    .where((eb) => eb.or([eb('status', '=', 'approved'), eb('status', '=', 'pending')]))
    .limit(1),
);

type PaymentColumns = Omit<PaymentRow, 'id'>;
const paymentColumns: (keyof PaymentColumns)[] = [
  'srn',
  'mid',
  'cid',
  'user_id',
  'utn',
  'operation',
  'transaction_type',
  'status',
  'preauth_state',
  'requested_cents',
  'amount_cents',
  'tax_cents',
  'tip_cents',
  'surcharge_cents',
  'card_difference_cents',
  'cashback_cents',
  'currency',
  'card_type',
  'first6',
  'last4',
  'fingerprint',
  'entry_mode',
  'pos_code',
  'auth_code',
  'avs_result',
  'cvn_result',
  'response_code',
  'response_msg',
  'parent_id',
  'refunded_cents',
  'pending_refund_cents',
  'batch_id',
  'reversal_requested',
  'is_test',
  'invoice',
  'order_ref',
  'customer_id',
  'token_id',
  'payment_link_id',
  'source',
  'balance_cents',
  'created_at',
  'updated_at',
];
const insertPayment = prepare<PaymentColumns, { id: number }>((qb, p) =>
  qb
    .insertInto('payments')
    .values(Object.fromEntries(paymentColumns.map((c) => [c, p(c)])) as unknown as PaymentColumns)
    .returning('id'),
);

/** What answering a payment may change: one fixed statement rather than a per-outcome one. */
type Outcome = Pick<
  PaymentRow,
  | 'status'
  | 'auth_code'
  | 'batch_id'
  | 'response_code'
  | 'response_msg'
  | 'avs_result'
  | 'cvn_result'
  | 'amount_cents'
  | 'tax_cents'
  | 'tip_cents'
  | 'surcharge_cents'
  | 'card_difference_cents'
  | 'cashback_cents'
  | 'balance_cents'
  | 'preauth_state'
  | 'token_id'
  | 'customer_id'
  | 'updated_at'
>;
const outcomeColumns: (keyof Outcome)[] = [
  'status',
  'auth_code',
  'batch_id',
  'response_code',
  'response_msg',
  'avs_result',
  'cvn_result',
  'amount_cents',
  'tax_cents',
  'tip_cents',
  'surcharge_cents',
  'card_difference_cents',
  'cashback_cents',
  'balance_cents',
  'preauth_state',
  'token_id',
  'customer_id',
  'updated_at',
];
const updateOutcome = prepare<Outcome & { id: number }, unknown>((qb, p) =>
  qb
    .updateTable('payments')
    .set(Object.fromEntries(outcomeColumns.map((c) => [c, p(c)])) as unknown as Outcome)
    .where('id', '=', p('id')),
);

const selectPayment = prepare<{ id: number }, PaymentRow>((qb, p) =>
  qb.selectFrom('payments').selectAll().where('id', '=', p('id')),
);

const selectReversalFlag = prepare<
  { id: number },
  { reversal_requested: number; status: PaymentRow['status'] }
>((qb, p) => qb.selectFrom('payments').select(['reversal_requested', 'status']).where('id', '=', p('id')));

async function loadPayment(q: Queryable, id: number): Promise<PaymentRow> {
  const row = await q.first(selectPayment({ id }));
  if (!row) throw new Error(`payment ${id} vanished`);
  return row;
}

/**
 * One payment, in three steps: (1) a unit of work claims the UserTransactionNumber, applies the duplicate
 * rule and records the payment as pending; (2) the processor is asked, outside any transaction; (3) a
 * unit of work records the answer, joins the open batch, stores token and customer. A reversal that
 * arrived during (2) is honoured in (3): the approval is reversed at the processor, never kept.
 */
export async function runPayment(
  svc: Services & { fraud: FraudScreen; processorTimeoutMs: number },
  ctx: RequestContext,
  req: PaymentRequest,
): Promise<SaleResponse> {
  const { mid, cid, userId } = ctx.principal;
  const fingerprint = cardFingerprint(svc.keys.fingerprintKey, req.card.pan);
  const started = svc.clock.now();
  const startedIso = started.toISOString();
  const requested = chargedCents(req.amounts);

  const pending = await svc.storage.write(async (tx) => {
    await tx.lock(`utn:${mid}:${req.utn}`);
    await reserveTransactionNumber(tx, mid, req.utn, req.operation, startedIso);
    if (!req.forceDuplication) {
      await tx.lock(`card:${mid}:${fingerprint}`);
      const since = new Date(started.getTime() - svc.rules.duplicateWindowMs).toISOString();
      const dup = await tx.first(
        selectDuplicate({
          mid,
          fingerprint,
          amount: req.amounts.baseCents,
          since,
          type: req.transactionType,
        }),
      );
      if (dup) {
        throw new DomainError(ResponseCode.DuplicatePayment, [
          'A payment with the same card, amount and type was made within the duplicate window; send ForceDuplication to run it',
        ]);
      }
    }
    const { denied, afterAuthorization } = await svc.fraud.beforeAuthorization(tx, mid, fingerprint);
    const row: Omit<PaymentRow, 'id'> = {
      srn: newServiceReferenceNumber(),
      mid,
      cid,
      user_id: userId,
      utn: req.utn,
      operation: req.operation,
      transaction_type: req.transactionType,
      status: denied ? 'declined' : 'pending',
      preauth_state: null,
      requested_cents: requested,
      amount_cents: req.amounts.baseCents,
      tax_cents: req.amounts.taxCents,
      tip_cents: req.amounts.tipCents,
      surcharge_cents: req.amounts.surchargeCents,
      card_difference_cents: req.amounts.cardDifferenceCents,
      cashback_cents: req.amounts.cashbackCents,
      currency: req.currency,
      card_type: req.card.cardType,
      first6: req.card.first6,
      last4: req.card.last4,
      fingerprint,
      entry_mode: req.card.entryMode,
      pos_code: req.posCode,
      auth_code: '',
      avs_result: '',
      cvn_result: '',
      response_code: denied?.code ?? 0,
      response_msg: denied?.message ?? '',
      parent_id: null,
      refunded_cents: 0,
      pending_refund_cents: 0,
      batch_id: null,
      reversal_requested: 0,
      is_test: ctx.isTest ? 1 : 0,
      invoice: req.invoice ?? null,
      order_ref: req.orderRef ?? null,
      customer_id: req.customerId ?? null,
      token_id: req.tokenId ?? null,
      payment_link_id: req.paymentLinkId ?? null,
      source: ctx.source,
      balance_cents: null,
      created_at: startedIso,
      updated_at: startedIso,
    };
    const inserted = await tx.first(insertPayment(row));
    if (!inserted) throw new Error('payment insert returned no id');
    if (denied) await settleTransactionNumber(tx, mid, req.utn, inserted.id);
    return { id: inserted.id, row: { ...row, id: inserted.id }, denied, afterAuthorization };
  });
  if (pending.denied) return saleResponse(pending.row, pending.denied.code, [pending.denied.message]);

  let result: AuthorizationResult;
  if (req.forcedAuthCode !== undefined) {
    result = {
      approved: true,
      approvedCents: requested,
      authCode: req.forcedAuthCode,
      avs: 'U',
      cvn: 'P',
      message: 'Force posted',
    };
  } else {
    const answer = await withTimeout(
      svc.processor
        .authorize({
          kind: req.authorizationKind,
          mid,
          totalCents: requested,
          cashbackCents: req.amounts.cashbackCents,
          card: {
            pan: req.card.pan,
            expiryYYMM: req.card.expiryYYMM,
            entryMode: req.card.entryMode,
            cardType: req.card.cardType,
            ...(req.card.cvn !== undefined ? { cvn: req.card.cvn } : {}),
            ...(req.card.name !== undefined ? { name: req.card.name } : {}),
            ...(req.street !== undefined ? { street: req.street } : {}),
            ...(req.zip !== undefined ? { zip: req.zip } : {}),
          },
          ...(req.pin ? { pin: req.pin } : {}),
          ...(req.card.emvTlvHex !== undefined ? { emv: { tlvHex: req.card.emvTlvHex } } : {}),
          allowPartial: req.allowPartial,
        })
        .catch((): AuthorizationResult => ({
          approved: false,
          code: ResponseCode.ProcessorUnavailable,
          message: 'Processor error',
          avs: 'U',
          cvn: 'U',
        })),
      svc.processorTimeoutMs,
    );
    result =
      answer === 'timeout'
        ? {
            approved: false,
            code: ResponseCode.ProcessorTimeout,
            message: 'Processor timeout',
            avs: 'U',
            cvn: 'U',
          }
        : answer;
    if (answer === 'timeout') {
      // The processor may still approve after we gave up: cancel whatever it does.
      void svc.processor.reverse({ mid, amountCents: requested, authCode: '' }).catch(() => undefined);
    }
  }

  // A decline for the CVN mismatch itself is screened too: with the merchant's Cvv auto-deny check on, the
  // sale is denied by that rule and answers its code (112) rather than the issuer's (103).
  if (result.approved || result.code === DeclineCode.CvnMismatch) {
    const fraud = pending.afterAuthorization({
      avs: result.avs,
      cvn: result.cvn,
      cvnGiven: req.card.cvn !== undefined,
      addressGiven: req.street !== undefined,
      zipGiven: req.zip !== undefined,
    });
    if (fraud) {
      if (result.approved) {
        await svc.processor.reverse({ mid, amountCents: result.approvedCents, authCode: result.authCode });
      }
      result = {
        approved: false,
        code: fraud.code,
        message: fraud.message,
        avs: result.avs,
        cvn: result.cvn,
      };
    }
  }

  const final = await svc.storage.write(async (tx) => {
    const now = svc.clock.now().toISOString();
    // Held against DoReversal, which flags this payment under the same key.
    await tx.lock(`utn:${mid}:${req.utn}`);
    // Only the reversal flag can have changed since step (1): the rest of the row is still pending.row.
    const flag = await tx.first(selectReversalFlag({ id: pending.id }));
    const current: PaymentRow = { ...pending.row, reversal_requested: flag?.reversal_requested ? 1 : 0 };
    if (flag && flag.status !== 'pending') {
      // Another gateway process's recovery sweep gave this payment up (it stayed pending past every
      // timeout) and reversed it: its verdict stands, and an approval that came this late is undone.
      return {
        row: { ...current, status: flag.status },
        code: ResponseCode.ProcessorTimeout,
        messages: ['The payment was abandoned while the processor was answering; nothing is charged'],
        token: undefined,
        customerId: current.customer_id,
        reverseAfterCommit: true,
      };
    }
    const set: Partial<Omit<PaymentRow, 'id'>> = {
      updated_at: now,
      avs_result: result.avs,
      cvn_result: result.cvn,
    };
    let code: number;
    let messages: string[];
    let token: string | undefined;
    let customerId: number | null = null;
    let reverseAfterCommit = false;
    if (result.approved && current.reversal_requested) {
      set.status = 'reversed';
      set.auth_code = result.authCode;
      set.response_code = ResponseCode.TransactionNumberBlocked;
      set.response_msg = 'Reversed while the processor was answering';
      code = ResponseCode.TransactionNumberBlocked;
      messages = [
        'A reversal for this UserTransactionNumber arrived first: the approval was reversed, nothing is charged',
      ];
      reverseAfterCommit = true;
    } else if (result.approved) {
      const partial = result.approvedCents < requested;
      // A preauthorization holds funds but moves none: only its completion joins the batch.
      const batchId = req.preauth ? null : await openBatchId(tx, mid, now);
      set.status = 'approved';
      set.auth_code = result.authCode;
      set.batch_id = batchId;
      set.response_code = partial ? ResponseCode.PartialApproval : ResponseCode.Success;
      set.response_msg = result.message;
      if (result.balanceCents !== undefined) set.balance_cents = result.balanceCents;
      if (req.preauth) set.preauth_state = 'open';
      if (partial) {
        // The approved total covers the extras first when it can; otherwise it is all base amount.
        const extras = requested - req.amounts.baseCents;
        if (result.approvedCents > extras) {
          set.amount_cents = result.approvedCents - extras;
        } else {
          Object.assign(set, {
            amount_cents: result.approvedCents,
            tax_cents: 0,
            tip_cents: 0,
            surcharge_cents: 0,
            card_difference_cents: 0,
            cashback_cents: 0,
          });
        }
      }
      code = set.response_code;
      messages = [
        partial ? 'Partially approved: collect the remaining balance with another tender' : 'Approved',
      ];
      if (req.saveToken) {
        const stored = await storeCard(
          tx,
          svc.keys,
          { mid, userId, processor: svc.processor.name },
          {
            pan: req.card.pan,
            expiryYYMM: req.card.expiryYYMM,
            cardType: req.card.cardType,
            holderName: req.card.name,
            street: req.street,
            zip: req.zip,
          },
          now,
        );
        token = stored.token;
        set.token_id = stored.id;
      }
      if (req.customer) {
        customerId = await saveCustomer(tx, mid, req.customer, now);
        set.customer_id = customerId;
      }
    } else {
      set.status = result.code === ResponseCode.ProcessorTimeout ? 'failed' : 'declined';
      set.response_code = result.code;
      set.response_msg = result.message;
      code = result.code;
      messages = [result.message];
    }
    const row: PaymentRow = { ...current, ...set };
    await tx.run(updateOutcome(row));
    await settleTransactionNumber(tx, mid, req.utn, pending.id);
    return {
      row,
      code,
      messages,
      token,
      customerId: customerId ?? current.customer_id,
      reverseAfterCommit,
    };
  });
  if (final.reverseAfterCommit && result.approved) {
    await svc.processor.reverse({ mid, amountCents: result.approvedCents, authCode: result.authCode });
  }
  // The issuer's answer goes to the card only when it is the payment's outcome: an approval the gateway
  // then undid (fraud screen, reversal, abandonment) must not reach the card as an approval.
  const approvedFinal = final.code === ResponseCode.Success || final.code === ResponseCode.PartialApproval;
  const emvData = result.approved === approvedFinal ? result.issuerEmvData : undefined;
  return saleResponse(final.row, final.code, final.messages, {
    ...(final.token ? { token: final.token } : {}),
    customerId: final.customerId,
    ...(emvData ? { emvData } : {}),
  });
}

export { loadPayment };
