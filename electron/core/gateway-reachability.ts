import type { Events, GatewayStatusView, GatewayTestResult } from '../../common/bridge/contract';
import type { GatewayClient } from '../gateway-client/client';
import type { Clock, Timers } from '../util/clock';
import type { Logger } from '../util/log';

/**
 * Whether the gateway answers, as the lane sees it. Every answer updates it (the reversal worker, the
 * forwarder and the sale engine report through `reached`); while offline a probe asks every `probeMs`,
 * and coming back kicks what waited for the gateway.
 */
export type GatewayReachability = {
  /** A copy of the current view. */
  view: () => GatewayStatusView;
  reached: (reached: boolean, error?: string) => void;
  /** One BusinessSettings round trip: the tech's "test connection" and the offline probe. */
  test: () => Promise<GatewayTestResult>;
  /** No more probes (the core is stopping). */
  stop: () => void;
};

export function createGatewayReachability(deps: {
  client: GatewayClient;
  clock: Clock;
  timers: Timers;
  log: Logger;
  probeMs: number;
  running: () => boolean;
  emit: (event: 'gateway.status', payload: Events['gateway.status']) => void;
  /** The gateway answers again: what waited for it goes now. */
  onBack: () => void;
}): GatewayReachability {
  const { client, clock, timers, log } = deps;
  const status: GatewayStatusView = { online: true };
  let probeTimer: unknown;

  const reached = (ok: boolean, error?: string): void => {
    const was = status.online;
    status.online = ok;
    status.lastCheckedAt = clock.now();
    if (ok) delete status.lastError;
    else if (error) status.lastError = error;
    if (was !== ok) {
      log.log(
        ok ? 'info' : 'warn',
        'gateway',
        ok ? 'gateway reachable again' : `gateway unreachable: ${error ?? ''}`,
      );
      deps.emit('gateway.status', { ...status });
      if (ok) deps.onBack();
      else scheduleProbe();
    }
  };
  const scheduleProbe = (): void => {
    if (!deps.running() || probeTimer !== undefined) return;
    probeTimer = timers.setTimeout(() => {
      probeTimer = undefined;
      void test().then(() => {
        if (!status.online) scheduleProbe();
      });
    }, deps.probeMs);
  };
  const test = async (): Promise<GatewayTestResult> => {
    const started = Date.now();
    const r = await client.businessSettings();
    const latencyMs = Date.now() - started;
    if (r.ok) {
      reached(true);
      return {
        ok: true,
        latencyMs,
        message: `Connected to ${client.baseUrl} as merchant ${client.merchant.mid}.`,
      };
    }
    // Only a transport failure means "offline": any answer, even a refusal, proves the gateway is there.
    if (r.failure.where === 'network' || r.failure.kind === 'unreachable') reached(false, r.failure.message);
    else reached(true);
    return { ok: false, latencyMs, message: r.failure.message };
  };

  return {
    view: () => ({ ...status }),
    reached,
    test,
    stop() {
      if (probeTimer !== undefined) timers.clearTimeout(probeTimer);
      probeTimer = undefined;
    },
  };
}
