import type { TillMovementView, TillState, TillView } from '../../../../electron/bridge/contract';
import { formatCents } from '../../format/money';

/** The words the till screens use for what a till did and where it is (one place for both screens). */

export const movementWords: Readonly<Record<TillMovementView['kind'], string>> = {
  float: 'Opening float',
  'paid-in': 'Paid in',
  'paid-out': 'Paid out',
  'safe-drop': 'Safe drop',
  refund: 'Cash refund',
  'no-sale': 'No sale',
};

export const stateWords: Readonly<Record<TillState, string>> = {
  open: 'In the drawer',
  'handed-over': 'Waiting for its count',
  counted: 'Counted: waits for a manager’s sign-off',
  closed: 'Closed',
};

/** "Over $7.00", "Short $1.25", "Even". */
export function overShortWords(cents: number): string {
  if (cents === 0) return 'Even';
  return `${cents > 0 ? 'Over' : 'Short'} ${formatCents(Math.abs(cents))}`;
}

export function tillName(t: Pick<TillView, 'tillId' | 'employee'>): string {
  return `Till ${t.tillId} (${t.employee})`;
}
