import type { TSchema } from 'typebox';

type JsonSchemaNode = {
  type?: string | string[];
  properties?: Record<string, JsonSchemaNode>;
  anyOf?: JsonSchemaNode[];
  items?: JsonSchemaNode;
};

function typesOf(schema: JsonSchemaNode): string[] {
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf);
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type ? [schema.type] : [];
}

/** A form value as the declared type, or the raw text when it is not one (validation then names the field). */
function coerce(raw: string, schema: JsonSchemaNode): unknown {
  const types = typesOf(schema);
  const text = raw.trim();
  if (types.includes('boolean') && /^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
  if (types.includes('integer') && /^[-+]?\d{1,10}$/.test(text)) return Number(text);
  if (types.includes('number') && /^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return Number(text);
  if (types.includes('null') && text === '') return null;
  return raw;
}

/** Splits `PaymentLink.Amount` and `PaymentLink[Amount]` into their path. */
function pathOf(key: string): string[] {
  return key
    .replace(/\[([^\]]*)\]/g, '.$1')
    .split('.')
    .filter((p) => p.length > 0);
}

function lookup(
  properties: Record<string, JsonSchemaNode>,
  name: string,
): [string, JsonSchemaNode] | undefined {
  const lower = name.toLowerCase();
  for (const [declared, schema] of Object.entries(properties)) {
    if (declared.toLowerCase() === lower) return [declared, schema];
  }
  return undefined;
}

/**
 * Binds an `application/x-www-form-urlencoded` body to an operation's schema, as existing e-commerce
 * integrations of this interface send it: field names matched case-insensitively, values converted to the
 * declared types ("True"/"False", numeric text), nested objects from dotted or bracketed names. Unknown
 * fields are dropped, as in JSON.
 */
export function bindForm(form: Record<string, unknown>, schema: TSchema): Record<string, unknown> {
  return bindFields(form, schema);
}

/** The same binding for query strings (Payment Links GET), whose values always arrive as text. */
export function bindFields(form: Record<string, unknown>, schema: TSchema): Record<string, unknown> {
  const root = schema as JsonSchemaNode;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(form)) {
    const raw: unknown = Array.isArray(value) ? (value as unknown[])[value.length - 1] : value;
    if (typeof raw !== 'string') continue;
    // A declared name may itself hold dots (`request.appKey` of Payment Links GET): it wins over nesting.
    const whole = root.properties ? lookup(root.properties, key) : undefined;
    if (whole) {
      out[whole[0]] = coerce(raw, whole[1]);
      continue;
    }
    let node = root;
    let target = out;
    const path = pathOf(key);
    for (const [i, segment] of path.entries()) {
      const found = node.properties ? lookup(node.properties, segment) : undefined;
      if (!found) break;
      const [declared, child] = found;
      if (i === path.length - 1) {
        target[declared] = coerce(raw, child);
        break;
      }
      const existing = target[declared];
      const next: Record<string, unknown> =
        typeof existing === 'object' && existing !== null ? (existing as Record<string, unknown>) : {};
      target[declared] = next;
      target = next;
      node = child;
    }
  }
  return out;
}

export function isFormRequest(contentType: string | undefined): boolean {
  return (contentType ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
}
