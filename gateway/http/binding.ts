import type { TSchema } from 'typebox';
import { sharedSchemas } from '../contract/common';

/**
 * The one tolerant binder of every endpoint, for JSON bodies, form bodies and query strings alike. The
 * real service's binder behaves this way, and its published clients rely on it:
 *
 * - property names are bound case-insensitively (`transactiontype`, `Username`, `NameonCard`), nested
 *   objects too; the declared spelling wins when a body carries two spellings of one name;
 * - a few names real clients send for a declared field are bound to it where the operation does not
 *   declare the name itself (`fieldAliases`: `TrackData` is track data wherever `Track2` is, `Account` and
 *   `cv` are the keyed card number and CVN of the sale endpoints);
 * - a declared number, integer or boolean is accepted from text (`"25.00"`, `"1001"`, `"True"`), except
 *   the fields an operation's contract says must be JSON numbers (SaleWithToken's Amount, SurchargeAmount
 *   and TransactionType: 506/501); a declared string is accepted from a JSON integer (`"mid"` the other
 *   way round: a Gson `long` UserTransactionNumber);
 * - an empty string for an optional field means the field is absent (`"TrackData": ""`, `"SURI": ""`);
 * - Payment Links GET's `request.`-prefixed query names are bound from bare names too (`AppKey`,
 *   `paymentLink.id`), in any case; the prefixed spelling wins when both come;
 * - a name with a `__proto__`, `constructor` or `prototype` segment refuses the whole request (400), and
 *   what the binder builds has no prototype, so nothing a request sends reaches or reads Object.prototype.
 *
 * Text is converted only when it is exactly a number of the plain form `-12.34` (or an integer, or
 * true/false): no exponent, sign `+`, spaces or thousands separators, so `"1e3"` or `" 10"` stay text
 * and validation refuses them as amounts — money rules never loosen (two decimals, positive, finite,
 * ceiling are checked after binding, as for JSON numbers). Unknown properties are kept as sent (the
 * schema ignores them).
 *
 * A body references the shared credential envelope (`allOf: [{ $ref: 'Envelope' }, { ...own fields }]`,
 * contract/common.ts): the binder reads through the reference and the `allOf`, so the envelope's fields
 * are bound as if they were written into every body.
 */

type JsonSchemaNode = {
  type?: string | string[];
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  anyOf?: JsonSchemaNode[];
  allOf?: JsonSchemaNode[];
  items?: JsonSchemaNode;
  $ref?: string;
};

const shared = new Map(sharedSchemas.map(({ id, schema }) => [id, schema as JsonSchemaNode]));

/** A `$ref` to a shared schema (`Envelope` or `Envelope#`) as the schema it names; any other node as is. */
function dereferenced(node: JsonSchemaNode): JsonSchemaNode {
  if (node.$ref === undefined) return node;
  const target = shared.get(node.$ref.replace(/#$/, ''));
  if (!target) throw new Error(`schema reference ${node.$ref} is not a registered shared schema`);
  return target;
}

const flattened = new WeakMap<JsonSchemaNode, JsonSchemaNode>();

/**
 * One node for a reference or an `allOf` of objects: the properties and required names of every part, in
 * order. Computed once per schema node (schemas are built once, at startup).
 */
function flat(schema: JsonSchemaNode): JsonSchemaNode {
  const node = dereferenced(schema);
  if (!node.allOf) return node;
  const cached = flattened.get(node);
  if (cached) return cached;
  const parts = node.allOf.map(flat);
  const { allOf: _parts, ...own } = node;
  const merged: JsonSchemaNode = {
    ...own,
    type: 'object',
    properties: Object.assign({}, ...parts.map((p) => p.properties), node.properties) as Record<
      string,
      JsonSchemaNode
    >,
    required: [...new Set([...parts.flatMap((p) => p.required ?? []), ...(node.required ?? [])])],
  };
  flattened.set(node, merged);
  return merged;
}

/**
 * The declared schema at a property path (`PaymentLink.Amount`), through references and `allOf`; the
 * operation pipeline reads its type to choose a problem's code.
 */
export function declaredSchemaAt(schema: TSchema, path: readonly string[]): { type?: unknown } | undefined {
  let node: JsonSchemaNode | undefined = schema;
  for (const p of path) node = node ? ownProperty(flat(node).properties, p) : undefined;
  return node ? flat(node) : undefined;
}

/** A declared property by name, never one inherited from Object.prototype (`constructor`, `toString`). */
function ownProperty(
  properties: Record<string, JsonSchemaNode> | undefined,
  name: string,
): JsonSchemaNode | undefined {
  return properties && Object.hasOwn(properties, name) ? properties[name] : undefined;
}

/**
 * Names no request may use at any depth, in any case: through them a binder that builds nested objects
 * from `a.b` names reaches Object.prototype, and one anonymous request changes every later answer of every
 * merchant (issue 21). The interface declares none of them, so the request is refused whole (400) rather
 * than bound without them: such a name is an attack, not a client's spelling.
 */
const RESERVED_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export function isReservedName(name: string): boolean {
  return RESERVED_NAMES.has(name.toLowerCase());
}

/** The binder's refusal of a reserved name: the error handler answers it 400 in the interface's shape. */
export class ReservedNameError extends Error {
  readonly statusCode = 400;
  readonly code = 'TILLPOINT_RESERVED_FIELD_NAME';
  constructor() {
    // The name itself is not repeated: nothing a request sends is echoed back.
    super('A field name is reserved (__proto__, constructor, prototype): the request is refused');
    this.name = 'ReservedNameError';
  }
}

/** An object with no prototype: a request's fields never inherit anything, and never reach a prototype. */
function record(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

/**
 * Names published clients send for a declared field, bound to it where the operation declares the field
 * but not the name itself (GetTokenForCard declares `Account`, a refund `TrackData`: theirs stay theirs).
 */
export const fieldAliases: Readonly<Record<string, string>> = {
  trackdata: 'Track2',
  account: 'CardNumber',
  cv: 'CVN',
};

export type BindOptions = {
  /**
   * Top-level fields the interface fixes as JSON numbers: text is left as text there, so validation
   * answers the operation's code. Forms carry only text, so this applies to JSON bodies alone.
   */
  jsonNumbers?: readonly string[];
};

/** A value the binder drops: an empty string for an optional field. */
const ABSENT = Symbol('absent');

function typesOf(node: JsonSchemaNode): string[] {
  const schema = flat(node);
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf);
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type ? [schema.type] : [];
}

function objectSchemaOf(node: JsonSchemaNode): JsonSchemaNode | undefined {
  const schema = flat(node);
  if (schema.properties) return schema;
  return schema.anyOf?.map(flat).find((s) => s.properties !== undefined);
}

const INTEGER_TEXT = /^-?\d{1,10}$/;
const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;
const BOOLEAN_TEXT = /^(true|false)$/i;

function bindText(raw: string, schema: JsonSchemaNode, strictNumber: boolean): unknown {
  const types = typesOf(schema);
  if (types.includes('string')) return raw;
  if (strictNumber) return raw;
  if (types.includes('boolean') && BOOLEAN_TEXT.test(raw)) return raw.toLowerCase() === 'true';
  if (types.includes('integer') && INTEGER_TEXT.test(raw)) return Number(raw);
  if (types.includes('number') && NUMBER_TEXT.test(raw)) return Number(raw);
  if (types.includes('null') && raw === '') return null;
  return raw;
}

function bindValue(
  value: unknown,
  schema: JsonSchemaNode,
  optional: boolean,
  strictNumber: boolean,
  depth: number,
): unknown {
  const types = typesOf(schema);
  if (typeof value === 'string') {
    // Where the schema admits null, an empty string is that explicit "no value" (PaymentLink.Amount:
    // empty makes an Open link), not an absent field.
    if (value === '' && optional && !types.includes('null')) return ABSENT;
    return bindText(value, schema, strictNumber);
  }
  if (
    typeof value === 'number' &&
    Number.isSafeInteger(value) &&
    types.includes('string') &&
    !types.includes('number') &&
    !types.includes('integer')
  ) {
    return String(value);
  }
  if (depth > 8) return value;
  if (Array.isArray(value)) {
    const items = flat(schema).items;
    return items ? value.map((v) => bindValue(v, items, false, false, depth + 1)) : value;
  }
  if (typeof value === 'object' && value !== null) {
    const node = objectSchemaOf(schema);
    return node ? bindObject(value as Record<string, unknown>, node, {}, depth + 1) : value;
  }
  return value;
}

function declaredName(
  properties: Record<string, JsonSchemaNode>,
  key: string,
): { name: string; rank: number } | undefined {
  if (Object.hasOwn(properties, key)) return { name: key, rank: 0 };
  const lower = key.toLowerCase();
  for (const declared of Object.keys(properties)) {
    if (declared.toLowerCase() === lower) return { name: declared, rank: 1 };
  }
  const alias = Object.hasOwn(fieldAliases, lower) ? fieldAliases[lower] : undefined;
  if (alias && Object.hasOwn(properties, alias)) return { name: alias, rank: 2 };
  // Payment Links GET declares its query names with the `request.` prefix (`request.appKey`,
  // `request.paymentLink.id`); clients also send them bare (`AppKey`, `paymentLink.id`). A bare name binds
  // to its prefixed declaration, ranked after every spelling of the prefixed name itself, which wins.
  if (!lower.startsWith(QUERY_PREFIX)) {
    const prefixed = declaredName(properties, QUERY_PREFIX + key);
    if (prefixed) return { name: prefixed.name, rank: prefixed.rank + 3 };
  }
  return undefined;
}

const QUERY_PREFIX = 'request.';

function bindObject(
  source: Record<string, unknown>,
  node: JsonSchemaNode,
  options: BindOptions,
  depth: number,
): Record<string, unknown> {
  const { properties = {}, required: requiredNames = [] } = flat(node);
  const required = new Set(requiredNames);
  const strict = new Set(options.jsonNumbers ?? []);
  const out = record();
  const rankOf = new Map<string, number>();
  for (const [key, value] of Object.entries(source)) {
    if (isReservedName(key)) throw new ReservedNameError();
    const found = declaredName(properties, key);
    if (!found) {
      if (!Object.hasOwn(out, key)) out[key] = value;
      continue;
    }
    const { name, rank } = found;
    const previous = rankOf.get(name);
    if (previous !== undefined && previous < rank) continue;
    const child = ownProperty(properties, name) ?? {};
    const bound = bindValue(value, child, !required.has(name), strict.has(name), depth);
    // An empty optional field is no value at all: another spelling of it (`track2: ""` beside
    // `TrackData`) may still give one.
    if (bound === ABSENT) continue;
    rankOf.set(name, rank);
    out[name] = bound;
  }
  return out;
}

/**
 * A parsed JSON value rebuilt with no prototype at any depth, refused when any key, declared or not, is a
 * reserved name. Iterative: a body of 64 KiB can nest thousands deep, and recursion would overflow the
 * stack on it.
 */
function prototypeLess(root: unknown): unknown {
  const shell = (v: unknown): unknown =>
    Array.isArray(v) ? new Array<unknown>(v.length) : typeof v === 'object' && v !== null ? record() : v;
  const out = shell(root);
  const pending: [unknown, unknown][] = out === root ? [] : [[root, out]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [source, target] = next;
    const entries = Array.isArray(source)
      ? source.map((v, i): [string, unknown] => [String(i), v])
      : Object.entries(source as Record<string, unknown>);
    for (const [key, value] of entries) {
      if (!Array.isArray(source) && isReservedName(key)) throw new ReservedNameError();
      const copy = shell(value);
      (target as Record<string, unknown>)[key] = copy;
      if (copy !== value) pending.push([value, copy]);
    }
  }
  return out;
}

/**
 * Binds a parsed JSON body (an object) to the operation's schema. A reserved name anywhere in it refuses it
 * whole, bound or not (one of two spellings, an unknown property), as a form's or a query's would be.
 */
export function bindJson(
  body: Record<string, unknown>,
  schema: TSchema,
  options: BindOptions = {},
): Record<string, unknown> {
  return bindObject(prototypeLess(body) as Record<string, unknown>, schema, options, 0);
}

/** Splits `PaymentLink.Amount` and `PaymentLink[Amount]` into their path. */
function pathOf(key: string): string[] {
  return key
    .replace(/\[([^\]]*)\]/g, '.$1')
    .split('.')
    .filter((p) => p.length > 0);
}

/**
 * Binds an `application/x-www-form-urlencoded` body or a query string (Payment Links GET), whose values
 * are always text: nested objects come from dotted or bracketed names (`PaymentLink.Amount`), a repeated
 * name keeps its last value, and then the values are bound as JSON's are.
 */
export function bindFields(fields: Record<string, unknown>, schema: TSchema): Record<string, unknown> {
  const root = flat(schema);
  const nested = record();
  for (const [key, value] of Object.entries(fields)) {
    const path = pathOf(key);
    // Refused before anything is bound, whatever the value: `__proto__.X` must never be walked.
    if (isReservedName(key) || path.some(isReservedName)) throw new ReservedNameError();
    const raw: unknown = Array.isArray(value) ? value[value.length - 1] : value;
    if (typeof raw !== 'string') continue;
    // A declared name may itself hold dots (`request.appKey` of Payment Links GET): it wins over nesting.
    if (root.properties && declaredName(root.properties, key)) {
      nested[key] = raw;
      continue;
    }
    // Each segment takes its declared spelling, so `PaymentLink.Amount` and `paymentlink.description`
    // fill one object.
    let target = nested;
    let node: JsonSchemaNode | undefined = root;
    for (const [i, segment] of path.entries()) {
      const found: { name: string; rank: number } | undefined = node?.properties
        ? declaredName(node.properties, segment)
        : undefined;
      const name = found?.name ?? segment;
      if (i === path.length - 1) {
        target[name] = raw;
        break;
      }
      const existing = Object.hasOwn(target, name) ? target[name] : undefined;
      const next: Record<string, unknown> =
        typeof existing === 'object' && existing !== null ? (existing as Record<string, unknown>) : record();
      target[name] = next;
      target = next;
      const child: JsonSchemaNode | undefined = found ? ownProperty(node?.properties, found.name) : undefined;
      node = child ? objectSchemaOf(child) : undefined;
    }
  }
  return bindObject(nested, root, {}, 0);
}

export function isFormRequest(contentType: string | undefined): boolean {
  return (contentType ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
}
