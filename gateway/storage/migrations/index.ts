import type { Migration } from '../migrate';
import { migration001 } from './001-core';

/** Every migration, in order. A shipped migration is never edited: add the next number instead. */
export const migrations: readonly Migration[] = [migration001];
