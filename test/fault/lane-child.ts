import { createTerminalCore } from '../../electron/core';
import type { SaleOutcome } from '../../electron/bridge/contract';

/**
 * One terminal lane as its own process, for the fault suite: the harness kills it with SIGKILL at random
 * moments and starts it again on the same data folder. `sell` mode rings keyed credit sales one after the
 * other until it is killed, printing one JSON line per sale; `drain` mode only recovers, waits until every
 * reversal is acknowledged, prints `drained` and exits cleanly.
 */

const env = (name: string): string => {
  const v = process.env[name];
  if (v === undefined) throw new Error(`${name} is required`);
  return v;
};

const dataDir = env('TP_DATA');
const gatewayUrl = env('TP_GATEWAY');
const mode = env('TP_MODE');
let seed = Number(env('TP_SEED'));
const timeoutMs = Number(process.env.TP_TIMEOUT_MS ?? '700');

/** mulberry32: a seeded stream, so a failing run can be replayed from its printed seed. */
function random(): number {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const cards = [
  '4111111111111111',
  '5555555555554444',
  '4242424242424242',
  '2223003122003222',
  '6011111111111117',
  '4000000000000002', // declines
  '4000000000009995', // insufficient funds
];

async function main(): Promise<void> {
  const core = await createTerminalCore({
    dataDir,
    laneId: 'F1',
    gateway: {
      baseUrl: gatewayUrl,
      embedded: true,
      credentials: {
        AppKey: 'sandbox-app-key',
        AppType: 1,
        mid: 1001,
        cid: 1,
        UserName: 'sandbox',
        Password: 'sandbox-pass',
      },
    },
    devices: { kind: 'none' },
    timeouts: { saleMs: timeoutMs, otherMs: timeoutMs },
    reversalBackoff: { initialMs: 100, maxMs: 1_500, multiplier: 2, jitter: 0.3 },
    probeMs: 300,
    random,
  });
  await core.start();
  if (mode === 'drain') {
    const ok = await core.reversalsDrained(120_000);
    process.stdout.write(ok ? 'drained\n' : 'not-drained\n');
    await core.stop();
    return;
  }
  const bridge = core.connect();
  const signedIn = await bridge.send('session.signIn', { pin: '1111' });
  if (!signedIn.ok) throw new Error(signedIn.error.message);
  process.stdout.write('ready\n');
  for (;;) {
    const amount = 100 + Math.floor(random() * 19_900);
    const opened = await bridge.send('sale.open', { subtotalCents: amount, taxCents: 0 });
    if (!opened.ok) throw new Error(opened.error.message);
    const card = cards[Math.floor(random() * cards.length)] ?? '4111111111111111';
    const paid = await bridge.send('sale.pay', {
      ticketId: opened.value.ticketId,
      tender: { kind: 'credit', entry: 'keyed', keyed: { cardNumber: card, expiry: '1230' } },
      // Sales of the same card and amount within minutes are legitimate here; the duplicate rule is not under test.
      allowDuplicate: true,
    });
    if (!paid.ok) {
      process.stdout.write(JSON.stringify({ error: paid.error.code }) + '\n');
      continue;
    }
    const o: SaleOutcome = paid.value;
    process.stdout.write(
      JSON.stringify({ utn: o.tender.userTransactionNumber, status: o.tender.status }) + '\n',
    );
    // An open ticket (declined, unknown) is left behind; the next sale opens a new one.
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`lane-child: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
