import { useCallback } from 'react';
import type { CatalogItemView, ScanView } from '../../../common/bridge/contract';
import { describeError } from './app-store';
import { useAppStore, useSaleStore } from './context';
import type { ScanStep, TicketChange } from './sale-store';

/** Changes the ticket's lines; true when the change was made. */
export type RunChange = (change: TicketChange) => Promise<boolean>;

/**
 * A change to the ticket as the cashier makes it: sent as it is; when the core answers that a manager must
 * approve it (a discount above the limit, a changed catalog price), the existing Manager approval dialog
 * asks for the PIN with the core's reason and the change goes again with it. Cancelled, nothing changes.
 */
export function useTicketChange(): RunChange {
  const sale = useSaleStore();
  const app = useAppStore();
  return useCallback(
    async (change) => {
      const first = await sale.getState().changeTicket(change);
      if (first.ok) return true;
      if (first.error.code !== 'forbidden') return false;
      const again = await app
        .getState()
        .withManager(
          describeError(first.error),
          (approval) => sale.getState().changeTicket(change, approval),
          {
            always: true,
          },
        );
      return again?.ok === true;
    },
    [sale, app],
  );
}

/**
 * Rings what a scan, a quick key or a search pick comes to: a line (with the manager when the core asks),
 * or the price dialog of an open-price item. An unknown code and a refusal are left on `scanNote`.
 */
/** What of a scan the ticket reads (a `scanner.scanned` event, or a code a manager just added). */
/** A scan's fields the ticket reads; `scanId` when it came from the scanner (a manager's code has none). */
export type ScanInput = Pick<ScanView, 'data' | 'aimId' | 'validated' | 'problem'> & { scanId?: string };

export function useRing(): {
  scan: (scan: ScanInput) => Promise<void>;
  pick: (item: CatalogItemView) => Promise<void>;
} {
  const sale = useSaleStore();
  const run = useTicketChange();
  const follow = useCallback(
    async (step: ScanStep): Promise<void> => {
      if (step.kind === 'ring') await run(step.change);
      else if (step.kind === 'price') sale.getState().openDialog({ kind: 'itemPrice', item: step.item });
    },
    [run, sale],
  );
  const scan = useCallback(async (s: ScanInput) => follow(await sale.getState().readScan(s)), [follow, sale]);
  const pick = useCallback((item: CatalogItemView) => follow(sale.getState().pickItem(item)), [follow, sale]);
  return { scan, pick };
}
