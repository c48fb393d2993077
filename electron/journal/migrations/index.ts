import { migration001 } from './001-journal';
import { migration002 } from './002-audit-settings';
import { migration003 } from './003-store-and-forward';
import { migration004 } from './004-card-decision';
import { migration007 } from './007-query-indexes';
import { migration008 } from './008-employees';
import { migration009 } from './009-email-receipts';
import { migration011 } from './011-tills';
import { migration012 } from './012-returns';
import type { Migration } from './types';

/** Every shipped migration, in order. A shipped migration is never edited: add a new one. */
export const journalMigrations: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration007,
  migration008,
  migration009,
  migration011,
  migration012,
];
