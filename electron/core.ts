import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type {
  AuditEntryView,
  Bridge,
  BridgeResult,
  CommandName,
  CommandPayload,
  CommandValue,
  DiagnosticsBundle,
  EventName,
  Events,
  GatewayStatusView,
  GatewayTestResult,
  ReconciliationView,
  ReversalQueueView,
  Role,
  Session,
  TerminalStatusView,
} from './bridge/contract';
import { BRIDGE_CONTRACT_VERSION } from './bridge/contract';
import { BridgeFailure } from './bridge/failure';
import { gatewayAddressProblem } from '../common/gateway-address';
import { createHandlers, commandAccess, type CallContext } from './bridge/handlers';
import { createDeviceHost, type DeviceHost, type DeviceSetup } from './devices/device-host';
import type { DeviceManagerOptions } from '../native/devices/device-manager';
import { GatewayClient, type GatewayTimeouts } from './gateway-client/client';
import { openJournal, type Journal } from './journal/journal';
import { createReversalWorker, type ReversalWorker } from './journal/reversal-worker';
import { reconcile } from './reconciliation';
import { can, createRoles, type Roles } from './roles/roles';
import { SaleEngine } from './sale/sale-engine';
import { loadSettings, type GatewayDefaults, type Settings } from './settings';
import { createStoreAndForward, type StoreAndForward } from './store-forward/saf';
import type { BackoffPolicy } from './util/backoff';
import { systemClock, systemTimers, type Clock, type Timers } from './util/clock';
import { newId } from './util/ids';
import { createSealer, loadOrCreateKey } from './util/key-file';
import { createLogger, type LogEntry, type Logger } from './util/log';

export const TERMINAL_VERSION = '0.1.0';

export type TerminalCoreConfig = {
  /** Journal, key file, frames, lock: everything the lane keeps lives here. */
  dataDir: string;
  /** Default lane id until a tech sets one. */
  laneId?: string;
  gateway: GatewayDefaults;
  devices?: DeviceSetup;
  /** Sandbox mode: the simulator panel's commands are available. */
  sandbox?: boolean;
  merchantName?: string;
  clock?: Clock;
  timers?: Timers;
  random?: () => number;
  reversalBackoff?: BackoffPolicy;
  /** While the gateway is offline, how often to probe it. Default 10 s. */
  probeMs?: number;
  /** Overrides of the money-moving/other timeouts (the fault suite shortens them). */
  timeouts?: Partial<GatewayTimeouts>;
  deviceManager?: Omit<DeviceManagerOptions, 'config' | 'simulated'>;
  /** Where log lines go besides the in-memory ring (already masked). */
  logSink?: (entry: LogEntry) => void;
};

/** One client of the bridge: a window, a browser tab, a test. Each has its own signed-in session. */
export type BridgeConnection = Bridge & {
  readonly id: string;
  /** Calls a command by name with an unchecked payload (the carriers' entry point). */
  dispatch(command: string, payload: unknown): Promise<BridgeResult<unknown>>;
  /** Every event, for carriers that forward them all. */
  onAny(listener: (event: EventName, payload: unknown) => void): () => void;
  close(): void;
};

export type TerminalCore = {
  start(): Promise<void>;
  stop(): Promise<void>;
  connect(): BridgeConnection;
  readonly dataDir: string;
  /** For tests and the fault suite: the journal as the core sees it. */
  readonly journal: Journal;
  /** Resolves once no reversal is pending (or false at the deadline). */
  reversalsDrained(timeoutMs: number): Promise<boolean>;
  readonly devices: DeviceHost;
  readonly log: Logger;
};

export class TerminalLockedError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `Another Tillpoint terminal (process ${pid}) is already running on ${dataDir}. Close it first, or start with --data <another folder>.`,
    );
    this.name = 'TerminalLockedError';
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One terminal per data folder: the journal's single writer and the lane's counter depend on it. A lock
 * left by a process that died (kill -9, power loss) is taken over.
 */
export function acquireLock(dataDir: string): () => void {
  const path = join(dataDir, 'terminal.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(path, 'utf8') === String(process.pid)) rmSync(path);
        } catch {
          // Already gone.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && pidAlive(pid))
        throw new TerminalLockedError(dataDir, pid);
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not lock ${dataDir}`);
}

/**
 * The terminal core: journal (in its worker thread), gateway client, reversal worker, store-and-forward,
 * devices, sale engine, roles and audit, behind the bridge. Runs in plain Node; the Electron main process
 * and the browser-mode server only carry its bridge. Nothing happens until `start()`.
 */
export async function createTerminalCore(config: TerminalCoreConfig): Promise<TerminalCore> {
  const clock = config.clock ?? systemClock;
  const timers = config.timers ?? systemTimers;
  const log = createLogger({ now: () => clock.now(), ...(config.logSink ? { sink: config.logSink } : {}) });
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const releaseLock = acquireLock(config.dataDir);

  let journal: Journal;
  try {
    journal = await openJournal(join(config.dataDir, 'journal.sqlite'));
  } catch (error) {
    releaseLock();
    throw error;
  }
  const sealer = createSealer(loadOrCreateKey(join(config.dataDir, 'terminal.key')));
  const settings: Settings = await loadSettings(journal, sealer, {
    laneId: config.laneId ?? 'L1',
    gateway: { ...config.gateway, timeouts: { ...config.gateway.timeouts, ...config.timeouts } },
    devices: null,
    now: () => clock.now(),
  });

  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const anyListeners = new Set<(event: EventName, payload: unknown) => void>();
  const emit = <E extends EventName>(event: E, payload: Events[E]): void => {
    for (const l of listeners.get(event) ?? []) l(payload);
    for (const l of anyListeners) l(event, payload);
  };

  const client = new GatewayClient({
    baseUrl: settings.value.gateway.baseUrl,
    credentials: settings.credentials(),
    timeouts: settings.value.gateway.timeouts,
    appInfo: `tillpoint-terminal/${TERMINAL_VERSION}`,
  });
  const gateway = () => client;

  // --- gateway reachability: every answer updates it; while offline a probe looks every probeMs.
  const gatewayStatus: GatewayStatusView = { online: true };
  let probeTimer: unknown;
  let running = false;
  const probeMs = config.probeMs ?? 10_000;
  // Declared before the worker and the forwarder exist: gatewayReached is handed to both.
  const later: { reversals?: ReversalWorker; saf?: StoreAndForward } = {};
  const gatewayReached = (reached: boolean, error?: string): void => {
    const was = gatewayStatus.online;
    gatewayStatus.online = reached;
    gatewayStatus.lastCheckedAt = clock.now();
    if (reached) delete gatewayStatus.lastError;
    else if (error) gatewayStatus.lastError = error;
    if (was !== reached) {
      log.log(
        reached ? 'info' : 'warn',
        'gateway',
        reached ? 'gateway reachable again' : `gateway unreachable: ${error ?? ''}`,
      );
      emit('gateway.status', { ...gatewayStatus });
      if (reached) {
        later.reversals?.kick();
        void later.saf?.forward().catch(() => undefined);
      } else scheduleProbe();
    }
  };
  const scheduleProbe = (): void => {
    if (!running || probeTimer !== undefined) return;
    probeTimer = timers.setTimeout(() => {
      probeTimer = undefined;
      void testGateway().then(() => {
        if (!gatewayStatus.online) scheduleProbe();
      });
    }, probeMs);
  };
  const testGateway = async (): Promise<GatewayTestResult> => {
    const started = Date.now();
    const r = await client.businessSettings();
    const latencyMs = Date.now() - started;
    if (r.ok) {
      gatewayReached(true);
      return {
        ok: true,
        latencyMs,
        message: `Connected to ${client.baseUrl} as merchant ${client.merchant.mid}.`,
      };
    }
    if (r.failure.where === 'network' || r.failure.kind === 'unreachable')
      gatewayReached(false, r.failure.message);
    else gatewayReached(true);
    return { ok: false, latencyMs, message: r.failure.message };
  };

  const reversalView = async (): Promise<ReversalQueueView> => {
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
  };
  const reversalsChanged = (): void => {
    void reversalView()
      .then((v) => emit('reversals.updated', v))
      .catch(() => undefined);
  };

  const reversalWorker = createReversalWorker({
    journal,
    gateway,
    clock,
    timers,
    log,
    ...(config.reversalBackoff ? { backoff: config.reversalBackoff } : {}),
    ...(config.random ? { random: config.random } : {}),
    onChange: reversalsChanged,
    onGatewayReached: (reached) => gatewayReached(reached),
  });
  later.reversals = reversalWorker;

  const storeAndForward: StoreAndForward = createStoreAndForward({
    journal,
    sealer,
    gateway,
    clock,
    log,
    policy: () => settings.value.saf,
    onChange: () => {
      void storeAndForward
        .view(settings.value.saf)
        .then((v) => emit('saf.updated', v))
        .catch(() => undefined);
    },
    onUnknown: async (utn, message) => {
      await journal.markUnknown(utn, message, clock.now(), clock.now());
      reversalWorker.kick();
    },
  });
  later.saf = storeAndForward;

  const devices = createDeviceHost({
    setup: config.devices ?? { kind: 'none' },
    dataDir: config.dataDir,
    stored: settings.value.devices,
    recorderEnabled: settings.value.recorder.enabled,
    ...(config.deviceManager ? { manager: config.deviceManager } : {}),
  });
  devices.onStatus((s) => emit('devices.status', s));
  devices.simulated?.controls.onChange(() => emit('simulator.changed', devices.simulatorState()));

  const engine = new SaleEngine({
    journal,
    gateway,
    devices: () => devices.devices,
    connected: (role) => devices.connected(role),
    settings: () => settings.value,
    clock,
    log,
    emit,
    kickReversals: () => reversalWorker.kick(),
    saf: storeAndForward,
    gatewayReached,
    merchantName: () => config.merchantName ?? 'TILLPOINT STORE',
  });

  const roles: Roles = createRoles(journal, clock);

  const audit = async (
    who: Role | 'system',
    action: string,
    detail: string,
    approvedBy?: Role,
  ): Promise<void> => {
    // Audit details are built from ids and amounts only; maskCardData is the backstop.
    await journal.audit(clock.now(), who, action, log.mask(detail), approvedBy ?? null);
    log.log('info', 'audit', `${who} ${action} ${detail}${approvedBy ? ` (approved by ${approvedBy})` : ''}`);
  };

  const lastSettledAt = async (): Promise<number> =>
    Number((await journal.getSetting('lastSettledAt')) ?? '0');

  const reconciliation = async (): Promise<ReconciliationView> => {
    const [report, unsettled] = await Promise.all([
      client.getReportByMerchant(),
      client.getUnsettledTransactions(),
    ]);
    if (!report.ok) throw engine.failureOf(report.failure);
    if (!unsettled.ok) throw engine.failureOf(unsettled.failure);
    const since = await lastSettledAt();
    const journalRows = (await journal.list({ since, limit: 10_000 })).filter(
      (r) => r.laneId === settings.value.laneId || r.utn.startsWith(`${r.laneId}-`),
    );
    // Older entries still unresolved belong in the view too: an unknown from before the last close.
    const unresolved = await journal.list({
      states: ['sending', 'unknown', 'awaiting-card', 'reversing'],
      limit: 10_000,
    });
    const all = new Map([...unresolved, ...journalRows].map((r) => [r.utn, r]));
    const utns = new Set(all.keys());
    // This journal's numbers only: a previous install of the same lane id has another epoch.
    const epoch = await journal.epoch();
    const prefixes = new Set([...all.values()].map((r) => `${r.laneId}-${epoch ?? ''}-`));
    const openBatch = new Set(
      (unsettled.response.UnsettledTransactions ?? []).map((u) => u.UserReferenceNumber),
    );
    const sinceIso = since > 0 ? new Date(since).toISOString() : '';
    const gatewayRows = (report.response.Transactions ?? []).filter(
      (g) =>
        utns.has(g.UserTransactionNumber) ||
        ([...prefixes].some((p) => g.UserTransactionNumber.startsWith(p)) &&
          (openBatch.has(g.UserTransactionNumber) || g.MadeOn >= sinceIso)),
    );
    const exposure = await storeAndForward.exposure();
    return reconcile({
      journal: [...all.values()],
      gateway: gatewayRows,
      openBatch,
      reversals: [
        ...(await journal.pendingReversals()),
        ...(await journal.recentReversals(500)).filter((r) => r.state === 'failed'),
      ],
      safQueued: exposure.count,
      now: clock.now(),
    });
  };

  const status = async (session: Session | null): Promise<TerminalStatusView> => {
    const [pending, exposure] = await Promise.all([journal.pendingReversals(), storeAndForward.exposure()]);
    const openTicketId = engine.openTicketId();
    return {
      laneId: settings.value.laneId,
      mid: settings.value.gateway.mid,
      cid: settings.value.gateway.cid,
      sandbox: config.sandbox === true,
      version: TERMINAL_VERSION,
      contractVersion: BRIDGE_CONTRACT_VERSION,
      session,
      gateway: { ...gatewayStatus },
      reversals: { pending: pending.length },
      saf: {
        enabled: settings.value.saf.enabled,
        exposureCents: exposure.exposureCents,
        count: exposure.count,
      },
      devices: devices.list(),
      ...(openTicketId ? { openTicketId } : {}),
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

  const auditList = async (limit: number): Promise<AuditEntryView[]> =>
    (await journal.auditList(limit)).map((a) => ({
      at: a.at,
      role: a.role as Role | 'system',
      action: a.action,
      detail: a.detail,
      ...(a.approvedBy ? { approvedBy: a.approvedBy as Role } : {}),
    }));

  const handlers = createHandlers({
    config,
    settings,
    journal,
    client,
    engine,
    roles,
    devices,
    reversals: reversalWorker,
    saf: storeAndForward,
    clock,
    log,
    emit,
    audit,
    auditList,
    testGateway,
    reconciliation,
    reversalView,
    status,
    diagnostics,
    lastSettledAt,
  });

  const connections = new Set<BridgeConnection>();

  const connect = (): BridgeConnection => {
    let session: Session | null = null;
    const own = new Map<EventName, Set<(payload: unknown) => void>>();
    const ownAny = new Set<(event: EventName, payload: unknown) => void>();
    const ctx: CallContext = {
      session: () => session,
      setSession: (s) => {
        session = s;
        for (const l of own.get('session.changed') ?? []) l(s);
        for (const l of ownAny) l('session.changed', s);
      },
    };
    const relay = (event: EventName, payload: unknown): void => {
      for (const l of own.get(event) ?? []) l(payload);
      for (const l of ownAny) l(event, payload);
    };
    anyListeners.add(relay);

    const dispatch = async (command: string, payload: unknown): Promise<BridgeResult<unknown>> => {
      if (!running)
        return { ok: false, error: { code: 'unavailable', message: 'The terminal is not running.' } };
      if (!Object.hasOwn(handlers, command))
        return { ok: false, error: { code: 'invalid', message: `Unknown command ${command}.` } };
      const name = command as CommandName;
      if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
        return { ok: false, error: { code: 'invalid', message: 'The payload must be an object.' } };
      const access = commandAccess[name];
      if (access !== 'public') {
        if (!session) return { ok: false, error: { code: 'unauthorized', message: 'Sign in first.' } };
        if (
          access !== 'signed-in' &&
          !can(session.role, access) &&
          !(access === 'sell' && session.role === 'manager')
        )
          return {
            ok: false,
            error: { code: 'forbidden', message: `The ${session.role} role cannot do this.` },
          };
      }
      try {
        const handler = handlers[name] as (p: unknown, c: CallContext) => Promise<unknown>;
        return { ok: true, value: await handler(payload, ctx) };
      } catch (error) {
        if (error instanceof BridgeFailure) return { ok: false, error: error.toError() };
        if (!running)
          return { ok: false, error: { code: 'unavailable', message: 'The terminal is stopping.' } };
        const message = error instanceof Error ? error.message : String(error);
        log.log('error', 'bridge', `${name} failed: ${message}`);
        return {
          ok: false,
          error: {
            code: 'internal',
            message: 'Something went wrong; the diagnostics bundle has the details.',
          },
        };
      }
    };

    const connection: BridgeConnection = {
      id: newId('C'),
      dispatch,
      send<K extends CommandName>(
        command: K,
        payload: CommandPayload<K>,
      ): Promise<BridgeResult<CommandValue<K>>> {
        return dispatch(command, payload) as Promise<BridgeResult<CommandValue<K>>>;
      },
      on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
        const set = own.get(event) ?? new Set();
        own.set(event, set);
        const l = listener as (payload: unknown) => void;
        set.add(l);
        return () => set.delete(l);
      },
      onAny(listener) {
        ownAny.add(listener);
        return () => ownAny.delete(listener);
      },
      close() {
        anyListeners.delete(relay);
        own.clear();
        ownAny.clear();
        connections.delete(connection);
      },
    };
    connections.add(connection);
    return connection;
  };

  let stopped = false;
  return {
    dataDir: config.dataDir,
    journal,
    devices,
    log,
    connect,
    reversalsDrained: (ms) => reversalWorker.drained(ms),
    async start() {
      if (running) return;
      running = true;
      // Entries left `sending` by a crash are unknown: they join the reversal queue before anything else.
      const recovered = await journal.recoverInFlight(clock.now());
      if (recovered.length > 0)
        log.log('warn', 'journal', `${recovered.length} entr(ies) had no recorded answer; reversing them`);
      await roles.init();
      await engine.restore();
      await devices.start();
      reversalWorker.start();
      // Learn at once whether the gateway answers (the status starts optimistic), then forward what waits.
      void testGateway()
        .then(() => storeAndForward.forward())
        .catch(() => undefined);
      log.log(
        'info',
        'core',
        `terminal core started (lane ${settings.value.laneId}, gateway ${client.baseUrl})`,
      );
      const address = new URL(client.baseUrl);
      const refused = gatewayAddressProblem(address.protocol, address.hostname);
      if (refused) log.log('error', 'gateway', `${client.baseUrl} refused: ${refused}`);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      running = false;
      if (probeTimer !== undefined) timers.clearTimeout(probeTimer);
      for (const c of [...connections]) c.close();
      await reversalWorker.stop();
      await devices.stop().catch(() => undefined);
      client.close();
      await journal.close();
      releaseLock();
    },
  };
}
