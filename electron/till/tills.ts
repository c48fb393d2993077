import { cashCountProblem, countTotalCents } from '../../common/cash-count';
import { startOfStoreDayAt } from '../../common/store-time';
import type {
  CashCount,
  DayCloseView,
  Events,
  TillMove,
  TillMovementView,
  TillPrintResult,
  TillRefundOutcome,
  TillReportScope,
  TillReportView,
  TillSettingsView,
  TillStatusView,
  TillView,
  ZSummaryView,
} from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import type { DeviceHost } from '../devices/device-host';
import type { Journal } from '../journal/journal-protocol';
import { toPrinterReceipt } from '../sale/receipt';
import { toTransactionView } from '../sale/transaction-view';
import type { Settings } from '../settings';
import { laneTimeZone } from '../store-time-zone';
import type { Clock } from '../util/clock';
import { tillReportLines } from './till-report-lines';

/**
 * The lane's tills (docs/terminal.md "Tills"). The rules live where their data is (journal/till-store.ts,
 * one transaction each) and the figures in common/money-figures.ts; here: what a person typed becomes
 * cents (a count by denomination, common/cash-count.ts), the drawer opens when cash moves, the screens
 * hear of every change, and reports are printed.
 *
 * Who acts is the caller's `employee` — the session's identity as the bridge's approvals name it
 * (handlers/approvals.ts `who`) — recorded on every till event, and `approvedBy` the manager who approved.
 */
export type Tills = {
  status(): Promise<TillStatusView>;
  open(float: CashCount, employee: string): Promise<TillView>;
  move(request: TillMove, employee: string): Promise<TillMovementView>;
  refund(
    utn: string,
    amountCents: number | undefined,
    employee: string,
    approvedBy: string | undefined,
  ): Promise<TillRefundOutcome>;
  handOver(employee: string): Promise<TillView>;
  count(tillId: number, count: CashCount, employee: string): Promise<TillView>;
  signOff(tillId: number, employee: string, note: string | undefined): Promise<TillView>;
  movements(tillId: number | undefined, limit: number): Promise<TillMovementView[]>;
  list(): Promise<TillView[]>;
  report(scope: TillReportScope): Promise<TillReportView>;
  print(scope: TillReportScope): Promise<TillPrintResult>;
  closeDay(employee: string): Promise<DayCloseView>;
  zList(before: number | undefined, limit: number): Promise<ZSummaryView[]>;
  settings(): TillSettingsView;
  setSettings(next: Partial<TillSettingsView>): Promise<TillSettingsView>;
};

export type TillDeps = {
  journal: Journal;
  settings: Settings;
  clock: Clock;
  devices: Pick<DeviceHost, 'devices' | 'connected'>;
  /** A tender in progress, or a ticket still open: a till does not leave the drawer under a sale. */
  saleInProgress: () => boolean;
  emit: <E extends keyof Events>(event: E, payload: Events[E]) => void;
  merchantName: () => string;
};

/** The store's refusals cross the journal's thread as errors named for the bridge's code. */
function refusal(error: unknown): unknown {
  if (error instanceof Error) {
    const m = /^TillRefusal-(conflict|not-found|invalid)$/.exec(error.name);
    const words = error as { messageId?: string; params?: Record<string, string | number> };
    if (m?.[1])
      return new BridgeFailure(m[1] as 'conflict' | 'not-found' | 'invalid', error.message, {
        ...(words.messageId !== undefined ? { messageId: words.messageId } : {}),
        ...(words.params ? { params: words.params } : {}),
      });
  }
  return error;
}

async function guarded<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw refusal(error);
  }
}

/** What a count says, in cents: a total as typed, or pieces per denomination by the one rule. */
export function countedCents(count: CashCount): { cents: number; detail: string | null } {
  if ('denominations' in count) {
    const problem = cashCountProblem(count.denominations);
    if (problem) throw new BridgeFailure('invalid', problem, { messageId: 'till.badCount' });
    const pieces = Object.fromEntries(Object.entries(count.denominations).filter(([, n]) => n > 0));
    return { cents: countTotalCents(pieces), detail: JSON.stringify(pieces) };
  }
  if (!Number.isSafeInteger(count.totalCents) || count.totalCents < 0)
    throw new BridgeFailure('invalid', 'The total is zero or more cents.', { messageId: 'till.badCount' });
  return { cents: count.totalCents, detail: null };
}

export function createTills(deps: TillDeps): Tills {
  const { journal, settings, clock } = deps;

  const status = async (): Promise<TillStatusView> => ({
    active: (await journal.tillActive()) ?? null,
    waiting: await journal.tillWaiting(),
    settings: settings.value.till,
  });

  const changed = async () => deps.emit('till.changed', await status());

  /** Cash changes hands: the drawer opens (the receipt printer kicks it), when one is connected. */
  const openDrawer = async () => {
    if (!deps.devices.connected('receiptPrinter')) return;
    await deps.devices.devices?.receiptPrinter.kickDrawer().catch(() => undefined);
  };

  const notUnderASale = (what: string) => {
    if (deps.saleInProgress())
      throw new BridgeFailure(
        'busy',
        `A sale is open on this lane: finish or abandon it before you ${what}.`,
        { messageId: 'till.saleOpen' },
      );
  };

  const day = () => {
    const timeZone = laneTimeZone(settings.value);
    return { laneId: settings.value.laneId, timeZone };
  };

  const report = async (scope: TillReportScope): Promise<TillReportView> => {
    // `now` is read as the request leaves for the journal's thread: every row stamped before it is already
    // queued ahead of it, so the report's period holds all of them.
    if ('tillId' in scope) return guarded(journal.tillReport(scope.tillId, { ...day(), now: clock.now() }));
    if ('zNumber' in scope) return guarded(journal.tillZReport(scope.zNumber));
    const now = clock.now();
    const d = day();
    return guarded(journal.tillDayReport({ ...d, now, firstDayFrom: startOfStoreDayAt(now, d.timeZone) }));
  };

  const printReport = async (r: TillReportView): Promise<TillPrintResult> => {
    const lines = tillReportLines(
      r,
      {
        merchantName: deps.merchantName(),
        mid: settings.value.gateway.mid,
        locale: settings.value.locale.locale,
      },
      clock.now(),
    );
    const printer = deps.devices.connected('receiptPrinter')
      ? deps.devices.devices?.receiptPrinter
      : undefined;
    if (!printer) return { printed: false, reason: 'No printer connected: the report is on screen.', lines };
    const result = await printer.print(toPrinterReceipt({ lines }, false));
    return result.ok
      ? { printed: true }
      : { printed: false, reason: `The printer failed: ${result.message}`, lines };
  };

  return {
    status,

    async open(float, employee) {
      const { cents, detail } = countedCents(float);
      const till = await guarded(
        journal.tillOpen({
          laneId: settings.value.laneId,
          employee,
          floatCents: cents,
          floatDetail: detail,
          now: clock.now(),
        }),
      );
      await openDrawer();
      await changed();
      return till;
    },

    async move(request, employee) {
      const reason = request.reason.trim();
      if (reason.length === 0)
        throw new BridgeFailure('invalid', 'Give a reason.', { messageId: 'till.giveReason' });
      if (request.kind !== 'no-sale' && request.amountCents === undefined)
        throw new BridgeFailure('invalid', 'Enter the amount.', { messageId: 'till.enterAmount' });
      const movement = await guarded(
        journal.tillMove({
          kind: request.kind,
          amountCents: request.amountCents ?? 0,
          reason,
          employee,
          approvedBy: null,
          now: clock.now(),
        }),
      );
      await openDrawer();
      await changed();
      return movement;
    },

    async refund(utn, amountCents, employee, approvedBy) {
      const done = await guarded(
        journal.tillRefund({ utn, amountCents, employee, approvedBy: approvedBy ?? null, now: clock.now() }),
      );
      await openDrawer();
      await changed();
      const row = await journal.get(utn);
      if (!row) throw new BridgeFailure('internal', 'The cash sale was not found after its refund.');
      return { movement: done.movement, transaction: toTransactionView(row) };
    },

    async handOver(employee) {
      notUnderASale('hand the till over');
      const till = await guarded(journal.tillHandOver(employee, clock.now()));
      // The tray comes out of the drawer for its count.
      await openDrawer();
      await changed();
      return till;
    },

    async count(tillId, count, employee) {
      const { cents, detail } = countedCents(count);
      const active = await journal.tillActive();
      if (active?.tillId === tillId) notUnderASale('count the till in the drawer');
      const till = await guarded(
        journal.tillCount({
          tillId,
          countedCents: cents,
          detail,
          employee,
          toleranceCents: settings.value.till.toleranceCents,
          now: clock.now(),
        }),
      );
      await changed();
      return till;
    },

    async signOff(tillId, employee, note) {
      const text = note?.trim();
      const till = await guarded(
        journal.tillSignOff(tillId, employee, text && text.length > 0 ? text : null, clock.now()),
      );
      await changed();
      return till;
    },

    async movements(tillId, limit) {
      const id = tillId ?? (await journal.tillActive())?.tillId;
      return id === undefined ? [] : journal.tillMovements(id, limit);
    },

    list: () => journal.tillUnreported(),

    report,

    async print(scope) {
      return printReport(await report(scope));
    },

    async closeDay(employee) {
      notUnderASale('close the day');
      const now = clock.now();
      const d = day();
      const z = await guarded(
        journal.tillCloseDay({ ...d, now, firstDayFrom: startOfStoreDayAt(now, d.timeZone), employee }),
      );
      await changed();
      return { report: z, print: await printReport(z) };
    },

    zList: (before, limit) => journal.tillZList(before, limit),

    settings: () => settings.value.till,

    async setSettings(next) {
      const value = { ...settings.value.till, ...next };
      await settings.set('till', value);
      await changed();
      return value;
    },
  };
}
