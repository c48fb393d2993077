import type { TenderKind, TenderRequest } from '../../../common/bridge/contract';
import { BridgeFailure } from '../../../common/bridge/failure';
import { cardTender } from './card';
import { cashTender } from './cash';
import { checkTender } from './check';
import { giftTender } from './gift';
import { pinDebitTender } from './pin-debit';
import type { TenderContext, TenderFlow, TenderOf } from './tender';
import { tokenTender } from './token';

/** Every tender the bridge offers (TenderRequest), each by its one flow. */
const flows: { readonly [K in TenderKind]: TenderFlow<TenderOf<K>> } = {
  cash: cashTender,
  check: checkTender,
  token: tokenTender,
  credit: cardTender,
  preauth: cardTender,
  debit: pinDebitTender,
  ebt: pinDebitTender,
  gift: giftTender,
};

/** Runs the flow of `request.kind`; a kind the bridge does not offer is refused before anything is sent. */
export function runTender(request: TenderRequest, ctx: TenderContext): Promise<void> {
  if (!Object.hasOwn(flows, request.kind)) throw new BridgeFailure('invalid', 'Unknown tender.');
  // The map pairs each kind with its flow, so the flow of `request.kind` takes `request`.
  const flow = flows[request.kind] as TenderFlow<TenderRequest>;
  return flow(request, ctx);
}
