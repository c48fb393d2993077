import pg from 'pg';
import { CheckViolation, UniqueViolation } from './queryable';

/** What node-postgres sends and throws, in the storage's terms: parameters as bound, errors as the domain's. */

export function sqlState(error: unknown): string | undefined {
  return error instanceof pg.DatabaseError ? error.code : undefined;
}

/**
 * Constraint errors in the same words as the SQLite side, so the domain can tell them apart by table and
 * column (`transaction_numbers.mid, transaction_numbers.utn`) whatever the dialect. Only column NAMES are
 * taken from the server's detail: its values (which may be a card fingerprint) never reach a message.
 */
export function translate(error: unknown): unknown {
  if (!(error instanceof pg.DatabaseError)) return error;
  if (error.code === '23505') {
    const columns = /^Key \(([^)]*)\)=/.exec(error.detail ?? '')?.[1];
    const table = error.table ?? '';
    const described = columns
      ? columns
          .split(',')
          .map((c) => `${table}.${c.trim()}`)
          .join(', ')
      : (error.constraint ?? table);
    return new UniqueViolation(`${described} (${error.constraint ?? 'unique'})`);
  }
  if (error.code === '23514') return new CheckViolation(error.constraint ?? error.table ?? 'check');
  return error;
}

export function bindable(parameters: readonly unknown[]): unknown[] {
  // Flags are 0/1 integers in the schema (as in SQLite): a JS boolean would be sent as 'true'.
  return parameters.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p === undefined ? null : p));
}
