import { ToolError } from './command';
import { commands } from './commands/index';

/**
 * `npm run tool -- <command> [args]`: prints one JSON document. Failures print `{ "error": { code,
 * message } }` on one line and exit 1, never a stack trace (a trace could carry the card data being inspected).
 */

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Failures are one line, so a script or a tech reading a terminal sees the whole error at once. */
function printError(code: string, message: string): void {
  process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
}

function help(): unknown {
  return {
    commands: Object.entries(commands).map(([name, c]) => ({ name, summary: c.summary, usage: c.usage })),
  };
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === 'help' || name === '--help' || name === '-h') {
    print(help());
    return 0;
  }
  const command = name === undefined ? undefined : commands[name];
  try {
    if (!command)
      throw new ToolError('unknown-command', `unknown command; one of: ${Object.keys(commands).join(', ')}`);
    print(await command.run(args));
    return 0;
  } catch (e) {
    if (e instanceof ToolError) printError(e.code, e.message);
    else printError('internal', `unexpected ${e instanceof Error ? e.name : 'failure'}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
