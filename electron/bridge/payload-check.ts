import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';
import { commandPayloads, type CommandName } from '../../common/bridge/commands';

type SchemaNode = {
  problem?: string;
  type?: string;
  anyOf?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  const?: unknown;
};

const validators = new Map<CommandName, ReturnType<typeof Compile<TSchema>>>();

/** Compiled once per command: the check every call pays is the fast path. */
function validator(command: CommandName) {
  let v = validators.get(command);
  if (!v) {
    v = Compile(commandPayloads[command] as TSchema);
    validators.set(command, v);
  }
  return v;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The one branch of a union the value names by its constant fields (`kind`, `source`, `role`…), if any. */
function branchOf(union: SchemaNode, value: unknown): SchemaNode | undefined {
  if (!isRecord(value)) return undefined;
  const named = (union.anyOf ?? []).filter((branch) => {
    const fixed = Object.entries(branch.properties ?? {}).filter(([, p]) => 'const' in p);
    return fixed.length > 0 && fixed.every(([k, p]) => value[k] === p.const);
  });
  return named.length === 1 ? named[0] : undefined;
}

/**
 * Why `value` fails `schema`, in plain words: the `problem` of the nearest schema that declares one
 * (contract/schema-kit.ts), else the field's name and the rule it broke. A union the value names a branch
 * of (a tender's `kind`) is judged by that branch; one it names none of, by its own `problem`.
 */
function explain(
  schema: SchemaNode,
  value: unknown,
  path: string[],
  inherited: string | undefined,
): string[] {
  const problem = schema.problem ?? inherited;
  const valid: boolean = Value.Check(schema as TSchema, value);
  if (valid) return [];
  const field = path.join('.');
  const fallback = (rule: string): string =>
    problem ?? (field ? `${field} ${rule}.` : `The payload ${rule}.`);
  if (schema.anyOf) {
    const branch = branchOf(schema, value);
    return branch ? explain(branch, value, path, problem) : [fallback('is not one of the allowed forms')];
  }
  if (schema.type === 'array' && schema.items && Array.isArray(value)) {
    const out = value.flatMap((item, i) =>
      explain(schema.items as SchemaNode, item, [...path, String(i)], problem),
    );
    return out.length > 0 ? out : [fallback('is not valid')];
  }
  if (schema.type === 'object' && schema.properties && isRecord(value)) {
    const out: string[] = [];
    for (const [key, sub] of Object.entries(schema.properties)) {
      const at = [...path, key];
      if (value[key] === undefined) {
        if (schema.required?.includes(key))
          out.push(sub.problem ?? problem ?? `${at.join('.')} is required.`);
      } else out.push(...explain(sub, value[key], at, problem));
    }
    return out.length > 0 ? out : [fallback('is not valid')];
  }
  const first = Value.Errors(schema as TSchema, value)[0];
  return [fallback(first?.message ?? 'is not valid')];
}

/**
 * What is wrong with a command's payload (contract/commands.ts), one entry per problem; empty when it is
 * valid. Never a value in it: a payload may carry a card number.
 */
export function payloadProblems(command: CommandName, payload: unknown): string[] {
  if (validator(command).Check(payload)) return [];
  const root = commandPayloads[command] as unknown as SchemaNode;
  return [...new Set(explain(root, payload, [], undefined))];
}
