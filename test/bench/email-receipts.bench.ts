import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BridgeConnection } from '../../electron/bridge/connection';
import type { BridgeResult } from '../../common/bridge/contract';
import { createTerminalCore } from '../../electron/core/wiring';
import { merchant1, startGateway } from '../support/gateway-harness';
import { startSilentSmtp, startSmtpSink } from '../support/smtp-sink';

/**
 * Issue 20: an emailed receipt never slows a sale. Three lanes on one sandbox gateway, sampled interleaved
 * so the machine's load falls on all alike: (a) cash sales alone; (b) each cash sale followed by
 * `email.receipt` to a mail server that answers; (c) the same to a mail server that accepts the connection
 * and never says a word (the sender sits in its greeting wait for every email). What is timed is the
 * cashier's side: open + pay, and the `email.receipt` answer ("Receipt queued for …").
 */

const ROUNDS = Number(process.env.BENCH_EMAIL_ROUNDS ?? 40);

function ok<T>(r: BridgeResult<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

function p(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
}

function line(name: string, samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  return `${name.padEnd(46)} p50 ${p(s, 0.5).toFixed(1).padStart(6)} ms   p90 ${p(s, 0.9).toFixed(1).padStart(6)} ms   max ${(s.at(-1) ?? 0).toFixed(1).padStart(6)} ms`;
}

export async function run(): Promise<void> {
  const gw = await startGateway({ sandboxSlowMs: 400 });
  const sink = await startSmtpSink();
  const silent = await startSilentSmtp();
  const dirs: string[] = [];
  const lane = async (laneId: string, smtpPort?: number) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-email-bench-'));
    dirs.push(dataDir);
    const core = await createTerminalCore({
      dataDir,
      laneId,
      gateway: {
        baseUrl: gw.baseUrl,
        embedded: true,
        credentials: {
          AppKey: merchant1.AppKey,
          AppType: merchant1.AppType,
          mid: merchant1.mid,
          cid: merchant1.cid,
          UserName: merchant1.UserName,
          Password: merchant1.Password,
        },
      },
      devices: { kind: 'none' },
      email: { timeouts: { connectionMs: 60_000, greetingMs: 60_000, socketMs: 60_000 } },
    });
    await core.start();
    const bridge: BridgeConnection = core.connect();
    ok(await bridge.send('session.signIn', { pin: '9999' }));
    if (smtpPort !== undefined)
      ok(
        await bridge.send('email.settings.set', {
          host: '127.0.0.1',
          port: smtpPort,
          security: 'none',
          senderAddress: 'receipts@bench.example',
        }),
      );
    return { core, bridge };
  };
  const plain = await lane('B1');
  const answering = await lane('B2', sink.port);
  const hanging = await lane('B3', silent.port);
  const times = { plain: [] as number[], answering: [] as number[], hanging: [] as number[] };
  const queue = { answering: [] as number[], hanging: [] as number[] };

  const sale = async (bridge: BridgeConnection, cents: number): Promise<{ ms: number; ticketId: string }> => {
    const t0 = performance.now();
    const t = ok(await bridge.send('sale.open', { subtotalCents: cents }));
    ok(
      await bridge.send('sale.pay', { ticketId: t.ticketId, tender: { kind: 'cash', tenderedCents: cents } }),
    );
    return { ms: performance.now() - t0, ticketId: t.ticketId };
  };
  const emailed = async (bridge: BridgeConnection, ticketId: string): Promise<number> => {
    const t0 = performance.now();
    ok(await bridge.send('email.receipt', { ticketId, to: `c${ticketId.slice(-6)}@bench.example` }));
    return performance.now() - t0;
  };

  try {
    for (let i = 0; i < ROUNDS; i += 1) {
      const cents = 1000 + i;
      times.plain.push((await sale(plain.bridge, cents)).ms);
      const a = await sale(answering.bridge, cents);
      times.answering.push(a.ms);
      queue.answering.push(await emailed(answering.bridge, a.ticketId));
      const h = await sale(hanging.bridge, cents);
      times.hanging.push(h.ms);
      queue.hanging.push(await emailed(hanging.bridge, h.ticketId));
    }
    await sink.waitFor(ROUNDS, 30_000).catch(() => undefined);
    console.log(`emailed receipts: ${ROUNDS} cash sales per lane, interleaved`);
    console.log(line('(a) sale, no email', times.plain));
    console.log(line('(b) sale, then emailed (server answers)', times.answering));
    console.log(line('    email.receipt answer (server answers)', queue.answering));
    console.log(line('(c) sale, then emailed (server silent)', times.hanging));
    console.log(line('    email.receipt answer (server silent)', queue.hanging));
    console.log(`    delivered by the answering server (background): ${sink.messages.length} of ${ROUNDS}`);
    console.log(`    connections held by the silent server: ${silent.open()}`);
  } finally {
    for (const l of [plain, answering, hanging]) await l.core.stop();
    await sink.close();
    await silent.close();
    await gw.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await run();
}
