import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BridgeResult, TillView } from '../../common/bridge/contract';
import type { BridgeConnection } from '../../electron/bridge/connection';
import type { TerminalCore, TerminalCoreConfig } from '../../electron/core/config';
import { createTerminalCore } from '../../electron/core/wiring';
import { merchant1, startGateway, type TestGateway } from '../support/gateway-harness';

export type Lane = {
  gw: TestGateway;
  core: TerminalCore;
  bridge: BridgeConnection;
  dataDir: string;
  close(): Promise<void>;
};

/** The value of a bridge result, or a thrown error naming its code (test helper). */
export function value<T>(r: BridgeResult<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

export function sandboxGatewayDefaults(baseUrl: string): TerminalCoreConfig['gateway'] {
  return {
    baseUrl,
    embedded: true,
    credentials: {
      AppKey: merchant1.AppKey,
      AppType: merchant1.AppType,
      mid: merchant1.mid,
      cid: merchant1.cid,
      UserName: merchant1.UserName,
      Password: merchant1.Password,
    },
  };
}

/** A sandbox gateway and a terminal core with simulated devices on a temp data folder, signed in as cashier. */
export async function startLane(
  options: {
    gateway?: TestGateway;
    core?: Partial<TerminalCoreConfig>;
    signIn?: string | null;
    dataDir?: string;
  } = {},
): Promise<Lane> {
  const gw = options.gateway ?? (await startGateway({ sandboxSlowMs: 400 }));
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tillpoint-lane-'));
  const core = await createTerminalCore({
    dataDir,
    gateway: sandboxGatewayDefaults(gw.baseUrl),
    devices: { kind: 'simulated' },
    sandbox: true,
    deviceManager: { heartbeatMs: 60_000, rediscoveryMs: 0 },
    ...options.core,
  });
  await core.start();
  const bridge = core.connect();
  const pin = options.signIn === undefined ? '1111' : options.signIn;
  if (pin !== null) value(await bridge.send('session.signIn', { pin }));
  return {
    gw,
    core,
    bridge,
    dataDir,
    async close() {
      await core.stop();
      if (!options.gateway) await gw.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until `check` passes (polling), for device-driven flows. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Opens a till in the lane's drawer with its float: cash (and debit cash back) goes through a till, and
 * is refused while none is open (docs/terminal.md "Tills").
 */
export async function openTill(
  bridge: Pick<BridgeConnection, 'send'>,
  floatCents = 10_000,
): Promise<TillView> {
  return value(await bridge.send('till.open', { float: { totalCents: floatCents } }));
}
