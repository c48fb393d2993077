import type { TicketView } from '../bridge/contract';
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
