import type {
  DiagnosticsBundle,
  GatewayStatusView,
  ReversalQueueView,
  Session,
  TerminalStatusView,
} from '../../common/bridge/contract';
import { BRIDGE_CONTRACT_VERSION } from '../../common/bridge/contract';
import type { DeviceHost } from '../devices/device-host';
import type { Journal } from '../journal/journal';
import type { SaleEngine } from '../sale/sale-engine';
import type { Settings } from '../settings';
import { laneTimeZone } from '../store-time-zone';
import type { StoreAndForward } from '../store-forward/saf';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';
import { TERMINAL_VERSION } from './config';

/** What the lane shows of itself: the status line, the reversal queue, the tech's diagnostics bundle. */
export type StatusViews = {
  status: (session: Session | null) => Promise<TerminalStatusView>;
  reversalView: () => Promise<ReversalQueueView>;
  diagnostics: () => Promise<DiagnosticsBundle>;
};

/** The reversal queue as the screens show it. */
export async function reversalQueueView(journal: Journal): Promise<ReversalQueueView> {
  const pending = await journal.pendingReversals();
  return {
    pending: pending.length,
    items: pending.map((r) => ({
      userTransactionNumber: r.utn,
      amountCents: r.amountCents,
      operation: r.operation,
      attempts: r.attempts,
      nextAttemptAt: r.nextAttemptAt,
      ...(r.lastError ? { lastError: r.lastError } : {}),
      since: r.createdAt,
    })),
  };
}

export function createStatusViews(deps: {
  sandbox: boolean;
  settings: Settings;
  journal: Journal;
  devices: DeviceHost;
  engine: SaleEngine;
  saf: StoreAndForward;
  gatewayStatus: () => GatewayStatusView;
  clock: Clock;
  log: Logger;
}): StatusViews {
  const { settings, journal, devices, engine, saf, clock, log } = deps;

  const reversalView = (): Promise<ReversalQueueView> => reversalQueueView(journal);

  const status = async (session: Session | null): Promise<TerminalStatusView> => {
    const [pending, exposure] = await Promise.all([journal.pendingReversals(), saf.exposure()]);
    const openTicketId = engine.openTicketId();
    return {
      laneId: settings.value.laneId,
      mid: settings.value.gateway.mid,
      cid: settings.value.gateway.cid,
      sandbox: deps.sandbox,
      version: TERMINAL_VERSION,
      contractVersion: BRIDGE_CONTRACT_VERSION,
      session,
      timeClock: settings.value.people.timeClock,
      locale: settings.value.locale,
      gateway: deps.gatewayStatus(),
      reversals: { pending: pending.length },
      saf: {
        enabled: settings.value.saf.enabled,
        exposureCents: exposure.exposureCents,
        count: exposure.count,
      },
      devices: devices.list(),
      ...(openTicketId ? { openTicketId } : {}),
      timeZone: laneTimeZone(settings.value),
      ...(engine.live() ? { paymentRunning: true } : {}),
      ...(engine.recoveredTicketId() ? { recoveredTicketId: engine.recoveredTicketId() } : {}),
    };
  };

  const diagnostics = async (): Promise<DiagnosticsBundle> => {
    const now = clock.now();
    const rows = await journal.list({ limit: 2000 });
    const byState: Record<string, number> = {};
    for (const r of rows) byState[r.state] = (byState[r.state] ?? 0) + 1;
    const { sealedPassword: _secret, ...gatewaySettings } = settings.value.gateway;
    const bundle = {
      kind: 'tillpoint-diagnostics',
      version: TERMINAL_VERSION,
      at: new Date(now).toISOString(),
      status: await status(null),
      settings: { ...settings.value, gateway: gatewaySettings },
      devices: devices.list(),
      deviceConfig: devices.config(),
      frames: devices.recorder(500).frames,
      journal: { lastSequence: await journal.lastSequence(), byState, recent: rows.slice(0, 200) },
      reversals: await reversalView(),
      audit: await journal.auditList(200),
      log: log.recent(1000),
    };
    // The bundle is built from masked data; every string gets the mask again in case something slipped
    // through (numbers are left alone: epoch-millisecond times are not card numbers, and JSON must stay JSON).
    const json = JSON.stringify(bundle, (_key, v: unknown) => (typeof v === 'string' ? log.mask(v) : v), 2);
    return {
      fileName: `tillpoint-diagnostics-${settings.value.laneId}-${new Date(now).toISOString().replace(/[:.]/g, '-')}.json`,
      json,
    };
  };

  return { status, reversalView, diagnostics };
}
