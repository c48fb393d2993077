import type { CustomerDisplayView } from '../../common/bridge/contract';
import type { PoleDisplay } from '../../native/drivers/roles';
import { itemRows, messageRows, totalRows } from '../../native/protocols/pole-display-lines';
import { dollars } from '../util/money';

/**
 * The pole display's side of the customer's view: the line just rung with its price over the running
 * total, the total (and what is still due, or the change) while the customer pays, "Thank you" once paid,
 * and a welcome when the lane is idle — the 2 x 20 text of stores without a second screen.
 *
 * The display answers nothing and may be unplugged at any moment: a write is never awaited by the sale,
 * its failure is dropped, and the next screen (or the display's return) writes the whole screen again.
 */

/** What the pole display should show for a view: a method of the driver and its arguments. */
export type PoleScreen =
  | { kind: 'item'; name: string; priceCents: number; totalCents: number }
  | { kind: 'total'; totalCents: number; second?: { label: string; cents: number } }
  | { kind: 'change'; changeCents: number }
  | { kind: 'message'; first: string; second: string };

export const POLE_WORDS = {
  welcome: 'Welcome',
  thanks: 'Thank you',
  comeAgain: 'Please come again',
  total: 'Total',
  due: 'Due',
  change: 'Change',
} as const;

export function poleScreenOf(v: CustomerDisplayView): PoleScreen {
  const t = v.ticket;
  if (v.phase === 'idle' || !t) return { kind: 'message', first: POLE_WORDS.welcome, second: v.storeName };
  if (v.phase === 'thanks') {
    const change = v.outcome?.kind === 'cash' ? (v.outcome.changeCents ?? 0) : 0;
    return change > 0
      ? { kind: 'change', changeCents: change }
      : { kind: 'message', first: POLE_WORDS.thanks, second: POLE_WORDS.comeAgain };
  }
  if (t.paidCents > 0 && t.remainingCents > 0)
    return {
      kind: 'total',
      totalCents: t.totalCents,
      second: { label: POLE_WORDS.due, cents: t.remainingCents },
    };
  // While the customer pays the total is what matters; before (the tip question included), the line
  // just rung over the running total.
  const paying =
    v.prompt !== undefined || v.outcome !== undefined || (v.ask !== undefined && v.ask.kind !== 'tip');
  const last = t.lines[t.lines.length - 1];
  if (paying || !last) return { kind: 'total', totalCents: t.totalCents };
  return { kind: 'item', name: last.description, priceCents: last.amountCents, totalCents: t.totalCents };
}

/** The two rows a screen makes (the driver's own rule), to tell a change from a repeat. */
export function poleRowsOf(s: PoleScreen): readonly [string, string] {
  switch (s.kind) {
    case 'item':
      return itemRows({ name: s.name, priceCents: s.priceCents }, dollars, {
        label: POLE_WORDS.total,
        cents: s.totalCents,
      });
    case 'total':
      return totalRows({ label: POLE_WORDS.total, cents: s.totalCents }, dollars, s.second);
    case 'change':
      return totalRows({ label: POLE_WORDS.change, cents: s.changeCents }, dollars);
    case 'message':
      return messageRows(s.first, s.second);
  }
}

function write(display: PoleDisplay, s: PoleScreen): Promise<void> {
  switch (s.kind) {
    case 'item':
      return display.showItem({ name: s.name, priceCents: s.priceCents }, dollars, {
        label: POLE_WORDS.total,
        cents: s.totalCents,
      });
    case 'total':
      return display.showTotal({ label: POLE_WORDS.total, cents: s.totalCents }, dollars, s.second);
    case 'change':
      return display.showTotal({ label: POLE_WORDS.change, cents: s.changeCents }, dollars);
    case 'message':
      return display.showMessage(s.first, s.second);
  }
}

export type PoleDisplayFeed = {
  /** The customer's view changed: write its screen when it differs from the last one written. */
  show(view: CustomerDisplayView): void;
  /** The display came back (or was configured): write the current screen again, whatever was written. */
  refresh(view: CustomerDisplayView): void;
};

export function createPoleDisplayFeed(deps: {
  display: () => PoleDisplay | undefined;
  connected: () => boolean;
}): PoleDisplayFeed {
  let written: string | undefined;
  const show = (view: CustomerDisplayView): void => {
    const screen = poleScreenOf(view);
    const key = poleRowsOf(screen).join('\n');
    const display = deps.display();
    if (key === written || !display || !deps.connected()) return;
    written = key;
    write(display, screen).catch(() => {
      // Unplugged or failing: the sale goes on; the display's return writes the screen again.
      if (written === key) written = undefined;
    });
  };
  return {
    show,
    refresh(view) {
      written = undefined;
      show(view);
    },
  };
}
