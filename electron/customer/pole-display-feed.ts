import { languageOf, type Language } from '../../common/store-locale';
import type { CustomerDisplayView, CustomerLineView } from '../../common/bridge/contract';
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

/** What the pole display should show for a view: a method of the driver and its arguments, in words. */
export type PoleScreen =
  | { kind: 'item'; name: string; priceCents: number; total: LabelledAmount }
  | { kind: 'total'; total: LabelledAmount; second?: LabelledAmount }
  | { kind: 'message'; first: string; second: string };

type LabelledAmount = { label: string; cents: number };

type PoleWords = {
  welcome: string;
  thanks: string;
  comeAgain: string;
  total: string;
  due: string;
  change: string;
  /** The lines the core words itself (a quick sale, a gift card load, a discount): the customer's words. */
  wording: Readonly<Record<NonNullable<CustomerLineView['wording']>, string>>;
};

/**
 * The display's words in the store's language (the customer display's own language choice is that
 * window's: the pole shows every customer the same). Each fits a row beside a price; the display's table
 * (PC437) has ¡ and ñ (native/protocols/pc437.ts).
 */
export const POLE_WORDS: Readonly<Record<Language, PoleWords>> = {
  en: {
    welcome: 'Welcome',
    thanks: 'Thank you',
    comeAgain: 'Please come again',
    total: 'Total',
    due: 'Due',
    change: 'Change',
    wording: { sale: 'Sale', giftCardLoad: 'Gift card load', discount: 'Discount' },
  },
  es: {
    welcome: '¡Bienvenidos!',
    thanks: '¡Gracias!',
    comeAgain: 'Vuelva pronto',
    total: 'Total',
    due: 'Por pagar',
    change: 'Cambio',
    wording: { sale: 'Venta', giftCardLoad: 'Recarga de tarjeta', discount: 'Descuento' },
  },
};

export function poleScreenOf(v: CustomerDisplayView): PoleScreen {
  const words = POLE_WORDS[v.locale ? languageOf(v.locale.locale) : 'en'];
  const t = v.ticket;
  if (v.phase === 'idle' || !t) return { kind: 'message', first: words.welcome, second: v.storeName };
  if (v.phase === 'thanks') {
    const change = v.outcome?.kind === 'cash' ? (v.outcome.changeCents ?? 0) : 0;
    return change > 0
      ? { kind: 'total', total: { label: words.change, cents: change } }
      : { kind: 'message', first: words.thanks, second: words.comeAgain };
  }
  const total = { label: words.total, cents: t.totalCents };
  if (t.paidCents > 0 && t.remainingCents > 0)
    return { kind: 'total', total, second: { label: words.due, cents: t.remainingCents } };
  // While the customer pays the total is what matters; before (the tip question included), the line
  // just rung over the running total.
  const paying =
    v.prompt !== undefined || v.outcome !== undefined || (v.ask !== undefined && v.ask.kind !== 'tip');
  const last = t.lines[t.lines.length - 1];
  if (paying || !last) return { kind: 'total', total };
  const name = last.wording ? words.wording[last.wording] : last.description;
  return { kind: 'item', name, priceCents: last.amountCents, total };
}

/** The two rows a screen makes (the driver's own rule), to tell a change from a repeat. */
export function poleRowsOf(s: PoleScreen): readonly [string, string] {
  switch (s.kind) {
    case 'item':
      return itemRows({ name: s.name, priceCents: s.priceCents }, dollars, s.total);
    case 'total':
      return totalRows(s.total, dollars, s.second);
    case 'message':
      return messageRows(s.first, s.second);
  }
}

function write(display: PoleDisplay, s: PoleScreen): Promise<void> {
  switch (s.kind) {
    case 'item':
      return display.showItem({ name: s.name, priceCents: s.priceCents }, dollars, s.total);
    case 'total':
      return display.showTotal(s.total, dollars, s.second);
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
