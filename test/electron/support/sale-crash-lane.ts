import { createTerminalCore } from '../../../electron/core/wiring';

/**
 * A lane as its own process for the crash-recovery inquiry test: it sends a keyed credit sale, prints
 * `sending <utn> <ticketId>` as soon as the journal row is committed (before the answer), and waits to be
 * killed with SIGKILL. The test points it at a proxy that delivers the sale and loses the answer.
 */
const env = (name: string): string => {
  const v = process.env[name];
  if (v === undefined) throw new Error(`${name} is required`);
  return v;
};

async function main(): Promise<void> {
  const core = await createTerminalCore({
    dataDir: env('TP_DATA'),
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
    devices: { kind: 'simulated' },
    sandbox: true,
    deviceManager: { heartbeatMs: 60_000, rediscoveryMs: 0 },
    // Longer than the test waits: the answer is lost on the way back, and the process dies first.
    timeouts: { saleMs: 30_000, otherMs: 5_000 },
  });
  await core.start();
  const bridge = core.connect();
  const signedIn = await bridge.send('session.signIn', { pin: '1111' });
  if (!signedIn.ok) throw new Error(signedIn.error.message);
  const opened = await bridge.send('sale.open', { subtotalCents: Number(env('TP_AMOUNT')), taxCents: 0 });
  if (!opened.ok) throw new Error(opened.error.message);
  void bridge.send('sale.pay', {
    ticketId: opened.value.ticketId,
    tender: { kind: 'credit', entry: 'keyed', keyed: { cardNumber: env('TP_CARD'), expiry: '1230' } },
  });
  for (;;) {
    // Any row: it is committed before the request leaves, and the test's proxy loses the answer, so the
    // row stays 'sending' — but a poll must not depend on catching a state that could pass quickly.
    const row = (await core.journal.list({ limit: 5 }))[0];
    if (row) {
      process.stdout.write(`sending ${row.utn} ${opened.value.ticketId}\n`);
      break;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  // Killed here, between the request and its answer.
  await new Promise(() => undefined);
}

main().catch((error: unknown) => {
  process.stderr.write(`sale-crash-lane: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
