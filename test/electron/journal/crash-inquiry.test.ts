import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionReportRecord } from '../../../gateway/contract/report';
import { merchant1, startGateway, type TestGateway } from '../../support/gateway-harness';
import { eventually, startLane, value } from '../helpers';

/**
 * The README's promise across a crash: a sale whose answer was lost is asked about (GetTransaction) and
 * kept if the gateway approved it, else reversed. A real lane process is killed with SIGKILL between the
 * request and its answer, against a real gateway on loopback; the next start asks before it reverses.
 * The lane talks to the gateway through a proxy that delivers a sale and loses its answer, so the lane
 * never learns the outcome however fast the gateway decides — the crash always falls in that window.
 */

const SLOW = '4000000000000119'; // approves after the sandbox delay
const DECLINES = '4000000000009995'; // insufficient funds

async function gatewayRecord(gw: TestGateway, utn: string): Promise<TransactionReportRecord | undefined> {
  const r = await gw.post('/api/Report/GetReportByMerchant', merchant1);
  return (r.body.Transactions as TransactionReportRecord[]).find((t) => t.UserTransactionNumber === utn);
}

/** GetTransaction as any client asks it: the transaction's standing at the gateway. */
async function standing(gw: TestGateway, utn: string): Promise<string | undefined> {
  const r = await gw.post('/api/Transactions/GetTransaction', { ...merchant1, UserTransactionNumber: utn });
  return r.body.TransactionStatus as string | undefined;
}

/** A loopback proxy to the gateway that delivers every request and drops the answer to a sale. */
async function answerLosingProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const lost = /^\/api\/Transactions\/Sale/.test(req.url ?? '');
    const upstream = request(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: req.headers },
      (answer) => {
        if (lost) {
          answer.resume(); // the gateway answered; the answer goes nowhere
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts the lane process, waits until its sale's row is committed, and returns the sale's numbers. */
async function laneUntilSending(
  gatewayUrl: string,
  dataDir: string,
  card: string,
  amount: string,
): Promise<{ utn: string; ticketId: string; kill: () => Promise<void> }> {
  const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = spawn(
    process.execPath,
    ['--import', loader, join(import.meta.dirname, '..', 'support', 'sale-crash-lane.ts')],
    {
      env: { ...process.env, TP_DATA: dataDir, TP_GATEWAY: gatewayUrl, TP_CARD: card, TP_AMOUNT: amount },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let out = '';
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const [utn, ticketId] = await new Promise<[string, string]>((resolve, reject) => {
    // A lane that never gets there says what it printed, and does not outlive the test.
    const stuck = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the lane did not commit its sale in 40 s:\n${out}`));
    }, 40_000);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      // The whole line: a chunk may end in the middle of the ticket id.
      const m = /sending (\S+) (\S+)\n/.exec(out);
      if (m?.[1] && m[2]) {
        clearTimeout(stuck);
        resolve([m[1], m[2]]);
      }
    });
    void exited.then(() => reject(new Error(`the lane exited early:\n${out}`)));
  });
  return {
    utn,
    ticketId,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

describe('after a crash between the request and its answer, the next start asks before it reverses', () => {
  let gw: TestGateway;
  let proxy: Awaited<ReturnType<typeof answerLosingProxy>>;
  const dirs: string[] = [];
  beforeAll(async () => {
    gw = await startGateway({ sandboxSlowMs: 1_500 });
    proxy = await answerLosingProxy(gw.baseUrl);
  });
  afterAll(async () => {
    await proxy.close();
    await gw.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const dataDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'tillpoint-crash-inquiry-'));
    dirs.push(d);
    return d;
  };

  it('an approval the gateway holds is kept: the ticket comes back paid, nothing is reversed', async () => {
    const dir = dataDir();
    const lane = await laneUntilSending(proxy.url, dir, SLOW, '3100');
    // The sale reached the gateway (its processor is still deciding) when the lane dies.
    await eventually(async () => (await standing(gw, lane.utn)) === 'Pending', 10_000);
    await lane.kill();
    await eventually(async () => (await standing(gw, lane.utn)) === 'Approved', 10_000);

    const restarted = await startLane({ gateway: gw, dataDir: dir });
    try {
      const row = await restarted.core.journal.get(lane.utn);
      expect(row).toMatchObject({ state: 'approved', approvedCents: 3100 });
      expect(row?.message).toMatch(/confirmed by GetTransaction/);
      expect(row?.authCode).toMatch(/\S/);
      expect(await restarted.core.journal.pendingReversals()).toEqual([]);
      expect((await restarted.core.journal.recentReversals(50)).map((r) => r.utn)).not.toContain(lane.utn);
      const ticket = value(await restarted.bridge.send('sale.get', { ticketId: lane.ticketId }));
      expect(ticket.status).toBe('paid');
      expect(ticket.tenders[0]).toMatchObject({ status: 'approved', approvedCents: 3100 });
      expect(ticket.tenders[0]?.authCode).toBe(row?.authCode);
      // Nothing reversed it at the gateway: the customer was charged once, and the sale stands.
      expect(await restarted.core.reversalsDrained(5_000)).toBe(true);
      expect((await gatewayRecord(gw, lane.utn))?.Status).toBe('approved');
    } finally {
      await restarted.close();
    }
  }, 90_000);

  it('a decline the gateway holds is a decline: the ticket stays open for another tender, nothing to reverse', async () => {
    const dir = dataDir();
    const lane = await laneUntilSending(proxy.url, dir, DECLINES, '3200');
    await eventually(async () => (await standing(gw, lane.utn)) === 'Declined', 10_000);
    await lane.kill();
    const restarted = await startLane({ gateway: gw, dataDir: dir });
    try {
      const row = await restarted.core.journal.get(lane.utn);
      expect(row).toMatchObject({ state: 'declined' });
      // Learned by asking after the restart: the lane itself never heard the decline.
      expect(row?.message).toMatch(/confirmed by GetTransaction/);
      expect(await restarted.core.journal.pendingReversals()).toEqual([]);
      const ticket = value(await restarted.bridge.send('sale.get', { ticketId: lane.ticketId }));
      expect(ticket).toMatchObject({ status: 'open', remainingCents: 3200 });
      expect(ticket.tenders[0]?.status).toBe('declined');
    } finally {
      await restarted.close();
    }
  }, 90_000);
});
