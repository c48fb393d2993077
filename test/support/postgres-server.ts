import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Debian's layout of the server binaries (`apt-get install postgresql`): /usr/lib/postgresql/<major>/bin. */
const debianRoot = '/usr/lib/postgresql';

/** Whether this machine can start a PostgreSQL server of its own (what `.ci/postgres start` needs). */
export function postgresServerInstalled(): boolean {
  if (!existsSync(debianRoot)) return false;
  return readdirSync(debianRoot).some((major) => existsSync(join(debianRoot, major, 'bin', 'pg_ctl')));
}
