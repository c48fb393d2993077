/**
 * Narrowing for tests: a union result is asserted to be the expected branch (failing the test otherwise)
 * and handed back typed, so the assertions that follow run unconditionally — never inside an `if` that
 * would skip them when the code answers the wrong branch.
 */
export function assertKind<T extends { kind: string }, K extends T['kind']>(
  value: T,
  kind: K,
): Extract<T, { kind: K }> {
  if (value.kind !== kind)
    throw new Error(`expected a '${kind}' result, got '${value.kind}': ${JSON.stringify(value)}`);
  return value as Extract<T, { kind: K }>;
}

/** The refused branch of an `{ ok }` result (Result-style answers of the core and the codecs). */
export function assertRefused<T extends { ok: boolean }>(value: T): Extract<T, { ok: false }> {
  if (value.ok) throw new Error(`expected a refusal, got success: ${JSON.stringify(value)}`);
  return value as Extract<T, { ok: false }>;
}

/** The thrown value of `fn`, which must throw. */
export function assertThrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to throw, it returned');
}
