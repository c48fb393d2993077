import { ResponseCode } from '../contract/response-codes';
import { DeclineCode } from '../contract/decline-codes';
import type { SaleResponse } from '../contract/card-sale';
import type { AuthorizationKind, AuthorizationResult } from './processor-port';
import { cardFingerprint } from '../security/vault-cipher';
import type { Queryable } from '../storage/queryable';
import { prepare, type Query } from '../storage/prepared';
import type { RequestContext, Services } from './context';
import type { ResolvedCard } from './card-input';
import type { CustomerInput } from './customers';
import { saveCustomer } from './customers';
import { openBatchId } from './batches';
import { newServiceReferenceNumber } from './ids';
import { withTimeout } from './processor-timeout';
import { type Cents } from './money';
import { saleResponse, type PaymentRow } from './sale-response';
import { reserveTransactionNumber, settleTransactionNumber } from './rules/user-transaction-number';
import { outcomeColumns, paymentColumns, type Outcome, type PaymentColumns } from './payment-columns';
import { finishPaymentStatement, startPaymentStatement } from './payment-one-trip';
import { chargedCents, type AmountColumns } from './rules/card-paid';
import { duplicateLockKey, duplicateRefusal, selectDuplicate, windowStart } from './rules/duplicate-payment';
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

/** A request's amounts as the payment row records them (what rules/card-paid.ts sums). */
function amountColumns(a: Amounts): AmountColumns {
  return {
    amount_cents: a.baseCents,
    tax_cents: a.taxCents,
    tip_cents: a.tipCents,
    surcharge_cents: a.surchargeCents,
    card_difference_cents: a.cardDifferenceCents,
    cashback_cents: a.cashbackCents,
  };
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

/** What a fraud screen reads for one payment: the merchant's checks (0/1) and whether the card is listed. */
export type ScreenFacts = { account: number; address: number; cvv: number; zip_code: number; listed: number };

export type ScreenVerdict = {
  denied: FraudDenial | null;
  afterAuthorization: (facts: AuthorizationFacts) => FraudDenial | null;
};

/**
 * The merchant's auto-deny checks for one payment. `facts` is the one statement that reads what the screen
 * judges (a row, or none when the merchant has no settings), run inside the payment's first unit of work —
 * as a statement rather than code, so that on PostgreSQL it travels in that unit's single round trip.
 * `judge` decides from it: `denied` refuses the card before the processor is asked; `afterAuthorization`
 * judges the processor's AVS and CVN results with the same settings (a change made while the processor
 * answers applies from the next payment).
 */
export type FraudScreen = {
  facts(mid: number, fingerprint: string): Query<ScreenFacts> | null;
  judge(facts: ScreenFacts | undefined): ScreenVerdict;
};

// The sale path's statements, compiled once per dialect (storage/prepared.ts).
const insertPayment = prepare<PaymentColumns, { id: number }>((qb, p) =>
  qb
    .insertInto('payments')
    .values(Object.fromEntries(paymentColumns.map((c) => [c, p(c)])) as unknown as PaymentColumns)
    .returning('id'),
);

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

type Pending = { row: PaymentRow; verdict: ScreenVerdict };

/**
 * Step (1): claims the UserTransactionNumber, applies the duplicate rule, records the payment as pending
 * and reads what the fraud screen judges. On PostgreSQL one round trip does all of it for a fresh number
 * and a payment that is no duplicate (payment-one-trip.ts); otherwise, and always on SQLite, the unit of
 * work below, statement by statement, which refuses with the rule's code.
 */
async function startPayment(
  svc: Services & { fraud: FraudScreen },
  req: PaymentRequest,
  row: PaymentColumns,
  since: string,
): Promise<Pending> {
  const { mid, fingerprint } = row;
  const facts = svc.fraud.facts(mid, fingerprint);
  const batch = svc.storage.batch;
  if (batch) {
    const locks = [{ key: `utn:${mid}:${req.utn}` }];
    if (!req.forceDuplication) locks.push({ key: duplicateLockKey(mid, fingerprint) });
    const start = startPaymentStatement(row, { checkDuplicate: !req.forceDuplication, since });
    const [inserted, screened] = facts
      ? await batch(locks, [start, facts] as const)
      : [...(await batch(locks, [start] as const)), []];
    const id = inserted[0]?.id;
    // No row: nothing was written (the number is taken, or a duplicate): the unit below says which.
    if (id !== undefined) return { row: { ...row, id }, verdict: svc.fraud.judge(screened[0]) };
  }
  return svc.storage.write(async (tx) => {
    await tx.lock(`utn:${mid}:${req.utn}`);
    await reserveTransactionNumber(tx, mid, req.utn, req.operation, row.created_at);
    if (!req.forceDuplication) {
      await tx.lock(duplicateLockKey(mid, fingerprint));
      const dup = await tx.first(
        selectDuplicate({
          mid,
          fingerprint,
          amount: req.amounts.baseCents,
          type: req.transactionType,
          operation: req.operation,
          since,
        }),
      );
      if (dup) throw duplicateRefusal();
    }
    const screened = facts ? await tx.first(facts) : undefined;
    const inserted = await tx.first(insertPayment(row));
    if (!inserted) throw new Error('payment insert returned no id');
    return { row: { ...row, id: inserted.id }, verdict: svc.fraud.judge(screened) };
  });
}

/** What step (3) writes for a payment still pending and not asked to be reversed, and how it answers. */
type Decision = {
  set: Partial<Omit<PaymentRow, 'id'>>;
  code: number;
  messages: string[];
  /** An approval that moves money: it joins the merchant's open batch. */
  joinsBatch: boolean;
};

/** What the processor answered, or `null` for a payment the fraud screen declined before asking it. */
type Answer = { result: AuthorizationResult; asked: boolean };

function decideOutcome(req: PaymentRequest, { result, asked }: Answer, now: string): Decision {
  // A payment never sent to the processor has no AVS or CVN result.
  const set: Partial<Omit<PaymentRow, 'id'>> = {
    updated_at: now,
    avs_result: asked ? result.avs : '',
    cvn_result: asked ? result.cvn : '',
  };
  if (!result.approved) {
    set.status = result.code === ResponseCode.ProcessorTimeout ? 'failed' : 'declined';
    set.response_code = result.code;
    set.response_msg = result.message;
    return { set, code: result.code, messages: [result.message], joinsBatch: false };
  }
  const requested = chargedCents(amountColumns(req.amounts));
  const partial = result.approvedCents < requested;
  set.status = 'approved';
  set.auth_code = result.authCode;
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
  return {
    set,
    code: set.response_code,
    messages: [
      partial ? 'Partially approved: collect the remaining balance with another tender' : 'Approved',
    ],
    // A preauthorization holds funds but moves none: only its completion joins the batch.
    joinsBatch: !req.preauth,
  };
}

function outcomeOf(row: PaymentRow): Omit<Outcome, 'batch_id'> {
  const { batch_id: _batch, ...rest } = Object.fromEntries(
    outcomeColumns.map((c) => [c, row[c]]),
  ) as unknown as Outcome;
  return rest;
}

type Finished = {
  row: PaymentRow;
  code: number;
  messages: string[];
  token: string | undefined;
  customerId: number | null;
  reverseAfterCommit: boolean;
};

/**
 * Step (3): records the processor's answer. On PostgreSQL one round trip records a payment still pending
 * (payment-one-trip.ts) unless it stores a card or a customer; otherwise, and always on SQLite, the unit
 * below, which also honours a reversal that arrived while the processor answered and a payment the
 * recovery gave up.
 */
async function finishPayment(
  svc: Services,
  ctx: RequestContext,
  req: PaymentRequest,
  pending: PaymentRow,
  answer: Answer,
): Promise<Finished> {
  const { mid, userId } = ctx.principal;
  const { result } = answer;
  const batch = svc.storage.batch;
  if (batch && !req.saveToken && !req.customer) {
    const decision = decideOutcome(req, answer, svc.clock.now().toISOString());
    const row: PaymentRow = { ...pending, ...decision.set };
    const [done] = await batch([{ key: `utn:${mid}:${req.utn}` }], [
      finishPaymentStatement(row, outcomeOf(row), result.approved, decision.joinsBatch),
    ] as const);
    const recorded = done[0];
    if (recorded) {
      return {
        row: { ...row, batch_id: recorded.batch_id },
        code: decision.code,
        messages: decision.messages,
        token: undefined,
        customerId: row.customer_id,
        reverseAfterCommit: false,
      };
    }
  }
  return svc.storage.write(async (tx): Promise<Finished> => {
    const now = svc.clock.now().toISOString();
    // Held against DoReversal, which flags this payment under the same key.
    await tx.lock(`utn:${mid}:${req.utn}`);
    // Only the reversal flag can have changed since step (1): the rest of the row is still pending.
    const flag = await tx.first(selectReversalFlag({ id: pending.id }));
    const current: PaymentRow = { ...pending, reversal_requested: flag?.reversal_requested ? 1 : 0 };
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
    let decision: Decision;
    let token: string | undefined;
    let customerId: number | null = null;
    let reverseAfterCommit = false;
    if (result.approved && current.reversal_requested) {
      decision = {
        set: {
          updated_at: now,
          avs_result: result.avs,
          cvn_result: result.cvn,
          status: 'reversed',
          auth_code: result.authCode,
          response_code: ResponseCode.TransactionNumberBlocked,
          response_msg: 'Reversed while the processor was answering',
        },
        code: ResponseCode.TransactionNumberBlocked,
        messages: [
          'A reversal for this UserTransactionNumber arrived first: the approval was reversed, nothing is charged',
        ],
        joinsBatch: false,
      };
      reverseAfterCommit = true;
    } else {
      decision = decideOutcome(req, answer, now);
      if (decision.joinsBatch) decision.set.batch_id = await openBatchId(tx, mid, now);
      if (result.approved && req.saveToken) {
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
        decision.set.token_id = stored.id;
      }
      if (result.approved && req.customer) {
        customerId = await saveCustomer(tx, mid, req.customer, now);
        decision.set.customer_id = customerId;
      }
    }
    const row: PaymentRow = { ...current, ...decision.set };
    await tx.run(updateOutcome(row));
    await settleTransactionNumber(tx, mid, req.utn, pending.id);
    return {
      row,
      code: decision.code,
      messages: decision.messages,
      token,
      customerId: customerId ?? current.customer_id,
      reverseAfterCommit,
    };
  });
}

/**
 * One payment, in three steps: (1) a unit of work claims the UserTransactionNumber, applies the duplicate
 * rule, records the payment as pending and reads what the fraud screen judges; (2) the processor is asked,
 * outside any transaction — unless the screen denies the card, which is then declined without asking;
 * (3) a unit of work records the answer, joins the open batch, stores token and customer. A reversal that
 * arrived during (2) is honoured in (3): the approval is reversed at the processor, never kept.
 */
/** What a payment needs of the gateway's services: the domain's own, the fraud screen, the processor timeout. */
export type PaymentServices = Services & { fraud: FraudScreen; processorTimeoutMs: number };

export async function runPayment(
  svc: PaymentServices,
  ctx: RequestContext,
  req: PaymentRequest,
): Promise<SaleResponse> {
  const { mid, cid, userId } = ctx.principal;
  const fingerprint = cardFingerprint(svc.keys.fingerprintKey, req.card.pan);
  const started = svc.clock.now();
  const startedIso = started.toISOString();
  const requested = chargedCents(amountColumns(req.amounts));
  const since = windowStart(started, svc.rules.duplicateWindowMs);

  const pending = await startPayment(
    svc,
    req,
    {
      srn: newServiceReferenceNumber(),
      mid,
      cid,
      user_id: userId,
      utn: req.utn,
      operation: req.operation,
      transaction_type: req.transactionType,
      status: 'pending',
      preauth_state: null,
      requested_cents: requested,
      ...amountColumns(req.amounts),
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
      response_code: 0,
      response_msg: '',
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
    },
    since,
  );
  const { denied, afterAuthorization } = pending.verdict;

  let result: AuthorizationResult;
  if (denied) {
    // Refused by the merchant's own rule before the processor is asked: a decline, recorded in step (3).
    result = { approved: false, code: denied.code, message: denied.message, avs: 'U', cvn: 'U' };
  } else if (req.forcedAuthCode !== undefined) {
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
  if (!denied && (result.approved || result.code === DeclineCode.CvnMismatch)) {
    const fraud = afterAuthorization({
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

  const final = await finishPayment(svc, ctx, req, pending.row, { result, asked: denied === null });
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
