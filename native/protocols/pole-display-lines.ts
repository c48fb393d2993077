import { DISPLAY_COLUMNS } from './escpos-customer-display';
import { pc437Byte } from './pc437';

/**
 * What the customer reads on a 2 x 20 pole display: the rule that fits an item and its price, a total, or
 * a message into two rows of 20 characters.
 *
 * - Prices are right-aligned and never cut: an amount the customer cannot read whole is worse than none.
 *   Money arrives as integer cents with the caller's formatter (the lane's locale and currency), so this
 *   rule never formats money itself.
 * - An item name that does not fit beside its price is cut at a word boundary when one falls in the last
 *   third of the room, else at the room's edge ("CHOCOLATE CHIP COOKIES 12PK" beside "3.49" ->
 *   "CHOCOLATE CHIP"), with at least one space before the price; a name left under three characters is
 *   dropped rather than shown as a stub.
 * - The display shows character table PC437 (ESC t 0): printable ASCII and the accented letters and
 *   Spanish marks of its upper half ("CAFÉ", "¡GRACIAS!", "AÑO"), pc437.ts. A letter it lacks loses its
 *   accent (the capitals Á Í Ó Ú: "AREA"), any other character is shown as `?`. Choosing another table
 *   for a currency sign (€) is a later change.
 */

export type DisplayRows = readonly [string, string];

/** PC437's characters only (its letters kept, others without their accent, else `?`), spaces folded, trimmed. */
export function toDisplayText(text: string): string {
  return [...text.normalize('NFC').replace(/\s+/g, ' ')]
    .map((c) => {
      if (pc437Byte(c) !== undefined) return c;
      const bare = c.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      return bare !== '' && [...bare].every((b) => pc437Byte(b) !== undefined) ? bare : '?'.repeat(c.length);
    })
    .join('')
    .trim();
}

/** Cuts `text` to `room` characters, at a word boundary when one is near the end. */
export function cutToRoom(text: string, room: number): string {
  if (text.length <= room) return text;
  // Two letters of a name tell the customer nothing: leave the row to the price.
  if (room < 3) return '';
  const hard = text.slice(0, room);
  // The cut falls inside a word unless the next character is a space.
  if (text[room] === ' ') return hard.trimEnd();
  const space = hard.lastIndexOf(' ');
  return space >= Math.ceil((room * 2) / 3) ? hard.slice(0, space).trimEnd() : hard.trimEnd();
}

/** One row: `left` cut to leave `right` whole and right-aligned, at least one space between. */
export function fitPair(left: string, right: string, width = DISPLAY_COLUMNS): string {
  const r = toDisplayText(right).slice(-width);
  const room = r.length === 0 ? width : width - r.length - 1;
  const l = cutToRoom(toDisplayText(left), room);
  return r.length === 0 ? l.padEnd(width) : l.padEnd(width - r.length) + r;
}

/** One row of text, cut to the width, aligned. */
export function fitText(
  text: string,
  align: 'left' | 'center' | 'right' = 'left',
  width = DISPLAY_COLUMNS,
): string {
  const t = cutToRoom(toDisplayText(text), width);
  if (align === 'right') return t.padStart(width);
  if (align === 'center') return t.padStart(Math.floor((width + t.length) / 2)).padEnd(width);
  return t.padEnd(width);
}

export type MoneyFormatter = (cents: number) => string;

/** An amount with its label, for the second row of an item screen or a total screen. */
export type LabelledAmount = { label: string; cents: number };

/**
 * An item just rung: its name and price on the first row; the running subtotal (or nothing) on the second.
 * A long name gives way to the price (see the rule above).
 */
export function itemRows(
  item: { name: string; priceCents: number },
  format: MoneyFormatter,
  second?: LabelledAmount,
): DisplayRows {
  return [
    fitPair(item.name, format(item.priceCents)),
    second ? fitPair(second.label, format(second.cents)) : fitText(''),
  ];
}

/** The total on the first row; optionally a second amount (tendered, change due) below it. */
export function totalRows(
  total: LabelledAmount,
  format: MoneyFormatter,
  second?: LabelledAmount,
): DisplayRows {
  return [
    fitPair(total.label, format(total.cents)),
    second ? fitPair(second.label, format(second.cents)) : fitText(''),
  ];
}

/** A message (welcome, thank you, lane closed), each row centred. */
export function messageRows(first: string, second = ''): DisplayRows {
  return [fitText(first, 'center'), fitText(second, 'center')];
}
