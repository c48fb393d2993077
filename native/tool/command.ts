import { parseArgs } from 'node:util';

/**
 * The field tech's toolkit: one command per file in commands/, registered by name in commands/index.ts.
 * A command returns a JSON-serialisable result or throws ToolError; cli.ts prints either as JSON.
 */

export type ToolCommand = {
  summary: string;
  usage: string;
  run(args: string[]): unknown;
};

/** An expected failure, printed as `{ "error": { code, message } }`; the message must hold no card data. */
export class ToolError extends Error {
  override readonly name = 'ToolError';
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

export type ArgSpec<S extends string, B extends string> = { strings?: readonly S[]; booleans?: readonly B[] };

export type ParsedArgs<S extends string, B extends string> = {
  values: Partial<Record<S, string>> & Partial<Record<B, boolean>>;
  positionals: string[];
};

/**
 * node:util parseArgs, strict, with its errors replaced: some of its messages quote the offending
 * argument, which on this tool's command lines may be a PAN or a key.
 */
export function parseCommandArgs<S extends string = never, B extends string = never>(
  args: string[],
  spec: ArgSpec<S, B>,
  usage: string,
): ParsedArgs<S, B> {
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const name of spec.strings ?? []) options[name] = { type: 'string' };
  for (const name of spec.booleans ?? []) options[name] = { type: 'boolean' };
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: values as ParsedArgs<S, B>['values'], positionals };
  } catch {
    throw new ToolError('usage', `invalid arguments; usage: ${usage}`);
  }
}
