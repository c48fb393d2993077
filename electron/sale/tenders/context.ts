import type { TenderView, TicketView } from '../../../common/bridge/contract';
import { acquireCard, type AcquiredCard, type Prompt } from '../card-acquire';
import { ChipSale } from '../chip-sale';
import type { JournaledSend, Stamp } from '../../journal/journaled-call';
import { requestPin } from '../pin-entry';
import type { SaleEngineDeps } from '../sale-deps';
import { splitTender, tenderEntry } from '../tender-amounts';
import type { TenderContext } from './tender';

/** What the cashier reads while the terminal asks the gateway about a sale whose answer was lost. */
export const INQUIRY_PROMPT = 'No answer yet — asking the gateway whether the payment went through';

/** What one tender's flow is handed: the lane's devices and settings, bound to this ticket and tender. */
export function tenderContext(o: {
  deps: SaleEngineDeps;
  journaled: JournaledSend;
  ticket: TicketView;
  view: TenderView;
  signal: AbortSignal;
  allowDuplicate: boolean;
  prompt: Prompt;
  /** Keeps the chip conversation of the tender in progress (the engine releases the card if it stops). */
  holdChip: (chip: ChipSale) => void;
  /** The employee taking the tender: every journal row of it names them. */
  by: Stamp;
}): TenderContext {
  const { deps, ticket: t, view, signal } = o;
  const split = splitTender(t, view.requestedCents);
  const seconds = (ms: number): number => Math.ceil(ms / 1000);
  // An authorization waits at most the gateway's payment timeout: the cashier sees that wait count down,
  // as a device wait does, instead of "Authorizing…" standing still.
  const prompt: Prompt = (step, text, timeoutSeconds) =>
    o.prompt(
      step,
      text,
      timeoutSeconds ?? (step === 'authorizing' ? seconds(deps.gateway().timeouts.saleMs) : undefined),
    );
  return {
    deps,
    ticket: t,
    view,
    amountCents: view.requestedCents,
    split,
    allowDuplicate: o.allowDuplicate,
    signal,
    prompt,
    entry: (operation, amountCents) => ({
      ...tenderEntry(deps.settings().laneId, t, view, operation, amountCents, split),
      ...o.by,
    }),
    // The answer was lost: the inquiry (GetTransaction) runs before any reversal, and the screen says so.
    journaled: (entry, send, options) =>
      o.journaled(entry, send, {
        ...options,
        onInquiry: () => prompt('authorizing', INQUIRY_PROMPT, seconds(deps.gateway().timeouts.otherMs)),
      }),
    acquire: (a) => {
      const sale = deps.settings().sale;
      return acquireCard({
        ...a,
        devices: deps.devices(),
        timeoutMs: sale.cardWaitMs,
        signal,
        prompt,
        connected: (r) => deps.connected(r),
        // A card read without a chip transaction (gift) never falls back from a chip.
        ...(a.chip === 'none' ? {} : { chipFallbackAfterFailures: sale.chipFallbackAfterFailures }),
      });
    },
    chipSale: (card: AcquiredCard) => {
      const chip = ChipSale.for(card, deps.devices()?.chipReader, deps);
      if (chip) o.holdChip(chip);
      return chip;
    },
    pin: (card, amountCents) => requestPin(deps, card, amountCents, signal, prompt),
  };
}
