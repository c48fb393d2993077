import fc from 'fast-check';
import type { TSchema } from 'typebox';
import { describe, expect, it } from 'vitest';
import { CardSaleRequest } from '../../../gateway/contract/card-sale';
import { PaymentLinkRequest, PaymentLinksQuery } from '../../../gateway/contract/payment-links';
import { RefundRequest } from '../../../gateway/contract/transactions';
import { bindFields, bindJson, ReservedNameError } from '../../../gateway/http/binding';
import { assertFuzz, fuzzRun } from './fuzz-run';

/**
 * The binder (gateway/http/binding.ts) against every name shape a form, a query string or a JSON body can
 * carry (issue 21): names that reach for a prototype are refused whole, in any case and at any depth;
 * everything else binds into objects with no prototype; nothing ever reaches Object.prototype; nothing
 * but that refusal is ever thrown.
 */

const RESERVED = ['__proto__', 'constructor', 'prototype'];
const run = fuzzRun(20_261_127);

/** The schemas bound, by a name a counterexample shows instead of the whole schema. */
const schemas: Readonly<Record<string, TSchema>> = {
  Sale: CardSaleRequest,
  'PaymentLinks POST': PaymentLinkRequest,
  'PaymentLinks GET query': PaymentLinksQuery,
  DoRefund: RefundRequest,
};
const schemaName = fc.constantFrom(...Object.keys(schemas));
const schemaOf = (name: string): TSchema => {
  const schema = schemas[name];
  if (!schema) throw new Error(`no schema ${name}`);
  return schema;
};

/** A segment of a name: declared names in any case, reserved words in any case, and anything else. */
const caseOf = (word: string) =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''));
const plainSegment = fc.oneof(
  fc.constantFrom(
    'Amount',
    'PaymentLink',
    'request',
    'paymentLink',
    'id',
    'AppKey',
    'mid',
    'CardNumber',
    'x',
  ),
  fc.string({ maxLength: 8 }).filter((s) => s.length > 0 && !/[.[\]]/.test(s)),
);
const reservedSegment = fc.constantFrom(...RESERVED).chain(caseOf);
const segment = fc.oneof({ weight: 5, arbitrary: plainSegment }, { weight: 1, arbitrary: reservedSegment });

/** A dotted or bracketed name of known segments: `a.b`, `a[b]`, `a[b].c`. */
const shapedName = fc
  .tuple(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.array(fc.boolean(), { maxLength: 4 }))
  .map(([segments, brackets]) => ({
    segments,
    name: segments.map((s, i) => (i === 0 ? s : brackets[i] ? `[${s}]` : `.${s}`)).join(''),
  }));

/** Names no client sends on purpose: stray brackets and dots, empty segments, long, any text. */
const oddName = fc.oneof(
  fc.string({ maxLength: 24 }),
  fc.constantFrom(
    '',
    '.',
    '..',
    '[]',
    '[[',
    ']]',
    'a[',
    'a]b',
    '[__proto__',
    '.constructor.',
    'x'.repeat(300),
  ),
);

const value = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', '10.00', '10.001', '1e3', 'true', 'False', '-1', '2147483648'),
  fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 3 }),
);

const isReserved = (s: string) => RESERVED.includes(s.toLowerCase());

function prototypeNames(): string[] {
  return Object.getOwnPropertyNames(Object.prototype).sort();
}

/** Every object the binder built, at every depth, has no prototype. */
function allPrototypeLess(value: unknown, depth = 0): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || depth > 10) return true;
  if (Object.getPrototypeOf(value) !== null) return false;
  return Object.values(value).every((v) => allPrototypeLess(v, depth + 1));
}

/** Whether a parsed JSON value holds a reserved key at any depth (own keys, `__proto__` included). */
function hasReservedKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([k, v]) => isReserved(k) || hasReservedKey(v));
}

/** Builds a record whose own keys are exactly these names (`__proto__` included), as a parser does. */
function recordOf(entries: [string, unknown][]): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true });
  return out;
}

describe('binder fuzz: every name shape, as form, query and JSON (issue 21)', () => {
  const clean = prototypeNames();

  it('form and query names: refused exactly when a segment is reserved, else prototype-less', async () => {
    await assertFuzz(
      'binder form/query names',
      fc.property(
        schemaName,
        fc.array(fc.tuple(shapedName, value), { minLength: 1, maxLength: 6 }),
        (name, fields) => {
          const schema = schemaOf(name);
          const reserved = fields.some(([{ segments }]) => segments.some(isReserved));
          let bound: Record<string, unknown> | undefined;
          let thrown: unknown;
          try {
            bound = bindFields(recordOf(fields.map(([{ name }, v]) => [name, v])), schema);
          } catch (error) {
            thrown = error;
          }
          expect(prototypeNames()).toEqual(clean);
          expect(
            thrown === undefined ? 'bound' : thrown instanceof ReservedNameError ? 'refused' : thrown,
          ).toBe(reserved ? 'refused' : 'bound');
          expect(allPrototypeLess(bound)).toBe(true);
        },
      ),
      run,
      400,
    );
  });

  it('odd names never throw anything but the refusal, and never reach a prototype', async () => {
    await assertFuzz(
      'binder odd names',
      fc.property(
        schemaName,
        fc.array(
          fc.tuple(
            fc.oneof(
              oddName,
              shapedName.map((s) => s.name),
            ),
            value,
          ),
          { maxLength: 6 },
        ),
        (name, fields) => {
          const schema = schemaOf(name);
          let thrown: unknown;
          let bound: Record<string, unknown> | undefined;
          try {
            bound = bindFields(recordOf(fields), schema);
          } catch (error) {
            thrown = error;
          }
          expect(prototypeNames()).toEqual(clean);
          expect(thrown === undefined || thrown instanceof ReservedNameError).toBe(true);
          expect(allPrototypeLess(bound)).toBe(true);
          expect(({} as Record<string, unknown>).Amount).toBeUndefined();
        },
      ),
      run,
      300,
    );
  });

  it('JSON bodies: a reserved key anywhere is refused; the rest binds prototype-less', async () => {
    const key = fc.oneof({ weight: 4, arbitrary: plainSegment }, { weight: 1, arbitrary: reservedSegment });
    const leaf = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
    );
    await assertFuzz(
      'binder JSON',
      fc.property(
        schemaName.filter((name) => name !== 'PaymentLinks GET query'),
        fc.array(fc.tuple(key, fc.oneof(leaf, fc.array(fc.tuple(key, leaf), { maxLength: 3 }))), {
          maxLength: 6,
        }),
        (name, entries) => {
          const schema = schemaOf(name);
          // JSON text, parsed as the gateway's parser would leave it (own `__proto__` keys included).
          const text = `{${entries
            .map(
              ([k, v]) =>
                `${JSON.stringify(k)}:${
                  Array.isArray(v)
                    ? `{${v.map(([k2, v2]) => `${JSON.stringify(k2)}:${JSON.stringify(v2)}`).join(',')}}`
                    : JSON.stringify(v)
                }`,
            )
            .join(',')}}`;
          const body = JSON.parse(text) as Record<string, unknown>;
          // What the parser left (a repeated key keeps its last value), looked at to any depth.
          const reserved = hasReservedKey(body);
          let thrown: unknown;
          let bound: Record<string, unknown> | undefined;
          try {
            bound = bindJson(body, schema);
          } catch (error) {
            thrown = error;
          }
          expect(prototypeNames()).toEqual(clean);
          expect(thrown === undefined || thrown instanceof ReservedNameError).toBe(true);
          // Refused exactly when a reserved key is anywhere in the body, declared or not, bound or not.
          expect(
            thrown === undefined ? 'bound' : thrown instanceof ReservedNameError ? 'refused' : thrown,
          ).toBe(reserved ? 'refused' : 'bound');
          expect(allPrototypeLess(bound)).toBe(true);
        },
      ),
      run,
      300,
    );
  });

  it('query credentials: bare or request.-prefixed, any case, any order; the prefixed one wins', async () => {
    const names = ['AppKey', 'UserName', 'Password'] as const;
    await assertFuzz(
      'binder query prefix',
      fc.property(
        fc.constantFrom(...names),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.string({ minLength: 1, maxLength: 10 }),
        fc.string({ minLength: 1, maxLength: 10 }),
        fc.array(fc.boolean(), { minLength: 24, maxLength: 24 }),
        (name, sendBare, sendPrefixed, prefixedFirst, bareValue, prefixedValue, upper) => {
          const cased = (s: string) =>
            [...s].map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c.toLowerCase())).join('');
          const bare: [string, string] = [cased(name), bareValue];
          const prefixed: [string, string] = [cased(`request.${name}`), prefixedValue];
          const sent = [...(sendBare ? [bare] : []), ...(sendPrefixed ? [prefixed] : [])];
          if (prefixedFirst) sent.reverse();
          const bound = bindFields(recordOf(sent), PaymentLinksQuery);
          const declared = `request.${name.charAt(0).toLowerCase()}${name.slice(1)}`;
          expect(bound[declared]).toBe(sendPrefixed ? prefixedValue : sendBare ? bareValue : undefined);
        },
      ),
      run,
      300,
    );
  });
});
