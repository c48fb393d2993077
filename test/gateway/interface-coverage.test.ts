import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDir } from '../support/vectors';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { merchant1, startGateway, type TestGateway } from '../support/gateway-harness';

type Op = { method: string; path: string };

/**
 * Every operation the interface names, read from the spec itself (not a copy): the endpoint tables
 * (`| /api/... |` and `| POST | /api/... |` rows), the eight fraud operations named in prose, and the
 * endpoints DESIGN.md names where the interface leaves them unnamed.
 */
function interfaceOperations(): Op[] {
  const spec = readFileSync(join(sharedDir, 'spec', 'gateway-interface.md'), 'utf8');
  const ops = new Map<string, Op>();
  const add = (method: string, path: string) => ops.set(`${method} ${path}`, { method, path });
  for (const line of spec.split('\n')) {
    const withMethod = /^\|\s*(GET|POST|PUT|DELETE)\s*\|\s*(\/api\/[A-Za-z/]+)\s*\|/.exec(line);
    if (withMethod?.[1] && withMethod[2]) {
      add(withMethod[1], withMethod[2]);
      continue;
    }
    const bare = /^\|\s*(\/api\/[A-Za-z/]+)(?:\s+and\s+(\/api\/[A-Za-z/]+))?\s*\|/.exec(line);
    if (bare?.[1]) {
      add('POST', bare[1]);
      if (bare[2]) add('POST', bare[2]);
    }
  }
  const fraud = /Paths under \/api\/FraudAutoDenyOptions: ([^.]+)\./.exec(spec)?.[1] ?? '';
  for (const name of fraud
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean))
    add('POST', `/api/FraudAutoDenyOptions/${name}`);
  // The test endpoint at /api/Transactions (method not shown: POST, like every operation unless stated).
  add('POST', '/api/Transactions');
  for (const path of [
    '/api/Transactions/Sale',
    '/api/Transactions/ProcessPreauth',
    '/api/Transactions/GetTransaction',
    '/api/GiftCard/Sale',
    '/api/GiftCard/Reload',
    '/api/GiftCard/Refund',
    '/api/EbtTransaction/EbtFoodStampBalance',
    '/api/EbtTransaction/EbtFoodStampSale',
    '/api/EbtTransaction/EbtFoodStampReturn',
  ]) {
    add('POST', path);
  }
  return [...ops.values()];
}

describe('every operation of the interface is served', () => {
  let gw: TestGateway;
  let bearer: string;
  beforeAll(async () => {
    gw = await startGateway();
    bearer = (await gw.post('/api/Auth', merchant1)).body.Token as string;
  });
  afterAll(async () => {
    await gw.close();
  });

  const ops = interfaceOperations();

  it('reads the whole interface (sanity of the extraction)', () => {
    expect(ops.length).toBeGreaterThanOrEqual(90);
    expect(ops).toContainEqual({ method: 'GET', path: '/api/PaymentLinks' });
    expect(ops).toContainEqual({ method: 'POST', path: '/api/FraudAutoDenyOptions/EnableZipCode' });
    expect(ops).toContainEqual({ method: 'POST', path: '/api/Report/GeTransactionNumbers' });
  });

  it.each(ops.map((o) => [`${o.method} ${o.path}`, o] as const))(
    '%s answers in the interface shape',
    async (_name, op) => {
      const reporting = op.path.startsWith('/api/Reporting/');
      let res: { status: number; body: Record<string, unknown> };
      if (op.method === 'GET') {
        const q = new URLSearchParams({
          'request.appKey': merchant1.AppKey,
          'request.appType': String(merchant1.AppType),
          'request.mid': String(merchant1.mid),
          'request.cid': String(merchant1.cid),
          'request.userName': merchant1.UserName,
          'request.password': merchant1.Password,
        });
        res = await gw.get(`${op.path}?${q.toString()}`);
      } else {
        const r = await fetch(gw.baseUrl + op.path, {
          method: op.method,
          headers: {
            'content-type': 'application/json',
            ...(reporting ? { authorization: `Bearer ${bearer}` } : {}),
          },
          body: JSON.stringify(reporting ? {} : merchant1),
        });
        res = { status: r.status, body: (await r.json()) as Record<string, unknown> };
      }
      expect(res.status, `${op.method} ${op.path}`).toBe(200);
      // Reporting answers in its own shape (ErrorMessages); every other group carries a ResponseCode.
      expect(
        reporting ? Array.isArray(res.body.ErrorMessages) : typeof res.body.ResponseCode === 'number',
      ).toBe(true);
      // Reached the operation: authenticated, not a transport fault.
      expect([
        ResponseCode.AuthenticationFailed,
        ResponseCode.InvalidHostCredentials,
        ResponseCode.MethodNotAllowed,
        ResponseCode.UnsupportedMediaType,
        ResponseCode.EmptyRequest,
      ]).not.toContain(res.body.ResponseCode);
    },
  );

  it('documents every one of them in /openapi.json', async () => {
    const doc = (await gw.get('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const missing = ops
      .filter((o) => !doc.paths[o.path]?.[o.method.toLowerCase()])
      .map((o) => `${o.method} ${o.path}`);
    expect(missing).toEqual([]);
  });
});
