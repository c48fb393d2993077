import type Database from 'better-sqlite3';

/** One numbered schema step. `up` runs inside the migration's transaction; it must not commit. */
export type Migration = {
  version: number;
  name: string;
  up(db: Database.Database): void;
};
