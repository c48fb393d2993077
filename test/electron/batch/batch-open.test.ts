import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchant1, startGateway, type TestGateway } from '../../support/gateway-harness';
import { sandboxGatewayDefaults, startLane, value } from '../helpers';

/**
 * Issue 22, the terminal's side: the batch screen asks the gateway for the open batch alone, its "since
 * the last close" follows the gateway's automatic closes, and its figures count the whole open batch —
 * never a silent cap.
 */

const keyed = (cardNumber: string) => ({
  kind: 'credit' as const,
  entry: 'keyed' as const,
  keyed: { cardNumber, expiry: '1230' },
});

/** A loopback relay to the gateway that records each request's path (what the terminal asked for). */
async function recordingRelay(target: string): Promise<{ url: string; paths: string[]; server: Server }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      paths.push(req.url ?? '');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
      void fetch(`${target}${req.url ?? ''}`, {
        method: req.method ?? 'POST',
        headers,
        ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
      }).then(async (r) => {
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await r.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, paths, server };
}

describe('the batch screen and the gateway: the open batch alone', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ sandboxSlowMs: 600 });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('opening the batch screen asks for the open batch and the last close, never the merchant’s whole report', async () => {
    const relay = await recordingRelay(gw.baseUrl);
    const lane = await startLane({
      gateway: gw,
      signIn: '9999',
      core: { gateway: sandboxGatewayDefaults(relay.url) },
    });
    try {
      const t = value(await lane.bridge.send('sale.open', { subtotalCents: 1234 }));
      value(
        await lane.bridge.send('sale.pay', {
          ticketId: t.ticketId,
          tender: keyed('4111111111111111'),
          allowDuplicate: true,
        }),
      );
      relay.paths.length = 0;
      const [totals, view] = await Promise.all([
        lane.bridge.send('batch.totals', {}),
        lane.bridge.send('batch.reconcile', {}),
      ]);
      expect(value(view).rows.map((r) => r.verdict)).toEqual(['match']);
      expect(value(totals).gateway).toEqual({ laneCount: 1, allLanesCount: 1 });
      const asked = relay.paths.map((p) => p.replace(/\?.*/, ''));
      expect(asked).not.toContain('/api/Report/GetReportByMerchant');
      // The screen's two reads on opening share one request for the open batch.
      expect(asked.filter((p) => p === '/api/Report/GetUnsettledTransactions')).toHaveLength(1);
    } finally {
      await lane.close();
      relay.server.close();
    }
  });

  it('after the gateway closes the batch on its own, the open batch starts at that close', async () => {
    const lane = await startLane({ gateway: gw, signIn: '9999' });
    try {
      const pay = async (cents: number) => {
        const t = value(await lane.bridge.send('sale.open', { subtotalCents: cents }));
        value(
          await lane.bridge.send('sale.pay', {
            ticketId: t.ticketId,
            tender: keyed('5555555555554444'),
            allowDuplicate: true,
          }),
        );
      };
      await pay(1234);
      // What the automatic close does at the gateway (a settlement the terminal did not ask for).
      const closed = await gw.post('/api/Transactions/DoSettlement', merchant1);
      expect(closed.body.AmountSettled).toBeGreaterThanOrEqual(12.34);
      await new Promise((r) => setTimeout(r, 5));
      await pay(567);
      const totals = value(await lane.bridge.send('batch.totals', {}));
      expect(totals.figures.card.sales).toEqual({ count: 1, cents: 567 });
      const view = value(await lane.bridge.send('batch.reconcile', {}));
      expect(view.rows.map((r) => [r.journal?.amountCents, r.verdict])).toEqual([[567, 'match']]);
    } finally {
      await lane.close();
    }
  });

  it('the open batch is counted whole: past 10,000 journal rows nothing is cut off', async () => {
    const lane = await startLane({ gateway: gw, signIn: '9999' });
    try {
      const n = 10_050;
      const now = Date.now();
      await Promise.all(
        Array.from({ length: n }, (_, i) =>
          lane.core.journal.allocate({
            laneId: 'L1',
            operation: 'cash',
            state: 'approved',
            amountCents: 100,
            approvedCents: 100,
            now: now + i,
          }),
        ),
      );
      const totals = value(await lane.bridge.send('batch.totals', {}));
      expect(totals.figures.drawer.cashTaken).toEqual({ count: n, cents: n * 100 });
      const view = value(await lane.bridge.send('batch.reconcile', {}));
      expect(view.rows.filter((r) => r.verdict === 'local-only')).toHaveLength(n);
    } finally {
      await lane.close();
    }
  }, 60_000);
});
