import { createTerminalCore } from '../../../electron/core/wiring';
import { findTestCard } from '../../../native/simulators/test-cards';

/**
 * A lane as its own process for the chip crash test: it inserts a chip card whose reader never answers
 * the completion (the card is still thinking when the terminal dies), prints `awaiting-card <utn>` as
 * soon as the issuer's approval is committed, and waits to be killed with SIGKILL.
 */
const env = (name: string): string => {
  const v = process.env[name];
  if (v === undefined) throw new Error(`${name} is required`);
  return v;
};

async function main(): Promise<void> {
  const card = findTestCard(env('TP_CARD'));
  if (!card) throw new Error('not a sandbox chip card');
  const core = await createTerminalCore({
    dataDir: env('TP_DATA'),
    laneId: 'C1',
    gateway: {
      baseUrl: env('TP_GATEWAY'),
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
    devices: {
      kind: 'simulated',
      options: { chipCard: card, autoInsert: true, faults: { chip: { silentOn: 'complete' } } },
    },
    sandbox: true,
    deviceManager: { heartbeatMs: 60_000, rediscoveryMs: 0 },
  });
  await core.start();
  const bridge = core.connect();
  const signedIn = await bridge.send('session.signIn', { pin: '1111' });
  if (!signedIn.ok) throw new Error(signedIn.error.message);
  const opened = await bridge.send('sale.open', { subtotalCents: Number(env('TP_AMOUNT')), taxCents: 0 });
  if (!opened.ok) throw new Error(opened.error.message);
  void bridge.send('sale.pay', {
    ticketId: opened.value.ticketId,
    tender: { kind: 'credit', entry: 'chip' },
  });
  for (;;) {
    const row = (await core.journal.list({ limit: 5 })).find((r) => r.state === 'awaiting-card');
    if (row) {
      process.stdout.write(`awaiting-card ${row.utn}\n`);
      break;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  // Killed here, between the issuer's approval and the card's answer.
  await new Promise(() => undefined);
}

main().catch((error: unknown) => {
  process.stderr.write(`chip-crash-lane: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
