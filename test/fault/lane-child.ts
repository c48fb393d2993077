import { createTerminalCore } from '../../electron/core/wiring';
import type { SaleOutcome, TenderRequest } from '../../common/bridge/contract';

/**
 * One terminal lane as its own process, for the fault suite: the harness kills it with SIGKILL at random
 * moments and starts it again on the same data folder. `sell` mode rings credit sales one after the other
 * until it is killed, printing one JSON line per sale — keyed, or (about a third) inserted chip cards on
 * the simulated reader, some of which refuse after the issuer's approval (the trigger card) or are pulled
 * out before the card answers; `drain` mode only recovers, waits until every reversal is acknowledged,
 * prints `drained` and exits cleanly.
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

/** Signature chip cards (no PIN to type); the third refuses every approval with AAC. */
const chipCards = ['4012888888881881', '5100000000000016', '4000000000000416'];
const DECLINES_AFTER_APPROVAL = '4000000000000416';

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
    // The sandbox's simulated devices: the chip cards keep their counters in the data folder, so the
    // issuer never sees a counter twice across the kills.
    devices: { kind: 'simulated' },
    sandbox: true,
    deviceManager: { heartbeatMs: 60_000, rediscoveryMs: 0 },
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
  const sim = core.devices.simulated?.controls;
  if (!sim) throw new Error('no simulated devices');
  // The customer inserts the chosen card as soon as the chip slot waits for one.
  let toInsert: string | undefined;
  sim.onChange(() => {
    if (toInsert !== undefined && sim.state().chip.waitingForCard) {
      const pan = toInsert;
      toInsert = undefined;
      sim.insert(pan);
    }
  });
  process.stdout.write('ready\n');
  for (;;) {
    const amount = 100 + Math.floor(random() * 19_900);
    const opened = await bridge.send('sale.open', { subtotalCents: amount, taxCents: 0 });
    if (!opened.ok) throw new Error(opened.error.message);
    const chip = random() < 0.35;
    let fault: 'none' | 'declined-by-card' | 'card-removed' = 'none';
    let tender: TenderRequest;
    if (chip) {
      const card = chipCards[Math.floor(random() * chipCards.length)] ?? '4012888888881881';
      // The cardholder pulls the card out before the card answers (after the request left).
      const removed = card !== DECLINES_AFTER_APPROVAL && random() < 0.3;
      fault = card === DECLINES_AFTER_APPROVAL ? 'declined-by-card' : removed ? 'card-removed' : 'none';
      sim.setFaults(removed ? { chip: { removeCardBefore: 'complete' } } : {});
      toInsert = card;
      tender = { kind: 'credit', entry: 'chip' };
    } else {
      const card = cards[Math.floor(random() * cards.length)] ?? '4111111111111111';
      tender = { kind: 'credit', entry: 'keyed', keyed: { cardNumber: card, expiry: '1230' } };
    }
    const paid = await bridge.send('sale.pay', {
      ticketId: opened.value.ticketId,
      tender,
      // Sales of the same card and amount within minutes are legitimate here; the duplicate rule is not under test.
      allowDuplicate: true,
    });
    toInsert = undefined;
    if (!paid.ok) {
      process.stdout.write(JSON.stringify({ error: paid.error.code, chip, fault }) + '\n');
      continue;
    }
    const o: SaleOutcome = paid.value;
    process.stdout.write(
      JSON.stringify({
        utn: o.tender.userTransactionNumber,
        status: o.tender.status,
        chip,
        fault,
        ...(o.tender.cardRefusal ? { cardRefusal: o.tender.cardRefusal } : {}),
      }) + '\n',
    );
    // An open ticket (declined, unknown, a signature owed) is left behind; the next sale opens a new one.
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`lane-child: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
