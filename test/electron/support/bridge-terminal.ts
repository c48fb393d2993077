import { startBridgeServer } from '../../../electron/bridge/ws-server';
import { createTerminalCore } from '../../../electron/core/wiring';

/**
 * A terminal core and its browser-mode bridge as a process of its own, for the tests that must see that a
 * bad frame never takes the process down (in-process, an exception escaping a socket listener would only
 * be an unhandled error of the test runner). Simulated devices, the gateway the test gives it. Prints one
 * line, `{"wsUrl":…,"secret":…}`, when it serves; runs until killed.
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
    logSink: (e) => {
      if (e.level === 'error') process.stderr.write(`${e.scope}: ${e.message}\n`);
    },
  });
  await core.start();
  const secret = env('TP_SECRET');
  const server = await startBridgeServer({
    connect: () => core.connect(),
    secret,
    port: 0,
    log: (m) => process.stderr.write(`${m}\n`),
  });
  process.stdout.write(`${JSON.stringify({ wsUrl: server.wsUrl, secret })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bridge-terminal: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
