import { join } from 'node:path';
import type { Storage } from './queryable';
import { openPostgresStorage } from './postgres-storage';
import { openSqliteStorage } from './sqlite-storage';

/**
 * Where the gateway keeps its data. SQLite: `gateway.sqlite` in the data folder, one process. PostgreSQL:
 * one database shared by any number of gateway processes (the key file still lives in the data folder,
 * and every process must have the same one).
 */
export type DatabaseConfig =
  | { kind: 'sqlite' }
  | { kind: 'postgres'; url: string; poolSize?: number | undefined; lanes?: number | undefined };

export const SQLITE_FILE = 'gateway.sqlite';

/** The environment variable read when no `--db` is given. */
export const DATABASE_URL_ENV = 'TILLPOINT_DATABASE_URL';

export class DatabaseConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseConfigError';
  }
}

/**
 * `--db` (or TILLPOINT_DATABASE_URL): `sqlite` (the default) or a `postgres://` / `postgresql://` URL.
 * Anything else is refused rather than guessed at.
 */
export function parseDatabase(value: string | undefined): DatabaseConfig {
  if (value === undefined || value === '' || value === 'sqlite') return { kind: 'sqlite' };
  if (/^postgres(ql)?:\/\//.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new DatabaseConfigError(`--db: not a valid URL: ${redactUrl(value)}`);
    }
    return { kind: 'postgres', url: value };
  }
  throw new DatabaseConfigError(
    '--db must be "sqlite" or a PostgreSQL URL (postgres://user:password@host:port/database)',
  );
}

/** The URL with its password masked: for messages and logs, which must never carry a credential. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/:\/\/([^:/@]*):[^@]*@/, '://$1:***@');
  }
}

/** A one-line description for the ready banner and errors (no password). */
export function describeDatabase(config: DatabaseConfig, dataDir: string): string {
  return config.kind === 'sqlite'
    ? `SQLite ${join(dataDir, SQLITE_FILE)}`
    : `PostgreSQL ${redactUrl(config.url)}`;
}

export async function openStorage(config: DatabaseConfig, dataDir: string): Promise<Storage> {
  if (config.kind === 'sqlite') return openSqliteStorage({ file: join(dataDir, SQLITE_FILE) });
  return openPostgresStorage({
    url: config.url,
    ...(config.poolSize !== undefined ? { poolSize: config.poolSize } : {}),
    ...(config.lanes !== undefined ? { lanes: config.lanes } : {}),
  });
}
