import type { Migration } from '../../journal/migrations/types';
import { catalogMigration001 } from './001-catalog';

/** Every shipped migration of catalog.sqlite, in order. A shipped migration is never edited: add one. */
export const catalogMigrations: readonly Migration[] = [catalogMigration001];
