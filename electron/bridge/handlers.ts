import type {
  AuditEntryView,
  CommandName,
  CommandPayload,
  CommandValue,
  DeviceRoleName,
  DiagnosticsBundle,
  Events,
  GatewaySettingsView,
  GatewayTestResult,
  ManagerApproval,
  ReconciliationView,
  ReversalQueueView,
  Role,
  SafPolicy,
  Session,
  SettlementView,
  SimulatorStateView,
  TerminalStatusView,
} from './contract';
import { BridgeFailure } from './failure';
import { gatewayAddressProblem } from '../../common/gateway-address';
import { isExactRate, withinPercent } from '../../common/percent';
import type { DeviceHost } from '../devices/device-host';
import type { GatewayClient } from '../gateway-client/client';
import type { Journal } from '../journal/journal-protocol';
import type { ReversalWorker } from '../journal/reversal-worker';
import { batchTotals } from '../reconciliation';
import {
  getAutoClose,
  fraudGet,
  fraudSet,
  linkCreate,
  linkDisable,
  linksList,
  removeAutoClose,
  reportView,
  setAutoClose,
} from '../merchant';
import type { Permission, Roles } from '../roles/roles';
import { toTransactionView, type SaleEngine } from '../sale/sale-engine';
import type { Settings } from '../settings';
import type { StoreAndForward } from '../store-forward/saf';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';
import { fromWire, isCents } from '../util/money';
import type { TerminalCoreConfig } from '../core/config';
import type { CallContext } from './connection';
import { SCRIPTED_SIGNATURE } from '../../native/simulators/signature-pad-simulator';

/** Who may call a command: anyone, anyone signed in, or a role holding the permission. */
export type Access = 'public' | 'signed-in' | Permission;

/**
 * The access rule of every command, checked before the handler runs. Actions that need a manager while a
 * cashier is signed in (refund, void, batch close, store-and-forward, abandoning an approved ticket) are
 * `sell` here and ask for the manager's PIN inside the handler.
 */
export const commandAccess: Record<CommandName, Access> = {
  'session.signIn': 'public',
  'session.signOut': 'public',
  'session.current': 'public',
  'session.changePin': 'signed-in',
  'terminal.status': 'public',
  'lane.get': 'signed-in',
  'lane.set': 'tech',
  'sale.open': 'sell',
  'sale.current': 'sell',
  'sale.get': 'sell',
  'sale.setTip': 'sell',
  'sale.pay': 'sell',
  'sale.cancel': 'sell',
  'sale.abandon': 'sell',
  'sale.signature': 'sell',
  'gift.balance': 'sell',
  'gift.reload': 'sell',
  'ebt.balance': 'sell',
  'preauth.complete': 'sell',
  'receipt.get': 'sell',
  'receipt.print': 'sell',
  'receipt.reprintLast': 'sell',
  'transactions.list': 'sell',
  'transactions.refund': 'sell',
  'transactions.void': 'sell',
  'batch.totals': 'sell',
  'batch.reconcile': 'manage',
  'batch.resolveOrphan': 'sell',
  'batch.settle': 'sell',
  'batch.lastSettlements': 'manage',
  'batch.autoClose.get': 'manage',
  'batch.autoClose.set': 'sell',
  'batch.autoClose.remove': 'sell',
  'reports.transactions': 'manage',
  'business.get': 'signed-in',
  'business.update': 'manage',
  'fraud.get': 'manage',
  'fraud.set': 'manage',
  'paymentLinks.list': 'manage',
  'paymentLinks.create': 'manage',
  'paymentLinks.disable': 'manage',
  'saf.get': 'signed-in',
  'saf.setPolicy': 'sell',
  'saf.forwardNow': 'signed-in',
  'reversals.get': 'signed-in',
  'reversals.retryNow': 'signed-in',
  'gateway.get': 'tech',
  'gateway.update': 'tech',
  'gateway.test': 'signed-in',
  'devices.list': 'signed-in',
  'devices.discover': 'tech',
  'devices.config.get': 'tech',
  'devices.config.set': 'tech',
  'devices.reconnect': 'tech',
  'devices.test': 'tech',
  'devices.recorder.get': 'tech',
  'devices.recorder.set': 'tech',
  'audit.list': 'manage',
  'diagnostics.bundle': 'signed-in',
  'simulator.state': 'public',
  'simulator.swipe': 'public',
  'simulator.insert': 'public',
  'simulator.tap': 'public',
  'simulator.removeCard': 'public',
  'simulator.typePin': 'public',
  'simulator.cancelOnPad': 'public',
  'simulator.sign': 'public',
  'simulator.setPaper': 'public',
  'simulator.setCoverOpen': 'public',
  'simulator.unplug': 'public',
  'simulator.replug': 'public',
};

export type CoreServices = {
  config: TerminalCoreConfig;
  settings: Settings;
  journal: Journal;
  client: GatewayClient;
  engine: SaleEngine;
  roles: Roles;
  devices: DeviceHost;
  reversals: ReversalWorker;
  saf: StoreAndForward;
  clock: Clock;
  log: Logger;
  emit: <E extends keyof Events>(event: E, payload: Events[E]) => void;
  audit(who: Role | 'system', action: string, detail: string, approvedBy?: Role): Promise<void>;
  auditList(limit: number): Promise<AuditEntryView[]>;
  testGateway(): Promise<GatewayTestResult>;
  reconciliation(): Promise<ReconciliationView>;
  reversalView(): Promise<ReversalQueueView>;
  status(session: Session | null): Promise<TerminalStatusView>;
  diagnostics(): Promise<DiagnosticsBundle>;
  lastSettledAt(): Promise<number>;
};

export type Handlers = {
  [K in CommandName]: (payload: CommandPayload<K>, ctx: CallContext) => Promise<CommandValue<K>>;
};

const ROLES: readonly DeviceRoleName[] = [
  'cardReader',
  'pinPad',
  'contactless',
  'signaturePad',
  'receiptPrinter',
];

function str(value: unknown, name: string, max = 256): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max)
    throw new BridgeFailure('invalid', `${name} is required (at most ${max} characters).`);
  return value;
}

function role(value: unknown): DeviceRoleName {
  if (typeof value !== 'string' || !(ROLES as readonly string[]).includes(value))
    throw new BridgeFailure('invalid', 'Unknown device role.');
  return value as DeviceRoleName;
}

function approvalOf(value: unknown): ManagerApproval | undefined {
  if (value === undefined) return undefined;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as { managerPin?: unknown }).managerPin !== 'string'
  )
    throw new BridgeFailure('invalid', 'The approval is { managerPin }.');
  return value as ManagerApproval;
}

function limit(value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new BridgeFailure('invalid', 'The limit is a positive integer.');
  return Math.min(value, max);
}

function startOfToday(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** Every command's implementation. Payload fields are checked here: the carriers deliver untyped JSON. */
export function createHandlers(s: CoreServices): Handlers {
  const { engine, settings, journal, client, devices, roles } = s;
  const who = (ctx: CallContext): Role => ctx.session()?.role ?? 'cashier';
  /**
   * Manager rights for `action`. A wrong or locked-out manager PIN is audited (PCI DSS 10.2.1.4: invalid
   * access attempts) with the action it was typed for, never the PIN; a missing approval is only the
   * prompt for it.
   */
  const manager = async (ctx: CallContext, approval: unknown, action: string): Promise<Role> => {
    const given = approvalOf(approval);
    try {
      return await roles.requireManager(ctx.session(), given);
    } catch (error) {
      if (given && error instanceof BridgeFailure)
        await s.audit(who(ctx), 'approval-failed', `${action}: ${error.message}`);
      throw error;
    }
  };
  const approvedBy = (ctx: CallContext, granted: Role): Role | undefined =>
    ctx.session()?.role === granted ? undefined : granted;

  const sim = () => {
    if (!s.config.sandbox || !devices.simulated)
      throw new BridgeFailure(
        'unavailable',
        'The device simulator exists only in the sandbox with simulated devices.',
      );
    return devices.simulated.controls;
  };
  const simState = async (work: () => unknown): Promise<SimulatorStateView> => {
    try {
      await work();
    } catch (error) {
      if (error instanceof BridgeFailure) throw error;
      throw new BridgeFailure('device', error instanceof Error ? error.message : String(error));
    }
    return devices.simulatorState();
  };

  const gatewayView = (): GatewaySettingsView => {
    const g = settings.value.gateway;
    return {
      baseUrl: g.baseUrl,
      mid: g.mid,
      cid: g.cid,
      userName: g.userName,
      appKey: g.appKey,
      appType: g.appType,
      passwordSet: settings.gatewayPassword().length > 0,
      timeouts: { ...g.timeouts },
      embeddedSandbox: g.mode === 'embedded',
    };
  };

  const safPolicyOf = (p: SafPolicy): SafPolicy => {
    if (typeof p.enabled !== 'boolean') throw new BridgeFailure('invalid', 'enabled is true or false.');
    for (const [k, v] of [
      ['perTransactionLimitCents', p.perTransactionLimitCents],
      ['totalLimitCents', p.totalLimitCents],
    ] as const) {
      if (!isCents(v) || v < 0) throw new BridgeFailure('invalid', `${k} is a non-negative number of cents.`);
    }
    if (typeof p.maxAgeHours !== 'number' || !(p.maxAgeHours > 0) || p.maxAgeHours > 24 * 7)
      throw new BridgeFailure('invalid', 'maxAgeHours is between 0 and 168.');
    if (p.perTransactionLimitCents > p.totalLimitCents)
      throw new BridgeFailure('invalid', 'The per-sale limit cannot exceed the total limit.');
    return {
      enabled: p.enabled,
      perTransactionLimitCents: p.perTransactionLimitCents,
      totalLimitCents: p.totalLimitCents,
      maxAgeHours: p.maxAgeHours,
    };
  };

  const handlers: Handlers = {
    // --- session & terminal
    async 'session.signIn'(p, ctx) {
      let session: Session;
      try {
        session = await roles.signIn(p.pin);
      } catch (error) {
        // PCI DSS 10.2.1.4: every invalid attempt is audited (the reason, never the PIN typed).
        if (error instanceof BridgeFailure)
          await s.audit(ctx.session()?.role ?? 'system', 'sign-in-failed', error.message);
        throw error;
      }
      ctx.setSession(session);
      await s.audit(session.role, 'sign-in', `${session.role} signed in`);
      return session;
    },
    async 'session.signOut'(_p, ctx) {
      const was = ctx.session();
      ctx.setSession(null);
      if (was) await s.audit(was.role, 'sign-out', `${was.role} signed out`);
      return null;
    },
    'session.current': (_p, ctx) => Promise.resolve(ctx.session()),
    async 'session.changePin'(p, ctx) {
      const target = p.role;
      if (target !== 'cashier' && target !== 'manager' && target !== 'tech')
        throw new BridgeFailure('invalid', 'Unknown role.');
      if (p.currentPin !== undefined && typeof p.currentPin !== 'string')
        throw new BridgeFailure('invalid', 'The current PIN is digits.');
      const session = ctx.session();
      if (!session) throw new BridgeFailure('unauthorized', 'Sign in first.');
      try {
        const done = await roles.changePin({
          session,
          role: target,
          newPin: p.newPin,
          currentPin: p.currentPin,
          approval: approvalOf(p.approval),
        });
        await s.audit(session.role, 'pin-changed', `PIN of ${target} changed`, done.approvedBy);
      } catch (error) {
        if (error instanceof BridgeFailure && error.code !== 'invalid')
          await s.audit(session.role, 'pin-change-failed', `PIN of ${target}: ${error.message}`);
        throw error;
      }
      return null;
    },
    async 'terminal.status'(_p, ctx) {
      return s.status(ctx.session());
    },
    'lane.get': () => Promise.resolve({ laneId: settings.value.laneId }),
    async 'lane.set'(p, ctx) {
      const laneId = str(p.laneId, 'laneId', 16);
      if (!/^[A-Za-z0-9]{1,16}$/.test(laneId))
        throw new BridgeFailure('invalid', 'A lane id is 1 to 16 letters or digits.');
      const before = settings.value.laneId;
      await settings.set('laneId', laneId);
      await s.audit(who(ctx), 'lane-changed', `lane ${before} -> ${laneId}`);
      return { laneId };
    },

    // --- sale
    'sale.open': (p) => engine.open(p),
    'sale.current': () => Promise.resolve(engine.current()),
    'sale.get': (p) => engine.get(str(p.ticketId, 'ticketId', 64)),
    'sale.setTip': (p) => engine.setTip(str(p.ticketId, 'ticketId', 64), p.tipCents),
    'sale.pay': (p) => engine.pay(p),
    'sale.cancel': (p) => engine.cancel(str(p.ticketId, 'ticketId', 64)),
    async 'sale.abandon'(p, ctx) {
      let approver: Role | undefined;
      const t = await engine.abandon(str(p.ticketId, 'ticketId', 64), async () => {
        approver = await manager(ctx, p.approval, 'sale.abandon');
        return approver;
      });
      if (approver)
        await s.audit(
          who(ctx),
          'ticket-abandoned',
          `ticket ${t.ticketId}: approved tenders reversed`,
          approvedBy(ctx, approver),
        );
      return t;
    },
    'sale.signature': (p) =>
      engine.signature(str(p.ticketId, 'ticketId', 64), str(p.tenderId, 'tenderId', 64), p.signature),

    'gift.balance': (p) => engine.giftBalance(p.entry, p.keyed),
    async 'gift.reload'(p, ctx) {
      // Value on a gift card is money: paid by a reload ticket, or a manager's decision (approved first,
      // before the card is read or anything is sent).
      const ticketId = p.ticketId === undefined ? undefined : str(p.ticketId, 'ticketId', 64);
      const approver = ticketId === undefined ? await manager(ctx, p.approval, 'gift.reload') : undefined;
      const basis = ticketId === undefined ? 'no payment taken' : `paid by ticket ${ticketId}`;
      try {
        const t = await engine.giftReload(p.amountCents, p.entry, p.keyed, ticketId);
        await s.audit(
          who(ctx),
          'gift-reload',
          `gift reload ${t.userTransactionNumber} of ${t.amountCents} cents on card ending ${t.last4 ?? '?'}, ${basis}`,
          approver && approvedBy(ctx, approver),
        );
        return t;
      } catch (error) {
        if (error instanceof BridgeFailure && error.code !== 'busy')
          await s.audit(
            who(ctx),
            'gift-reload-failed',
            `gift reload of ${String(p.amountCents)} cents, ${basis}: ${error.message}`,
            approver && approvedBy(ctx, approver),
          );
        throw error;
      }
    },
    'ebt.balance': (p) => engine.ebtBalance(p.program),
    async 'preauth.complete'(p, ctx) {
      const srn = str(p.serviceReferenceNumber, 'serviceReferenceNumber', 64);
      const tip = p.tipCents ?? 0;
      if (!isCents(tip) || tip < 0)
        throw new BridgeFailure('invalid', 'The tip must be zero or a positive number of cents.');
      // A tip the cardholder never saw at the hold: above the lane's share of it (the gateway's bound,
      // mirrored), or on a hold this lane did not make, a manager approves before anything is sent.
      const held = await journal.bySrn(srn);
      const hold = held?.operation === 'preauth' ? held.approvedCents : undefined;
      const share = settings.value.sale.preauthTipMaxPercent;
      const needsManager = tip > 0 && (hold === undefined || !withinPercent(tip, hold, share));
      const approver = needsManager ? await manager(ctx, p.approval, 'preauth.complete') : undefined;
      // Named by the hold's UserTransactionNumber: a gateway id is all digits, which the audit's card-data
      // mask would hide.
      const detail = `completion of hold ${held?.utn ?? 'not on this lane'}: ${String(p.amountCents)} cents, tip ${tip} cents (hold ${hold ?? 'unknown'} cents)`;
      try {
        const t = await engine.preauthComplete({ ...p, serviceReferenceNumber: srn, tipCents: tip });
        await s.audit(
          who(ctx),
          'preauth-complete',
          `${t.userTransactionNumber} ${detail}`,
          approver && approvedBy(ctx, approver),
        );
        return t;
      } catch (error) {
        // Refusals are audited too (PCI DSS 10.2.1.4), the gateway's tip bound among them: a manager may
        // approve a tip above the lane's share, and the gateway still applies its own ceiling to it.
        if (error instanceof BridgeFailure && error.code !== 'busy')
          await s.audit(
            who(ctx),
            'preauth-complete-failed',
            `${detail}: ${error.message}`,
            approver && approvedBy(ctx, approver),
          );
        throw error;
      }
    },

    // --- receipts
    'receipt.get': (p) =>
      engine.receipt(str(p.ticketId, 'ticketId', 64), p.copy === 'merchant' ? 'merchant' : 'customer'),
    'receipt.print': (p) =>
      engine.printById(str(p.ticketId, 'ticketId', 64), p.copy === 'merchant' ? 'merchant' : 'customer'),
    'receipt.reprintLast': () => engine.reprintLast(),

    // --- transactions
    async 'transactions.list'(p) {
      if (p.last4 !== undefined && (typeof p.last4 !== 'string' || !/^\d{4}$/.test(p.last4)))
        throw new BridgeFailure('invalid', 'Search by the last four digits.');
      if (p.amountCents !== undefined && !isCents(p.amountCents))
        throw new BridgeFailure('invalid', 'The amount is in cents.');
      const rows = await journal.list({
        since: typeof p.since === 'number' ? p.since : startOfToday(s.clock.now()),
        ...(p.last4 !== undefined ? { last4: p.last4 } : {}),
        ...(p.amountCents !== undefined ? { amountCents: p.amountCents } : {}),
        limit: limit(p.limit, 500, 5000),
      });
      return rows.map(toTransactionView);
    },
    async 'transactions.refund'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'transactions.refund');
      const srn = str(p.serviceReferenceNumber, 'serviceReferenceNumber', 64);
      const r = await engine.refund(srn, p.amountCents);
      await s.audit(
        who(ctx),
        'refund',
        `refund ${r.transaction.userTransactionNumber} of ${srn}: ${r.transaction.amountCents} cents`,
        approvedBy(ctx, approver),
      );
      return r;
    },
    async 'transactions.void'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'transactions.void');
      const srn = str(p.serviceReferenceNumber, 'serviceReferenceNumber', 64);
      const r = await engine.void(srn);
      await s.audit(
        who(ctx),
        'void',
        `void ${r.transaction.userTransactionNumber} of ${srn}`,
        approvedBy(ctx, approver),
      );
      return r;
    },

    // --- batch
    async 'batch.totals'() {
      const totals = batchTotals(await journal.list({ since: await s.lastSettledAt(), limit: 10_000 }));
      const u = await client.getUnsettledTransactions();
      if (u.ok) {
        const list = u.response.UnsettledTransactions ?? [];
        totals.gateway = {
          count: list.length,
          amountCents: list.reduce((sum, x) => sum + fromWire(x.Amount), 0),
        };
      }
      return totals;
    },
    'batch.reconcile': () => s.reconciliation(),
    async 'batch.resolveOrphan'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'batch.resolveOrphan');
      const utn = str(p.userTransactionNumber, 'userTransactionNumber', 64);
      const view = await s.reconciliation();
      const row = view.rows.find((r) => r.userTransactionNumber === utn);
      if (!row || (row.verdict !== 'orphan' && row.verdict !== 'mismatch'))
        throw new BridgeFailure('not-found', 'That transaction is not an orphan.');
      const entry = await journal.get(utn);
      const now = s.clock.now();
      if (p.action === 'reverse') {
        if (!entry)
          throw new BridgeFailure(
            'conflict',
            "This number is not in this lane's journal: reverse it from the lane that made it.",
          );
        await journal.queueReversal(utn, 'Orphan: manager chose to reverse', now);
        s.reversals.kick();
      } else if (p.action === 'keep') {
        if (entry && row.gateway) {
          await journal.update(
            utn,
            {
              state: 'approved',
              approvedCents: row.gateway.amountCents,
              srn: row.gateway.serviceReferenceNumber,
              message: 'Orphan kept: approved at the gateway',
            },
            now,
          );
        }
      } else throw new BridgeFailure('invalid', 'The action is keep or reverse.');
      await s.audit(who(ctx), 'orphan-resolved', `${utn}: ${p.action}`, approvedBy(ctx, approver));
      return s.reconciliation();
    },
    async 'batch.settle'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'batch.settle');
      const view = await s.reconciliation();
      if (!view.canClose)
        throw new BridgeFailure('conflict', `The batch cannot close yet: ${view.blockers.join(' ')}`);
      const r = await client.doSettlement();
      if (!r.ok) throw engine.failureOf(r.failure);
      await journal.setSetting('lastSettledAt', String(s.clock.now()), s.clock.now());
      const result: SettlementView = {
        amountSettledCents: fromWire(r.response.AmountSettled),
        batches: (r.response.Batches ?? []).map((b) => ({
          batchNumber: b.BatchNumber,
          count: b.TransactionCount,
          saleCents: fromWire(b.SaleAmount),
          returnCents: fromWire(b.ReturnAmount),
          netCents: fromWire(b.NetAmount),
        })),
        ...(r.response.CompletedOn ? { completedAt: r.response.CompletedOn } : {}),
      };
      await s.audit(
        who(ctx),
        'batch-close',
        `settled ${result.amountSettledCents} cents in ${result.batches.length} batch(es)`,
        approvedBy(ctx, approver),
      );
      return result;
    },
    async 'batch.lastSettlements'() {
      const r = await client.getLastSettlementByMerchant();
      if (!r.ok) throw engine.failureOf(r.failure);
      return (r.response.SettlementReports ?? []).map((x) => ({
        amountSettledCents: fromWire(x.AmountSettled),
        batches: x.Batches,
        completedOn: x.CompletedOn,
      }));
    },
    async 'batch.autoClose.get'() {
      const view = await getAutoClose(client).catch(() => settings.value.autoClose);
      return view;
    },
    async 'batch.autoClose.set'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'batch.autoClose.set');
      const view = await setAutoClose(client, str(p.time, 'time', 5));
      await settings.set('autoClose', view);
      await s.audit(
        who(ctx),
        'auto-close-set',
        `automatic batch close at ${view.time ?? ''}`,
        approvedBy(ctx, approver),
      );
      return view;
    },
    async 'batch.autoClose.remove'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'batch.autoClose.remove');
      const view = await removeAutoClose(client);
      await settings.set('autoClose', view);
      await s.audit(
        who(ctx),
        'auto-close-removed',
        'automatic batch close removed',
        approvedBy(ctx, approver),
      );
      return view;
    },

    // --- reports
    async 'reports.transactions'(p) {
      const r = await client.getReportByMerchant();
      if (!r.ok) throw engine.failureOf(r.failure);
      return reportView(r.response.Transactions ?? [], {
        ...(typeof p.from === 'string' ? { from: p.from } : {}),
        ...(typeof p.to === 'string' ? { to: p.to } : {}),
      });
    },

    // --- merchant passthroughs
    async 'business.get'() {
      const r = await client.businessSettings();
      const sale = settings.value.sale;
      const local = {
        taxRatePercent: sale.taxRatePercent,
        tipPrompt: sale.tipPrompt,
        tipPresetsPercent: sale.tipPresetsPercent,
        preauthTipMaxPercent: sale.preauthTipMaxPercent,
        chipFallbackAfterFailures: sale.chipFallbackAfterFailures,
      };
      if (!r.ok) {
        if (r.failure.kind === 'unreachable') throw engine.failureOf(r.failure);
        throw engine.failureOf(r.failure);
      }
      return {
        surchargeEnabled: r.response.SurchargeEnabled ?? false,
        surchargePercent: r.response.SurchargePercent ?? 0,
        cardDifferenceEnabled: r.response.CardDifferenceEnabled ?? false,
        cardDifferencePercent: r.response.CardDifferencePercent ?? 0,
        threeDSecureEnabled: r.response.ThreeDSecureEnabled ?? false,
        ...local,
      };
    },
    async 'business.update'(p, ctx) {
      const sale = { ...settings.value.sale };
      if (p.taxRatePercent !== undefined) {
        if (
          typeof p.taxRatePercent !== 'number' ||
          p.taxRatePercent < 0 ||
          p.taxRatePercent > 30 ||
          !isExactRate(p.taxRatePercent)
        )
          throw new BridgeFailure('invalid', 'The tax rate is 0 to 30 %, with at most four decimals.');
        sale.taxRatePercent = p.taxRatePercent;
      }
      if (p.tipPrompt !== undefined) sale.tipPrompt = p.tipPrompt === true;
      if (p.tipPresetsPercent !== undefined) {
        if (
          !Array.isArray(p.tipPresetsPercent) ||
          p.tipPresetsPercent.length > 6 ||
          p.tipPresetsPercent.some((x) => typeof x !== 'number' || x < 0 || x > 100)
        )
          throw new BridgeFailure('invalid', 'Tip presets are up to six percentages.');
        sale.tipPresetsPercent = [...p.tipPresetsPercent];
      }
      if (p.preauthTipMaxPercent !== undefined) {
        if (
          typeof p.preauthTipMaxPercent !== 'number' ||
          p.preauthTipMaxPercent < 0 ||
          p.preauthTipMaxPercent > 100 ||
          !isExactRate(p.preauthTipMaxPercent)
        )
          throw new BridgeFailure('invalid', 'The pre-authorization tip share is 0 to 100 %.');
        sale.preauthTipMaxPercent = p.preauthTipMaxPercent;
      }
      if (p.chipFallbackAfterFailures !== undefined) {
        // More than three failed inserts only holds the line: the networks count fallback attempts.
        if (
          typeof p.chipFallbackAfterFailures !== 'number' ||
          !Number.isInteger(p.chipFallbackAfterFailures) ||
          p.chipFallbackAfterFailures < 1 ||
          p.chipFallbackAfterFailures > 3
        )
          throw new BridgeFailure('invalid', 'Chip fallback is allowed after 1 to 3 failed chip reads.');
        sale.chipFallbackAfterFailures = p.chipFallbackAfterFailures;
      }
      await settings.set('sale', sale);
      await s.audit(
        who(ctx),
        'settings-changed',
        `sale settings: tax ${sale.taxRatePercent}%, tip prompt ${String(sale.tipPrompt)}, pre-auth tip up to ${sale.preauthTipMaxPercent}% without a manager, chip fallback after ${sale.chipFallbackAfterFailures} failed read(s)`,
      );
      return handlers['business.get']({}, ctx);
    },
    'fraud.get': () => fraudGet(client),
    async 'fraud.set'(p, ctx) {
      const v = await fraudSet(client, p.check, p.enabled === true);
      await s.audit(who(ctx), 'fraud-option', `${p.check} ${p.enabled ? 'enabled' : 'disabled'}`);
      return v;
    },
    'paymentLinks.list': () => linksList(client),
    async 'paymentLinks.create'(p, ctx) {
      const v = await linkCreate(client, p);
      await s.audit(who(ctx), 'payment-link-created', `link ${v.id}`);
      return v;
    },
    async 'paymentLinks.disable'(p, ctx) {
      const v = await linkDisable(client, p.id);
      await s.audit(who(ctx), 'payment-link-disabled', `link ${v.id}`);
      return v;
    },

    // --- store-and-forward
    'saf.get': () => s.saf.view(settings.value.saf),
    async 'saf.setPolicy'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'saf.setPolicy');
      const policy = safPolicyOf(p);
      await settings.set('saf', policy);
      await s.audit(
        who(ctx),
        'saf-policy',
        `store-and-forward ${policy.enabled ? 'on' : 'off'}; per sale ${policy.perTransactionLimitCents}, total ${policy.totalLimitCents} cents, ${policy.maxAgeHours} h`,
        approvedBy(ctx, approver),
      );
      const view = await s.saf.view(policy);
      s.emit('saf.updated', view);
      return view;
    },
    async 'saf.forwardNow'() {
      await s.saf.forward();
      return s.saf.view(settings.value.saf);
    },

    // --- reversals
    'reversals.get': () => s.reversalView(),
    async 'reversals.retryNow'() {
      await journal.retryReversalsNow(s.clock.now());
      s.reversals.kick();
      return s.reversalView();
    },

    // --- gateway connection
    'gateway.get': () => Promise.resolve(gatewayView()),
    async 'gateway.update'(p, ctx) {
      const g = { ...settings.value.gateway, timeouts: { ...settings.value.gateway.timeouts } };
      if (p.baseUrl !== undefined) {
        let url: URL;
        try {
          url = new URL(str(p.baseUrl, 'baseUrl', 2048));
        } catch {
          throw new BridgeFailure(
            'invalid',
            'The gateway address must be a URL such as https://gateway.example.com.',
          );
        }
        // PCI DSS 4.2.1: https, or plain http to this machine only (the rule the Gateway screen applies too).
        const problem = gatewayAddressProblem(url.protocol, url.hostname);
        if (problem) throw new BridgeFailure('invalid', problem);
        g.baseUrl = url.toString().replace(/\/$/, '');
        g.mode = 'remote';
      }
      if (p.mid !== undefined) g.mid = p.mid;
      if (p.cid !== undefined) g.cid = p.cid;
      if (p.appType !== undefined) g.appType = p.appType;
      for (const n of [g.mid, g.cid, g.appType])
        if (!Number.isInteger(n) || n < 0)
          throw new BridgeFailure('invalid', 'mid, cid and appType are whole numbers.');
      if (p.userName !== undefined) g.userName = str(p.userName, 'userName', 128);
      if (p.appKey !== undefined) g.appKey = str(p.appKey, 'appKey', 128);
      if (p.password !== undefined) {
        g.sealedPassword = settings.sealPassword(str(p.password, 'password', 256));
        g.mode = 'remote';
      }
      if (p.timeouts) {
        for (const [k, v] of Object.entries(p.timeouts)) {
          if (k !== 'saleMs' && k !== 'otherMs') continue;
          if (typeof v !== 'number' || !Number.isInteger(v) || v < 500 || v > 120_000)
            throw new BridgeFailure('invalid', 'Timeouts are 500 to 120000 ms.');
          g.timeouts[k] = v;
        }
      }
      await settings.set('gateway', g);
      client.reconfigure({ baseUrl: g.baseUrl, credentials: settings.credentials(), timeouts: g.timeouts });
      await s.audit(
        who(ctx),
        'gateway-settings',
        `gateway ${g.baseUrl} merchant ${g.mid}/${g.cid}${p.password !== undefined ? ' (password changed)' : ''}`,
      );
      return gatewayView();
    },
    'gateway.test': () => s.testGateway(),

    // --- devices
    'devices.list': () => Promise.resolve(devices.list()),
    'devices.discover': () => devices.discover(),
    'devices.config.get': () => Promise.resolve(devices.config()),
    async 'devices.config.set'(p, ctx) {
      const view = await devices.setConfig(p.config);
      await settings.set('devices', view);
      await s.audit(who(ctx), 'devices-configured', ROLES.map((r) => `${r}=${view[r].kind}`).join(' '));
      return view;
    },
    'devices.reconnect': (p) => devices.reconnect(role(p.role)),
    async 'devices.test'(p) {
      role(p.role);
      return devices.test(p);
    },
    'devices.recorder.get': (p) => Promise.resolve(devices.recorder(limit(p.limit, 200, 5000))),
    async 'devices.recorder.set'(p, ctx) {
      const v = await devices.setRecorder(p.enabled === true);
      await settings.set('recorder', { enabled: v.enabled });
      await s.audit(who(ctx), 'frame-recorder', v.enabled ? 'on' : 'off');
      return v;
    },

    // --- audit, diagnostics
    'audit.list': (p) => s.auditList(limit(p.limit, 200, 5000)),
    'diagnostics.bundle': () => s.diagnostics(),

    // --- simulator
    'simulator.state': () => Promise.resolve(devices.simulatorState()),
    'simulator.swipe': (p) => simState(() => sim().swipe(p.pan, p.badRead === true ? { badRead: true } : {})),
    'simulator.insert': (p) =>
      simState(() => {
        if (!sim().insert(p.pan))
          throw new BridgeFailure('conflict', 'The reader is not waiting for a card.');
      }),
    'simulator.tap': (p) =>
      simState(() => {
        if (!sim().tap(p.pan)) throw new BridgeFailure('conflict', 'The reader is not waiting for a card.');
      }),
    'simulator.removeCard': () =>
      simState(() => {
        if (!sim().removeCard()) throw new BridgeFailure('conflict', 'No card is in the chip slot.');
      }),
    'simulator.typePin': (p) =>
      simState(() => {
        if (!sim().typePin(str(p.pin, 'pin', 12)))
          throw new BridgeFailure('conflict', 'The PIN pad is not asking for a PIN.');
      }),
    'simulator.cancelOnPad': () => simState(() => sim().cancelOnPad()),
    'simulator.sign': () =>
      simState(async () => {
        await sim().sign(SCRIPTED_SIGNATURE);
        // The pad's bytes reach the driver a tick after they are written; answer once they have.
        await new Promise((r) => setTimeout(r, 25));
      }),
    'simulator.setPaper': (p) =>
      simState(() => {
        if (p.paper !== 'ok' && p.paper !== 'near-end' && p.paper !== 'out')
          throw new BridgeFailure('invalid', 'paper is ok, near-end or out.');
        sim().setPaper(p.paper);
      }),
    'simulator.setCoverOpen': (p) => simState(() => sim().setCoverOpen(p.open === true)),
    'simulator.unplug': (p) => simState(() => sim().unplug(role(p.role))),
    'simulator.replug': (p) => simState(() => sim().replug(role(p.role))),
  };
  return handlers;
}
