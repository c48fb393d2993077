import type { PreauthCompleteRequest, RefundOutcome, TransactionView } from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import { bridgeFailureOf } from '../gateway-client/bridge-failure';
import { refundableCents, takenCents } from '../../common/transaction-amounts';
import { fromWire, isCents, toWire } from '../util/money';
import type { JournaledSend } from '../journal/journaled-call';
import type { SaleEngineDeps } from './sale-deps';
import { toTransactionView } from './transaction-view';

/**
 * What follows a sale, by its ServiceReferenceNumber: refund (part or full), void, and the completion of
 * a pre-authorization. Each is journaled; the original's journal row learns what happened to it.
 */

type PostSaleDeps = Pick<SaleEngineDeps, 'journal' | 'gateway' | 'settings' | 'clock'>;

export async function refund(
  deps: PostSaleDeps,
  journaled: JournaledSend,
  srn: string,
  amountCents: number | undefined,
): Promise<RefundOutcome> {
  if (typeof srn !== 'string' || srn.length === 0)
    throw new BridgeFailure('invalid', 'Choose the transaction to refund.', {
      messageId: 'refund.chooseRefund',
    });
  if (amountCents !== undefined && (!isCents(amountCents) || amountCents <= 0))
    throw new BridgeFailure('invalid', 'The refund amount must be a positive number of cents.', {
      messageId: 'refund.amountPositive',
    });
  const original = await deps.journal.bySrn(srn);
  const refundable = original ? refundableCents(original) : undefined;
  if (amountCents !== undefined && refundable !== undefined && amountCents > refundable)
    throw new BridgeFailure('invalid', `At most ${(refundable / 100).toFixed(2)} can be refunded.`, {
      messageId: 'refund.atMost',
      params: { amountCents: refundable },
    });
  const amount = amountCents ?? refundable ?? 0;
  const { row, result, after } = await journaled(
    {
      laneId: deps.settings().laneId,
      operation: 'refund',
      amountCents: amount,
      originalSrn: srn,
      last4: original?.last4 ?? null,
      cardType: original?.cardType ?? null,
    },
    (utn) =>
      amountCents === undefined
        ? deps.gateway().doFullRefund({ ServiceTransactionNumber: srn, UserTransactionNumber: utn })
        : deps.gateway().doRefund({
            ServiceTransactionNumber: srn,
            UserTransactionNumber: utn,
            Amount: toWire(amountCents),
          }),
  );
  if (!result.ok) throw bridgeFailureOf(result.failure, after);
  const r = result.response;
  const refunded =
    amountCents ??
    (fromWire((r as { RefundedAmount?: number }).RefundedAmount) || fromWire(r.Amount) || amount);
  const now = deps.clock.now();
  const done = await deps.journal.update(
    row.utn,
    {
      state: 'approved',
      amountCents: refunded,
      approvedCents: refunded,
      authCode: r.AuthorizationNumber ?? null,
      srn: r.ServiceReferenceNumber ?? null,
      gatewayCode: result.code,
      message: 'Refunded',
    },
    now,
  );
  let remaining: number | undefined;
  if (original) {
    const total = original.refundedCents + refunded;
    remaining = refundableCents({ ...original, refundedCents: total });
    await deps.journal.update(
      original.utn,
      { refundedCents: total, ...(remaining === 0 ? { state: 'refunded' } : {}) },
      now,
    );
  }
  return {
    transaction: toTransactionView(done),
    ...(remaining !== undefined ? { remainingRefundableCents: remaining } : {}),
  };
}

export async function voidSale(
  deps: PostSaleDeps,
  journaled: JournaledSend,
  srn: string,
): Promise<RefundOutcome> {
  if (typeof srn !== 'string' || srn.length === 0)
    throw new BridgeFailure('invalid', 'Choose the transaction to void.', { messageId: 'refund.chooseVoid' });
  const original = await deps.journal.bySrn(srn);
  // A void cannot be reversed (the gateway refuses DoReversal of a void): an unknown void is checked in
  // the reconciliation view, and voiding again is safe (a second void is refused, never doubled).
  const { row, result, after } = await journaled(
    {
      laneId: deps.settings().laneId,
      operation: 'void',
      amountCents: original ? takenCents(original) : 0,
      originalSrn: srn,
      last4: original?.last4 ?? null,
      cardType: original?.cardType ?? null,
    },
    (utn) => deps.gateway().doVoid({ ServiceTransactionNumber: srn, UserTransactionNumber: utn }),
    { reversible: false },
  );
  if (!result.ok) throw bridgeFailureOf(result.failure, after);
  const now = deps.clock.now();
  const done = await deps.journal.update(
    row.utn,
    { state: 'approved', approvedCents: row.amountCents, gatewayCode: result.code, message: 'Voided' },
    now,
  );
  if (original) await deps.journal.update(original.utn, { state: 'voided' }, now);
  return { transaction: toTransactionView(done) };
}

export async function preauthComplete(
  deps: PostSaleDeps,
  journaled: JournaledSend,
  req: PreauthCompleteRequest,
): Promise<TransactionView> {
  if (typeof req.serviceReferenceNumber !== 'string' || !isCents(req.amountCents) || req.amountCents <= 0)
    throw new BridgeFailure('invalid', 'Choose the pre-authorization and the final amount.', {
      messageId: 'preauth.chooseHold',
    });
  const tip = req.tipCents ?? 0;
  if (!isCents(tip) || tip < 0)
    throw new BridgeFailure('invalid', 'The tip must be zero or a positive number of cents.', {
      messageId: 'preauth.tipPositive',
    });
  const original = await deps.journal.bySrn(req.serviceReferenceNumber);
  const { row, result, after } = await journaled(
    {
      laneId: deps.settings().laneId,
      operation: 'preauth-complete',
      amountCents: req.amountCents,
      tipCents: tip,
      originalSrn: req.serviceReferenceNumber,
      last4: original?.last4 ?? null,
      cardType: original?.cardType ?? null,
    },
    (utn) =>
      deps.gateway().closePreauth({
        Amount: toWire(req.amountCents),
        ServiceReferenceNumber: req.serviceReferenceNumber,
        UserTransactionNumber: utn,
        ...(tip > 0 ? { AdditionalTip: toWire(tip) } : {}),
      }),
  );
  if (!result.ok) throw bridgeFailureOf(result.failure, after);
  const r = result.response;
  const done = await deps.journal.update(
    row.utn,
    {
      state: 'approved',
      approvedCents: req.amountCents + tip,
      authCode: r.AuthorizationNumber ?? null,
      srn: r.ServiceReferenceNumber ?? null,
      gatewayCode: result.code,
      message: 'Pre-authorization completed',
    },
    deps.clock.now(),
  );
  return toTransactionView(done);
}
