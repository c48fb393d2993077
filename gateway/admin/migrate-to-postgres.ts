import { join } from 'node:path';
import { SQLITE_FILE } from '../storage/open-storage';
import { copySqliteToPostgres } from '../storage/sqlite-to-postgres';
import { AdminError, type AdminCommand } from './command';

/** Moving a store from its SQLite file to PostgreSQL (docs/postgres.md). */
export const migrationCommands: Record<string, AdminCommand> = {
  'migrate-to-postgres': {
    summary:
      "copy a stopped gateway's SQLite database (in --data) into an empty PostgreSQL database (--db), " +
      "all or nothing, verified table by table and by every merchant's report totals",
    options: {},
    needsStorage: false,
    async run(_args, { dataDir, database }) {
      if (database.kind !== 'postgres')
        throw new AdminError(
          '--db postgres://… (or TILLPOINT_DATABASE_URL) names the PostgreSQL database to fill',
        );
      const report = await copySqliteToPostgres({ file: join(dataDir, SQLITE_FILE), url: database.url });
      return {
        verified: true,
        tables: Object.fromEntries(report.tables.map((t) => [t.table, t.rows])),
        merchants: report.after,
      };
    },
  },
};
