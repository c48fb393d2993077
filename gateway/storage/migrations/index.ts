import type { Migration } from '../migrate';
import { migration001 } from './001-core';
import { migration002 } from './002-commerce';
import { migration003 } from './003-tenders';
import { migration004 } from './004-emv-card-counters';
import { migration005 } from './005-login-throttle';
import { migration006 } from './006-vault-token-unique-per-merchant';
import { migration007 } from './007-sandbox-processor-ledger';
import { migration008 } from './008-shared-checkout-throttle';
import { migration010 } from './010-years-of-data';
import { migration011 } from './011-report-rollups';

/**
 * Every migration, in order. A shipped migration is never edited: add the next number instead. The runner
 * applies whatever version a database lacks, in version order, so a migration that lands after a later
 * number (branches merged out of order) still runs exactly once.
 */
export const migrations: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration010,
  migration011,
];
