import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { loadKeys } from '../../gateway/security/keys';
import { startGateway, type Json, type TestGateway } from '../support/gateway-harness';
import { dropSchema, schemaOf } from '../support/test-database';

/**
 * A newcomer's first request (issue 21): the /docs page's "Try it out" bodies were schema filler
 * (`"AppType": 2147483647`, `"ExpDate": "strin"`), so the first Execute answered "Authentication failed".
 * Every operation of the page now carries a sandbox example — the published demo credentials, a test
 * card, a fresh UserTransactionNumber — and each one, executed as the page executes it, succeeds.
 */

type Parameter = { name: string; in: string; example?: unknown; required?: boolean };
type Operation = {
  summary?: string;
  description?: string;
  security?: Record<string, unknown>[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { example?: unknown; schema?: unknown }> };
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, { type?: string; scheme?: string }> };
};

/** Every operation of a document, in its order (the order the page lists them). */
function operations(doc: Document): { method: string; path: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
}

const exampleOf = (op: Operation) => op.requestBody?.content?.['application/json']?.example;

describe('the /docs page: a working sandbox example for every operation', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  const page = async () => {
    const r = await gw.get('/docs/json');
    expect(r.status).toBe(200);
    return r.body as unknown as Document;
  };

  it('points / to /docs instead of answering a JSON 404', async () => {
    const res = await fetch(`${gw.baseUrl}/`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/docs');
    const followed = await fetch(`${gw.baseUrl}/`);
    expect(followed.status).toBe(200);
    expect(await followed.text()).toContain('<html');
  });

  type Executed = {
    label: string;
    op: Operation;
    example: boolean;
    needsBearer: boolean;
    hadBearer: boolean;
    status: number;
    body: Json;
  };

  /** Executes every example of a load as the page does, in its order; the answers by operation. */
  async function executeAll(doc: Document): Promise<Executed[]> {
    let bearer: string | undefined;
    const answers: Executed[] = [];
    for (const { method, path, op } of operations(doc)) {
      // The page's Authorize button: the Token the /api/Auth example answered, for the Reporting group.
      const needsBearer = op.security?.some((s) => 'bearer' in s) === true;
      const headers: Record<string, string> =
        needsBearer && bearer ? { authorization: `Bearer ${bearer}` } : {};
      const query = new URLSearchParams(
        (op.parameters ?? [])
          .filter((p) => p.in === 'query' && p.example !== undefined)
          .map((p) => [p.name, String(p.example as string | number)]),
      );
      const body = exampleOf(op);
      const example = method === 'GET' ? [...query.keys()].length > 0 : body !== undefined;
      const res = await fetch(`${gw.baseUrl}${path}${method === 'GET' ? `?${query.toString()}` : ''}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        ...(method === 'GET' ? {} : { body: JSON.stringify(body) }),
      });
      const answer = { status: res.status, body: (await res.json()) as Json };
      answers.push({
        label: `${method} ${path}`,
        op,
        example,
        needsBearer,
        hadBearer: bearer !== undefined,
        ...answer,
      });
      if (path === '/api/Auth' && typeof answer.body.Token === 'string') bearer = answer.body.Token;
    }
    return answers;
  }

  const succeeded = (a: Executed) => a.status === 200 && a.body.ResponseCode === ResponseCode.Success;
  const show = (a: Executed) => `${a.label}: HTTP ${a.status} ${JSON.stringify(a.body).slice(0, 300)}`;

  it('executes every example in the page order: each succeeds (ResponseCode 200)', async () => {
    const answers = await executeAll(await page());
    expect(answers.length).toBeGreaterThan(100);
    expect(answers.filter((a) => !a.example).map((a) => a.label)).toEqual([]);
    // The Reporting group comes after /api/Auth, whose example's Token authorizes it.
    expect(answers.filter((a) => a.needsBearer).length).toBeGreaterThan(5);
    expect(answers.filter((a) => a.needsBearer && !a.hadBearer).map((a) => a.label)).toEqual([]);
    expect(answers.filter((a) => !succeeded(a)).map(show)).toEqual([]);
  });

  it('executes a reloaded page again: all succeed but those that say they work once, which refuse cleanly', async () => {
    const answers = await executeAll(await page());
    const once = answers.filter((a) => /works once/.test(a.op.description ?? ''));
    expect(once.length).toBeGreaterThan(5);
    expect(answers.filter((a) => !once.includes(a) && !succeeded(a)).map(show)).toEqual([]);
    for (const a of once) {
      // Its record is used up: an answer of the catalog, never a server error.
      expect(a.status, a.label).toBeLessThan(500);
      expect(typeof a.body.ResponseCode, a.label).toBe('number');
      expect(Array.isArray(a.body.Msg), a.label).toBe(true);
    }
  });

  it('gives every load its own fresh UserTransactionNumbers', async () => {
    // GetTransaction and DoReversal name an earlier transaction by its number: that one is not new.
    const naming = ['/api/Transactions/GetTransaction', '/api/Transactions/DoReversal'];
    const numbers = (doc: Document) =>
      operations(doc)
        .filter(({ path }) => !naming.includes(path))
        .map(({ op }) => exampleOf(op) as Json | undefined)
        .map((body) => body?.UserTransactionNumber)
        .filter((n): n is string => typeof n === 'string');
    const first = numbers(await page());
    const second = numbers(await page());
    expect(first.length).toBeGreaterThan(15);
    expect(new Set(first).size).toBe(first.length);
    expect(second.filter((n) => first.includes(n))).toEqual([]);
  });

  it('uses the demo merchant and never schema filler', async () => {
    const doc = await page();
    for (const { method, path, op } of operations(doc)) {
      const text = JSON.stringify(
        method === 'GET' ? op.parameters?.map((p) => [p.name, p.example]) : exampleOf(op),
      );
      expect(text, path).not.toContain('2147483647');
      expect(text, path).not.toMatch(/"strin"|"string"/);
      // The Reporting group takes no envelope: its merchant is the token's (MerchantNumber when sent).
      expect(text, path).toContain('76074');
    }
  });

  it('keeps /openapi.json the plain contract: no credentials, the bearer scheme declared', async () => {
    const doc = (await gw.get('/openapi.json')).body as unknown as Document;
    const text = JSON.stringify(doc);
    expect(text).not.toContain('password1');
    expect(doc.components?.securitySchemes?.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const reporting = operations(doc).filter(({ path }) => path.startsWith('/api/Reporting/'));
    expect(reporting.length).toBeGreaterThan(5);
    for (const { path, op } of reporting) expect(op.security, path).toEqual([{ bearer: [] }]);
    expect(operations(doc).filter(({ op }) => op.security !== undefined)).toHaveLength(reporting.length);
  });
});

describe('the /docs page elsewhere', () => {
  it('under a base path: every operation has its example, and one that works on a record the page made succeeds', async () => {
    const gw = await startGateway({ basePath: '/p' });
    try {
      const doc = (await gw.get('/docs/json')).body as unknown as Document;
      const all = operations(doc);
      expect(all.length).toBeGreaterThan(100);
      const without = all.filter(({ method, op }) =>
        method === 'GET' ? !op.parameters?.some((p) => p.example !== undefined) : exampleOf(op) === undefined,
      );
      expect(without.map(({ path }) => path)).toEqual([]);
      expect(all.filter(({ path }) => !path.startsWith('/p/api/')).map(({ path }) => path)).toEqual([]);
      const refund = doc.paths['/p/api/Transactions/DoRefund']?.post;
      expect(refund).toBeDefined();
      const r = await gw.post('/p/api/Transactions/DoRefund', exampleOf(refund as Operation));
      expect(r.body.ResponseCode).toBe(ResponseCode.Success);
    } finally {
      await gw.close();
    }
  });

  it('outside the sandbox: no examples, no demo credentials, the schema as it is', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-docs-prod-'));
    loadKeys(join(dataDir, 'keys.json'), true);
    const gw = await startGateway({ dataDir, sandbox: false });
    try {
      const doc = (await gw.get('/docs/json')).body as unknown as Document;
      expect(operations(doc).length).toBeGreaterThan(100);
      expect(operations(doc).filter(({ op }) => exampleOf(op) !== undefined)).toEqual([]);
      expect(JSON.stringify(doc)).not.toContain('password1');
    } finally {
      await gw.close();
      const schema = schemaOf(dataDir);
      if (schema) await dropSchema(schema);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
