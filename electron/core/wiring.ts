import { join } from 'node:path';
import { gatewayAddressProblem } from '../../common/gateway-address';
import { createBatchClose } from '../batch/batch-close';
import { createConnectionHub, type BridgeConnection } from '../bridge/connection';
import { createDispatch } from '../bridge/dispatcher';
import { createHandlers } from '../bridge/handlers';
import { openCatalog, type Catalog } from '../catalog/catalog';
import type { EventName, Events } from '../../common/bridge/contract';
import { createCustomerDisplay, type CustomerDisplay } from '../customer/customer-display';
import { createPoleDisplayFeed } from '../customer/pole-display-feed';
import { emailQueueMailer } from '../customer/receipt-mailer';
import { createDeviceHost } from '../devices/device-host';
import { languageOf } from '../../common/store-locale';
import { createEmailReceipts } from '../email/email-receipts';
import { loadEmailSettings } from '../email/email-settings';
import { GatewayClient } from '../gateway-client/client';
import { openJournal, type Journal } from '../journal/journal';
import { createReversalWorker, type ReversalWorker } from '../journal/reversal-worker';
import { pinKeys } from '../roles/pins';
import { createRoles } from '../roles/roles';
import { recoverAfterCrash } from '../journal/crash-recovery';
import { createItemizedSale } from '../sale/itemized-sale';
import { SaleEngine } from '../sale/sale-engine';
import { loadSettings } from '../settings';
import { createStoreAndForward, type StoreAndForward } from '../store-forward/saf';
import { createReturns } from '../returns/returns';
import { createTills } from '../till/tills';
import { systemClock, systemTimers } from '../util/clock';
import { formatReceiptTime } from '../../common/store-time';
import { laneTimeZone, learnMerchantTimeZone } from '../store-time-zone';
import { createSealer, loadOrCreateKey } from '../util/key-file';
import { createLogger } from '../util/log';
import { ownerOnlyDir } from '../util/owner-only';
import { createAudit } from './audit';
import { TERMINAL_VERSION, type TerminalCore, type TerminalCoreConfig } from './config';
import { acquireLock } from './data-folder-lock';
import { createGatewayReachability } from './gateway-reachability';
import { createStatusViews, reversalQueueView } from './status-and-diagnostics';

/**
 * The terminal core's composition root: journal (in its worker thread), gateway client, reversal worker,
 * store-and-forward, devices, sale engine, roles and audit, behind the bridge. Runs in plain Node; the
 * Electron main process and the browser-mode server only carry its bridge. Nothing happens until `start()`.
 */
export async function createTerminalCore(config: TerminalCoreConfig): Promise<TerminalCore> {
  const clock = config.clock ?? systemClock;
  const timers = config.timers ?? systemTimers;
  const log = createLogger({ now: () => clock.now(), ...(config.logSink ? { sink: config.logSink } : {}) });
  ownerOnlyDir(config.dataDir);
  const releaseLock = acquireLock(config.dataDir);

  let journal: Journal;
  let catalog: Catalog;
  try {
    journal = await openJournal(join(config.dataDir, 'journal.sqlite'));
  } catch (error) {
    releaseLock();
    throw error;
  }
  try {
    // Its own file and thread: a manager's import never holds the journal's writer (docs/catalog.md).
    catalog = await openCatalog(join(config.dataDir, 'catalog.sqlite'));
  } catch (error) {
    await journal.close();
    releaseLock();
    throw error;
  }
  const terminalKey = loadOrCreateKey(join(config.dataDir, 'terminal.key'));
  const sealer = createSealer(terminalKey);
  const settings = await loadSettings(journal, sealer, {
    laneId: config.laneId ?? 'L1',
    gateway: { ...config.gateway, timeouts: { ...config.gateway.timeouts, ...config.timeouts } },
    devices: null,
    now: () => clock.now(),
  });

  const hub = createConnectionHub();
  // The customer's side follows what the core tells every window (built once the engine exists).
  const built: { customer?: CustomerDisplay } = {};
  const emit = <E extends EventName>(event: E, payload: Events[E]): void => {
    hub.emit(event, payload);
    built.customer?.observe(event, payload);
  };

  const client = new GatewayClient({
    baseUrl: settings.value.gateway.baseUrl,
    credentials: settings.credentials(),
    timeouts: settings.value.gateway.timeouts,
    appInfo: `tillpoint-terminal/${TERMINAL_VERSION}`,
  });
  const gateway = () => client;

  let running = false;
  // Built before the worker and the forwarder exist: its `reached` is handed to both.
  const later: { reversals?: ReversalWorker; saf?: StoreAndForward } = {};
  const reachability = createGatewayReachability({
    client,
    clock,
    timers,
    log,
    probeMs: config.probeMs ?? 10_000,
    running: () => running,
    emit,
    onBack: () => {
      later.reversals?.kick();
      void later.saf?.forward().catch(() => undefined);
      void learnMerchantTimeZone(client, settings, log).catch(() => undefined);
    },
  });
  const gatewayReached = reachability.reached;

  const reversalWorker = createReversalWorker({
    journal,
    gateway,
    clock,
    timers,
    log,
    ...(config.reversalBackoff ? { backoff: config.reversalBackoff } : {}),
    ...(config.random ? { random: config.random } : {}),
    onChange: () => {
      void reversalQueueView(journal)
        .then((v) => emit('reversals.updated', v))
        .catch(() => undefined);
    },
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
    // A test receipt is a receipt: the store's time, written as every receipt writes it.
    manager: {
      ...config.deviceManager,
      formatTime: (at) => formatReceiptTime(at, laneTimeZone(settings.value)),
    },
  });
  devices.onStatus((s) => emit('devices.status', s));
  devices.simulated?.controls.onChange(() => emit('simulator.changed', devices.simulatorState()));
  devices.onScan((scan) => emit('scanner.scanned', scan));

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
    merchantName: () => settings.value.store.storeName.trim() || config.merchantName || 'TILLPOINT STORE',
    customerChoosesReceipt: () => built.customer?.customerChoosesReceipt() === true,
  });

  const emailSettings = await loadEmailSettings(journal, sealer, () => clock.now());
  const emailReceipts = createEmailReceipts({
    journal,
    sealer,
    terminalKey,
    settings: emailSettings,
    receipts: engine,
    storeName: () => settings.value.store.storeName.trim() || config.merchantName || 'TILLPOINT STORE',
    language: () => languageOf(settings.value.locale.locale),
    laneId: () => settings.value.laneId,
    clock,
    timers,
    log,
    ...(config.random ? { random: config.random } : {}),
    ...config.email,
    onChange: () => {
      void emailReceipts
        .view()
        .then((v) => emit('email.updated', v))
        .catch(() => undefined);
    },
  });

  const customerDisplay = createCustomerDisplay({
    engine,
    tips: () => ({
      prompt: settings.value.sale.tipPrompt,
      presetsPercent: settings.value.sale.tipPresetsPercent,
    }),
    displays: () => hub.count('customer-display'),
    storeName: () => settings.value.store.storeName.trim() || config.merchantName || 'TILLPOINT STORE',
    locale: () => settings.value.locale,
    emit: (view) => hub.emit('customer.updated', view),
    timers,
    mailer: emailQueueMailer(emailReceipts, emailSettings),
    ...config.customerDisplay,
  });
  built.customer = customerDisplay;
  let displaysSeen = 0;
  hub.onConnections(() => {
    const now = hub.count('customer-display');
    if (now === displaysSeen) return;
    displaysSeen = now;
    customerDisplay.displaysChanged();
  });
  // The pole display shows the customer's view in 2 x 20 text; a display unplugged never holds up a sale.
  const pole = createPoleDisplayFeed({
    display: () => devices.devices?.poleDisplay,
    connected: () => devices.connected('poleDisplay'),
  });
  customerDisplay.onChange((view) => pole.show(view));
  devices.onStatus((s) => {
    if (s.role === 'poleDisplay' && s.state === 'connected') pole.refresh(customerDisplay.view());
  });
  let customerDisplayUrl: (() => string) | undefined;

  const itemized = createItemizedSale({ engine, catalog, settings: () => settings.value, clock });

  devices.onStatus((s) => {
    if (s.role === 'signaturePad' && s.state === 'connected') engine.resumeSignatureCapture();
  });

  const roles = createRoles({
    journal,
    clock,
    keys: pinKeys(terminalKey),
    timeClock: () => settings.value.people.timeClock,
  });
  const audit = createAudit(journal, clock, log, roles.nameOf);

  const tills = createTills({
    journal,
    settings,
    clock,
    devices,
    saleInProgress: () => engine.busy || engine.openTicketId() !== undefined,
    emit,
    merchantName: () => settings.value.store.storeName.trim() || config.merchantName || 'TILLPOINT STORE',
  });

  const views = createStatusViews({
    sandbox: config.sandbox === true,
    settings,
    journal,
    devices,
    engine,
    saf: storeAndForward,
    gatewayStatus: () => reachability.view(),
    clock,
    log,
  });
  const batchClose = createBatchClose({
    client,
    journal,
    clock,
    kickReversals: () => reversalWorker.kick(),
    failureOf: (f) => engine.failureOf(f),
  });

  const returns = createReturns({
    journal,
    engine,
    catalog,
    settings,
    clock,
    devices,
    tills,
    settledBefore: () => batchClose.lastCloseSeen(),
    emit,
    merchantName: () => settings.value.store.storeName.trim() || config.merchantName || 'TILLPOINT STORE',
  });

  const handlers = createHandlers({
    config,
    settings,
    journal,
    client,
    engine,
    itemized,
    catalog,
    roles,
    devices,
    reversals: reversalWorker,
    saf: storeAndForward,
    clock,
    log,
    emit,
    audit: audit.record,
    auditList: audit.list,
    testGateway: reachability.test,
    batchClose,
    tills,
    returns,
    reversalView: views.reversalView,
    status: views.status,
    diagnostics: views.diagnostics,
    email: { settings: emailSettings, receipts: emailReceipts },
    customer: customerDisplay,
    customerDisplayUrl: () => customerDisplayUrl?.(),
  });
  const dispatch = createDispatch({ handlers, running: () => running, log, current: roles.current });

  /**
   * The sandbox's demo store, once per data folder: the demo catalog (electron/catalog/demo-catalog.ts)
   * and a store name, address and return policy on the receipts, until a manager sets them.
   */
  const seedSandboxStore = async (): Promise<void> => {
    if (await catalog.seedDemo(clock.now())) log.log('info', 'catalog', 'sandbox demo catalog seeded');
    if ((await journal.getSetting('store')) === undefined)
      await settings.set('store', {
        storeName: 'Tillpoint Demo Market',
        addressLines: ['100 Main Street', 'Springfield, IL 62701'],
        phone: '(217) 555-0100',
        returnPolicy:
          'Returns and exchanges within 30 days with this receipt. Thank you for shopping with us!',
      });
  };

  let stopped = false;
  return {
    dataDir: config.dataDir,
    journal,
    catalog,
    devices,
    log,
    connect: (kind = 'terminal'): BridgeConnection => hub.connect(dispatch, kind),
    serveCustomerDisplay(issue) {
      customerDisplayUrl = issue;
    },
    reversalsDrained: (ms) => reversalWorker.drained(ms),
    async start() {
      if (running) return;
      running = true;
      // Entries left `sending` by a crash: what the gateway can say about them is asked first (kept if it
      // approved them); the rest are unknown and join the reversal queue before anything else.
      await recoverAfterCrash({ journal, gateway, clock, log });
      await roles.init();
      if (config.sandbox === true) await seedSandboxStore();
      await engine.restore();
      await devices.start();
      pole.refresh(customerDisplay.view());
      reversalWorker.start();
      await emailReceipts.start();
      // Learn at once whether the gateway answers (the status starts optimistic), then forward what waits.
      void reachability
        .test()
        .then(() => storeAndForward.forward())
        .catch(() => undefined);
      void learnMerchantTimeZone(client, settings, log).catch(() => undefined);
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
      reachability.stop();
      customerDisplay.stop();
      hub.closeAll();
      await reversalWorker.stop();
      await emailReceipts.stop();
      await devices.stop().catch(() => undefined);
      client.close();
      await catalog.close();
      await journal.close();
      releaseLock();
    },
  };
}
