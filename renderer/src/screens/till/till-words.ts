import type { TillMovementView, TillState, TillView } from '../../../../common/bridge/contract';
import { formatCents } from '../../format/money';
import { i18n, messageFor } from '../../i18n/i18n';

/**
 * The words the till screens use for what a till did and where it is (one place for both screens), in
 * the window's language (the `till` catalog).
 */

export function movementWord(kind: TillMovementView['kind']): string {
  return i18n.t(`till:movement.${kind}`);
}

export function stateWord(state: TillState): string {
  return i18n.t(`till:state.${state}`);
}

/** "Over $7.00", "Short $1.25", "Even". */
export function overShortWords(cents: number): string {
  if (cents === 0) return i18n.t('till:even');
  return i18n.t(cents > 0 ? 'till:over' : 'till:short', { amount: formatCents(Math.abs(cents)) });
}

export function tillName(t: Pick<TillView, 'tillId' | 'employee'>): string {
  return i18n.t('till:tillName', { tillId: t.tillId, employee: t.employee });
}

/** A figure line's name (a tender's: "Cash", "Credit") in the window's language; a card type as it is. */
export function figureLineWord(key: string): string {
  return messageFor(`figures:tenders.${key}`) ?? key;
}
