import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAIN_HTTP_REFUSED } from '../../../common/gateway-address';
import { GatewayClient } from '../../../electron/gateway-client/client';
import { DeclineCode } from '../../../gateway/contract/decline-codes';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { pinBlock, swipe } from '../../support/cards';
import { merchant1, startGateway, utn, type TestGateway } from '../../support/gateway-harness';

const credentials = { ...merchant1 };
const keyed = (overrides: Record<string, unknown> = {}) => ({
  Amount: 10.5,
  TransactionType: 1,
  UserTransactionNumber: utn('gc'),
  CardNumber: '4111111111111111',
  ExpDate: '1230',
  ForceDuplication: true,
  ...overrides,
});

/** A server that does `behave` to every request and counts them. */
async function fakeServer(
  behave: 'reset' | 'hang' | 'http500' | 'garbage',
): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits += 1;
    req.resume();
    req.on('end', () => {
      if (behave === 'reset') req.socket.destroy();
      else if (behave === 'http500') {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('boom');
      } else if (behave === 'garbage') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ResponseCode":');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  const port = typeof a === 'object' && a ? a.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function closedPort(): Promise<string> {
  const s = createTcpServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const a = s.address();
  const port = typeof a === 'object' && a ? a.port : 0;
  await new Promise((r) => s.close(r));
  return `http://127.0.0.1:${port}`;
}

describe('gateway client error taxonomy', () => {
  let gw: TestGateway;
  let client: GatewayClient;
  beforeAll(async () => {
    // The slow test card answers well after the client's timeout, and the timeout is long enough that a
    // sale on a loaded two-core machine (cold gateway, scrypt on the first login) still answers within it.
    gw = await startGateway({ sandboxSlowMs: 4_500 });
    client = new GatewayClient({
      baseUrl: gw.baseUrl,
      credentials,
      timeouts: { saleMs: 2_500, otherMs: 2_500 },
    });
  });
  afterAll(async () => {
    client.close();
    await gw.close();
  });

  it('approves a typed sale', async () => {
    const r = await client.sale(keyed());
    expect(r.ok && r.code).toBe(200);
  });

  it('classifies issuer declines and duplicate payments as declined', async () => {
    const d = await client.sale(keyed({ CardNumber: '4000000000000002' }));
    expect(!d.ok && d.failure).toMatchObject({
      kind: 'declined',
      code: ResponseCode.Declined,
      declineCode: DeclineCode.Declined,
    });
    const first = keyed({ ForceDuplication: false, Amount: 77.77 });
    await client.sale(first);
    const dup = await client.sale({ ...first, UserTransactionNumber: utn('dup') });
    expect(!dup.ok && dup.failure).toMatchObject({ kind: 'declined', code: ResponseCode.DuplicatePayment });
    expect(!dup.ok && dup.failure.message).toMatch(/duplicate.*Confirm to charge it again/);
  });

  it('tells the cashier the reason of a decline from DeclineCode (every decline is ResponseCode 3)', async () => {
    const funds = await client.sale(keyed({ CardNumber: '4000000000009995' }));
    expect(!funds.ok && funds.failure).toMatchObject({
      kind: 'declined',
      code: ResponseCode.Declined,
      declineCode: DeclineCode.InsufficientFunds,
      message: 'Declined: insufficient funds. Ask for another card or tender.',
    });
    const pin = await client.saleDebit({
      Amount: 4,
      TransactionType: 5,
      UserTransactionNumber: utn('gc-pin'),
      Track2: swipe('4111111111111111'),
      ...pinBlock('4111111111111111', '9999'),
      ForceDuplication: true,
    });
    expect(!pin.ok && pin.failure).toMatchObject({
      kind: 'declined',
      declineCode: DeclineCode.IncorrectPin,
      message: 'Incorrect PIN. The customer can try again.',
    });
    // 3 without a DeclineCode is the interface's missing Token: a wrong request, not a decline.
    const noToken = await client.saleWithToken({
      Amount: 1,
      TransactionType: 2,
      UserTransactionNumber: utn('gc-tok'),
      Token: '',
    });
    expect(!noToken.ok && noToken.failure).toMatchObject({
      kind: 'invalid',
      code: ResponseCode.MissingToken,
    });
  });

  it('classifies a refused request as invalid and a processor outage as unreachable', async () => {
    const inv = await client.sale(keyed({ ExpDate: '13' }));
    expect(!inv.ok && inv.failure.kind).toBe('invalid');
    const down = await client.sale(keyed({ CardNumber: '4000000000000259' }));
    expect(!down.ok && down.failure).toMatchObject({ kind: 'unreachable', where: 'processor' });
  });

  it('an answer slower than the timeout is an unknown outcome for a sale', async () => {
    const r = await client.sale(keyed({ CardNumber: '4000000000000119' }));
    expect(!r.ok && r.failure.kind).toBe('unknown-outcome');
  });

  it('a refused connection is unreachable: nothing was sent', async () => {
    const c = new GatewayClient({ baseUrl: await closedPort(), credentials });
    const r = await c.sale(keyed());
    expect(!r.ok && r.failure).toMatchObject({ kind: 'unreachable', where: 'network' });
    c.close();
  });

  for (const behave of ['reset', 'hang', 'http500', 'garbage'] as const) {
    it(`a ${behave} after the request left is an unknown outcome, sent once and never retried`, async () => {
      const server = await fakeServer(behave);
      const c = new GatewayClient({
        baseUrl: server.url,
        credentials,
        timeouts: { saleMs: 300, otherMs: 300 },
      });
      const r = await c.sale(keyed());
      expect(!r.ok && r.failure.kind).toBe('unknown-outcome');
      await new Promise((res) => setTimeout(res, 100));
      expect(server.hits()).toBe(1);
      c.close();
      await server.close();
    });
  }

  it('a reversal is idempotent at the gateway and answers success for an unknown number', async () => {
    const number = utn('rev');
    const first = await client.doReversal(number);
    expect(first.ok).toBe(true);
    const late = await client.sale(keyed({ UserTransactionNumber: number }));
    expect(!late.ok && late.failure).toMatchObject({ kind: 'invalid', code: 411 });
  });

  it('refuses plain http to a remote gateway before anything leaves (PCI DSS 4.2.1)', async () => {
    const c = new GatewayClient({ baseUrl: 'http://gateway.example.test:8080', credentials });
    const r = await c.sale(keyed());
    expect(!r.ok && r.failure).toMatchObject({ kind: 'unreachable', where: 'network' });
    expect(!r.ok && r.failure.message).toContain(PLAIN_HTTP_REFUSED);
    // Reconfigured from the loopback gateway to a remote one over http: refused the same way.
    const moved = new GatewayClient({ baseUrl: gw.baseUrl, credentials });
    expect((await moved.businessSettings()).ok).toBe(true);
    moved.reconfigure({ baseUrl: 'http://10.0.0.5:8080' });
    const after = await moved.businessSettings();
    expect(!after.ok && after.failure.message).toContain(PLAIN_HTTP_REFUSED);
    // https is never refused by the rule (this name does not resolve: a network failure, not the rule).
    const tls = new GatewayClient({ baseUrl: 'https://gateway.example.test', credentials });
    const t = await tls.businessSettings();
    expect(!t.ok && t.failure.message).not.toContain(PLAIN_HTTP_REFUSED);
    for (const x of [c, moved, tls]) x.close();
  });

  it('never sends card data anywhere but the request body', () => {
    const body = client.buildBody(keyed());
    expect(body).toContain('"CardNumber":"4111111111111111"');
    expect(body).toContain('"Password":"sandbox-pass"');
  });
});
