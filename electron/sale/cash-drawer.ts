import type { TicketView } from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import type { SaleEngineDeps } from './sale-deps';
import { isTaken } from './tender-amounts';

/**
 * The cash drawer opens when cash changes hands on a paid ticket: a cash tender taken (change goes back
 * from it) or a PIN debit's cash back paid out of it. A card-only ticket leaves the drawer shut.
 */
export function drawerOpensFor(t: TicketView): boolean {
  return t.tenders.some(
    (x) => isTaken(x) && (x.kind === 'cash' || (x.kind === 'debit' && x.cashBackCents > 0)),
  );
}

/**
 * Cash changes hands only through a till in the lane's drawer (docs/terminal.md "Tills"): its count is
 * judged by the cash its sales took and paid out, so cash with no till open would be cash no count
 * expects. Refused before anything is read or recorded.
 */
export async function requireOpenTill(
  deps: Pick<SaleEngineDeps, 'journal'>,
  what: 'take cash' | 'pay cash back',
): Promise<void> {
  if (!(await deps.journal.tillActive()))
    throw new BridgeFailure(
      'conflict',
      `No till is open on this lane: open a till on the Till screen to ${what}.`,
      { messageId: what === 'take cash' ? 'till.noTillForCash' : 'till.noTillForCashBack' },
    );
}
