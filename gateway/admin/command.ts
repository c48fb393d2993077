import type { DatabaseConfig } from '../storage/open-storage';
import type { Storage } from '../storage/queryable';

export type AdminArgs = Record<string, string | boolean | undefined>;

/** One admin command: its options (for parseArgs and the usage text) and its work on an open database. */
export type AdminCommand = {
  summary: string;
  options: Record<string, { type: 'string' | 'boolean'; help: string; required?: boolean }>;
  /** Commands that work on the data folder itself (keys) rather than the database. */
  needsStorage: boolean;
  run(
    args: AdminArgs,
    context: { dataDir: string; storage: Storage | null; database: DatabaseConfig },
  ): Promise<unknown>;
};

export class AdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminError';
  }
}

export function requireString(args: AdminArgs, name: string): string {
  const v = args[name];
  if (typeof v !== 'string' || v.length === 0) throw new AdminError(`--${name} is required`);
  return v;
}

export function requireInt(args: AdminArgs, name: string): number {
  const v = requireString(args, name);
  if (!/^\d{1,9}$/.test(v)) throw new AdminError(`--${name} must be a positive integer`);
  return Number(v);
}
