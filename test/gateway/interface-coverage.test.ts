import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVector } from '../support/vectors';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { merchant1, startGateway, type TestGateway } from '../support/gateway-harness';

type Op = { method: string; path: string };
type EndpointList = { operations: (Op & { group: string; source: string })[] };

/**
 * Every operation the interface names, as data (test/vectors/interface/endpoints.json; how it was derived
 * from the interface, and which entries are ours where the interface leaves a path unnamed, is in
 * test/vectors/SOURCES.md).
 */
function interfaceOperations(): Op[] {
  return loadVector<EndpointList>('interface/endpoints.json').operations.map(({ method, path }) => ({
    method,
    path,
  }));
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

  it('lists the whole interface, each operation once (the data is not empty or truncated)', () => {
    expect(ops.length).toBeGreaterThanOrEqual(90);
    expect(new Set(ops.map((o) => `${o.method} ${o.path}`)).size).toBe(ops.length);
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
