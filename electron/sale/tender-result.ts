import type { TenderView } from '../../common/bridge/contract';
import type { SaleResponse } from '../../gateway/contract/card-sale';
import { approvedCentsOf } from '../gateway-client/approved-amount';
import { failureMessage } from '../gateway-client/bridge-failure';
import type { Journal } from '../journal/journal-protocol';
import type { EntryPatch } from '../journal/journal-store';
import type { Clock } from '../util/clock';
import { balanceCents } from './card-fields';
import type { JournaledOutcome } from '../journal/journaled-call';
import type { Split } from './tender-amounts';

/**
 * A gateway answer onto the tender the cashier sees and its journal row. An approval is committed to the
 * journal before the cashier sees "approved": a crash after that point keeps the sale.
 */

export type TenderResultDeps = { journal: Journal; clock: Clock };

type Read = {
  approvedCents: number;
  authCode?: string | undefined;
  srn?: string | undefined;
  cardType?: string | undefined;
  balanceCents?: number | undefined;
};

export async function applyResult<R extends { Msg: string[] }>(
  deps: TenderResultDeps,
  view: TenderView,
  { row, result, after }: JournaledOutcome<R>,
  patch: EntryPatch,
  read: (r: R) => Read,
): Promise<void> {
  view.userTransactionNumber = row.utn;
  if (!result.ok) {
    const f = result.failure;
    view.status =
      f.kind === 'unknown-outcome'
        ? 'unknown'
        : f.kind === 'unreachable' && f.where === 'network'
          ? 'offline-refused'
          : 'declined';
    view.message = view.message ?? failureMessage(f, after);
    if (f.code !== undefined) view.gatewayCode = f.code;
    if (f.declineCode !== undefined) view.declineCode = f.declineCode;
    if (result.response && 'Balance' in result.response) {
      const b = balanceCents((result.response as { Balance?: string }).Balance);
      if (b !== undefined) view.balanceCents = b;
    }
    return;
  }
  const got = read(result.response);
  const partial = got.approvedCents < view.requestedCents;
  view.status = partial ? 'partial' : 'approved';
  view.approvedCents = got.approvedCents;
  view.gatewayCode = result.code;
  if (got.authCode) view.authCode = got.authCode;
  if (got.srn) view.serviceReferenceNumber = got.srn;
  if (got.cardType && view.card) view.card.cardType = got.cardType;
  if (got.balanceCents !== undefined) view.balanceCents = got.balanceCents;
  if (partial)
    view.message = `Partially approved for ${(got.approvedCents / 100).toFixed(2)}: collect the rest with another tender.`;
  await deps.journal.update(
    row.utn,
    {
      ...patch,
      state: partial ? 'partial' : 'approved',
      approvedCents: view.approvedCents,
      authCode: view.authCode ?? null,
      srn: view.serviceReferenceNumber ?? null,
      cardType: view.card?.cardType ?? null,
      gatewayCode: view.gatewayCode ?? null,
      message:
        (partial ? 'Partial approval' : 'Approved') +
        (result.confirmedByInquiry ? ' (answer lost; confirmed by GetTransaction)' : ''),
    },
    deps.clock.now(),
  );
}

/** A sale response onto the tender and the journal row (`patch`: what the chip card said, if any). */
export function applySale(
  deps: TenderResultDeps,
  view: TenderView,
  outcome: JournaledOutcome<SaleResponse>,
  split: Split,
  patch: EntryPatch = {},
): Promise<void> {
  const { result } = outcome;
  return applyResult(deps, view, outcome, patch, (r) => {
    const asked = split.baseCents + split.taxCents + split.tipCents;
    return {
      approvedCents: result.ok ? approvedCentsOf(result.code, r, asked) : 0,
      authCode: r.AuthorizationNumber,
      srn: r.ServiceReferenceNumber,
      cardType: r.CardType,
      balanceCents: balanceCents(r.Balance),
    };
  });
}
