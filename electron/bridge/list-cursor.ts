import type { JournalCursor } from '../journal/journal-store';
import { BridgeFailure } from '../../common/bridge/failure';

/**
 * The cursor of a transactions.list page: where the newest-first list continues, as the journal's index
 * orders it (created_at, seq). Opaque to a screen, which hands back the last row's `cursor` as `before`;
 * an id (the transaction number) would not do, since rows of the same millisecond need the seq to stay
 * apart. Base 36 keeps it short; anything that does not decode to two whole numbers is refused.
 */

const CURSOR = /^([0-9a-z]{1,11})\.([0-9a-z]{1,11})$/;

export function encodeListCursor(c: JournalCursor): string {
  return `${c.createdAt.toString(36)}.${c.seq.toString(36)}`;
}

export function decodeListCursor(text: string): JournalCursor {
  const m = CURSOR.exec(text);
  const createdAt = m?.[1] === undefined ? NaN : parseInt(m[1], 36);
  const seq = m?.[2] === undefined ? NaN : parseInt(m[2], 36);
  if (!Number.isSafeInteger(createdAt) || !Number.isSafeInteger(seq))
    throw new BridgeFailure(
      'invalid',
      'That page of the list is not one this terminal gave: reload the list.',
    );
  return { createdAt, seq };
}
