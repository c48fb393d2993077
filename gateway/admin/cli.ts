import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { mkdirSync } from 'node:fs';
import { adminCommands } from './commands';
import { AdminError } from './command';
import { defaultDataRoot } from '../cli-args';
import { DATABASE_URL_ENV, DatabaseConfigError, openStorage, parseDatabase } from '../storage/open-storage';
import { UniqueViolation } from '../storage/queryable';

function usage(): string {
  const lines = Object.entries(adminCommands).map(([name, c]) => {
    const opts = Object.entries(c.options)
      .map(([o, spec]) => (spec.required ? `--${o} <${spec.type}>` : `[--${o}]`))
      .join(' ');
    return `  ${name} ${opts}\n      ${c.summary}`;
  });
  return (
    `usage: npm run gateway:admin -- <command> --data DIR [--db sqlite|postgres://…] [options]\n` +
    `  (--db defaults to $${DATABASE_URL_ENV}, else SQLite in the data folder)\n\n${lines.join('\n')}\n`
  );
}

/** `npm run gateway:admin -- <command> ...`: prints one JSON result, or a one-line error; never a stack trace. */
async function main(): Promise<void> {
  const [name, ...rest] = process.argv.slice(2);
  const command = name ? adminCommands[name] : undefined;
  if (!command) {
    process.stdout.write(usage());
    process.exitCode = name && name !== '--help' ? 2 : 0;
    return;
  }
  const options = Object.fromEntries(Object.entries(command.options).map(([k, v]) => [k, { type: v.type }]));
  const { values } = parseArgs({
    args: rest,
    options: { ...options, data: { type: 'string' }, db: { type: 'string' } },
    strict: true,
  });
  const dataDir = values.data ?? join(defaultDataRoot(), 'gateway');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const database = parseDatabase(typeof values.db === 'string' ? values.db : process.env[DATABASE_URL_ENV]);
  const storage = command.needsStorage ? await openStorage(database, dataDir) : null;
  try {
    const result = await command.run(values, { dataDir, storage, database });
    process.stdout.write(JSON.stringify(result) + '\n');
  } finally {
    await storage?.close();
  }
}

main().catch((error: unknown) => {
  const message =
    error instanceof UniqueViolation
      ? `already exists (${error.constraint})`
      : error instanceof AdminError || error instanceof TypeError || error instanceof DatabaseConfigError
        ? error.message
        : error instanceof Error
          ? error.message
          : String(error);
  process.stderr.write(`gateway:admin: ${message}\n`);
  process.exit(1);
});
