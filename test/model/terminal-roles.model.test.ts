import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeResult, JournalOperation, ManagerApproval, Role } from '../../electron/bridge/contract';
import type { BridgeConnection } from '../../electron/bridge/connection';
import { startLane, value, type Lane } from '../electron/helpers';
import { startGateway, type TestGateway } from '../support/gateway-harness';
import { assertModel, modelRun } from './terminal-model-run';

/**
 * Roles over the real bridge, as an adversary at the counter plays them: whatever the sequence of
 * sign-ins and sign-outs, PIN changes, approvals (right, wrong, a PIN that was the manager's before it
 * changed, the cashier's own, one replayed from an earlier call) and manager actions (refund, void,
 * batch close, a gift load with no payment, a completion tip above the bound, settings), a cashier never
 * completes a manager action without a valid approval, and nothing it was refused leaves the terminal.
 *
 * The system is the terminal core (bridge handlers, roles, sale engine, a real journal in a temp folder)
 * against the sandbox gateway over loopback, as test/electron runs it; the clock is the test's, so the
 * PIN throttle's locks and daily budgets can be waited out (Tick).
 */

const run = modelRun({ seed: 20_251_101, numRuns: 5, maxCommands: 30 });

type ApprovalKind = 'none' | 'valid' | 'wrong' | 'expired' | 'cashier' | 'replayed';

type Model = {
  session: Role | null;
  pins: Record<Role, string>;
  /** PINs the manager had before a change: an approval with one is expired. */
  former: string[];
  /** The manager PIN of the last approval the core accepted, to send again. */
  replay: string | undefined;
  sales: string[];
  holds: { srn: string; cents: number }[];
};

type Real = { lane: Lane; bridge: BridgeConnection; clock: { at: number } };

/** Across all runs: what the property saw, so a run that exercised nothing fails instead of passing. */
const seen = { viaSession: 0, viaApproval: 0, refused: 0, pinChanges: 0 };

const WRONG_PINS = ['0000', '1234', '4321', '2580', '13579'];

function approvalOf(kind: ApprovalKind, m: Model): ManagerApproval | undefined {
  switch (kind) {
    case 'none':
      return undefined;
    case 'valid':
      return { managerPin: m.pins.manager };
    case 'wrong':
      return { managerPin: WRONG_PINS.find((p) => !Object.values(m.pins).includes(p)) ?? '0000' };
    case 'expired':
      return m.former.length > 0 ? { managerPin: m.former[m.former.length - 1] ?? '' } : undefined;
    case 'cashier':
      return { managerPin: m.pins.cashier };
    case 'replayed':
      return m.replay !== undefined ? { managerPin: m.replay } : undefined;
  }
}

/** Valid authority for a manager action at the moment of the call. */
const authorized = (m: Model, approval: ManagerApproval | undefined): boolean =>
  m.session === 'manager' || (approval !== undefined && approval.managerPin === m.pins.manager);

async function rows(r: Real, operations: JournalOperation[]): Promise<number> {
  if (operations.length === 0) return 0;
  const all = await r.lane.core.journal.list({ limit: 10_000 });
  return all.filter((row) => operations.includes(row.operation)).length;
}

const approvalKind = fc.constantFrom<ApprovalKind>(
  'none',
  'valid',
  'wrong',
  'expired',
  'cashier',
  'replayed',
);

type ManagerActionName = 'refund' | 'void' | 'settle' | 'gift-load' | 'big-tip' | 'saf-policy' | 'auto-close';

class ManagerAction implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly action: ManagerActionName,
    readonly kind: ApprovalKind,
    readonly pick: number,
  ) {}
  check(m: Model): boolean {
    if (this.action === 'refund' || this.action === 'void') return m.sales.length > 0;
    if (this.action === 'big-tip') return m.holds.length > 0;
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    const approval = approvalOf(this.kind, m);
    const allowed = authorized(m, approval);
    const sale = m.sales[this.pick % Math.max(1, m.sales.length)] ?? '';
    const hold = m.holds[this.pick % Math.max(1, m.holds.length)];
    const a = approval ? { approval } : {};
    const ops: Record<ManagerActionName, JournalOperation[]> = {
      refund: ['refund'],
      void: ['void'],
      settle: [],
      'gift-load': ['gift-reload'],
      'big-tip': ['preauth-complete'],
      'saf-policy': [],
      'auto-close': [],
    };
    const before = await rows(r, ops[this.action]);
    let result: BridgeResult<unknown>;
    switch (this.action) {
      case 'refund':
        result = await r.bridge.send('transactions.refund', {
          serviceReferenceNumber: sale,
          amountCents: 10,
          ...a,
        });
        break;
      case 'void':
        result = await r.bridge.send('transactions.void', { serviceReferenceNumber: sale, ...a });
        break;
      case 'settle':
        result = await r.bridge.send('batch.settle', { ...a });
        break;
      case 'gift-load':
        result = await r.bridge.send('gift.reload', {
          amountCents: 100,
          entry: 'keyed',
          keyed: { cardNumber: '6035710000000034' },
          ...a,
        });
        break;
      case 'big-tip':
        result = await r.bridge.send('preauth.complete', {
          serviceReferenceNumber: hold?.srn ?? '',
          amountCents: hold?.cents ?? 1,
          tipCents: Math.ceil((hold?.cents ?? 2) / 2),
          ...a,
        });
        break;
      case 'saf-policy':
        result = await r.bridge.send('saf.setPolicy', {
          enabled: false,
          perTransactionLimitCents: 1000 + this.pick,
          totalLimitCents: 50_000,
          maxAgeHours: 24,
          ...a,
        });
        break;
      case 'auto-close':
        result = await r.bridge.send('batch.autoClose.set', { time: `1${this.pick % 10}:30`, ...a });
        break;
    }
    const after = await rows(r, ops[this.action]);
    const label = `${this.toString()} as ${m.session ?? 'nobody'} (manager PIN ${m.pins.manager})`;
    // The property: completed only with a valid approval (or as the manager), and a refused caller sent nothing.
    expect(!result.ok || allowed, `${label} completed: ${JSON.stringify(result)}`).toBe(true);
    expect(allowed || after === before, `${label} journaled a request it was refused`).toBe(true);
    if (result.ok) {
      if (m.session === 'manager') seen.viaSession += 1;
      else seen.viaApproval += 1;
      if (approval && m.session !== 'manager') m.replay = approval.managerPin;
    } else if (!allowed) seen.refused += 1;
  }
  toString(): string {
    return `${this.action}(${this.kind})`;
  }
}

class SignIn implements fc.AsyncCommand<Model, Real> {
  constructor(readonly who: Role | 'wrong') {}
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    const pin = this.who === 'wrong' ? (approvalOf('wrong', m)?.managerPin ?? '0000') : m.pins[this.who];
    const result = await r.bridge.send('session.signIn', { pin });
    const owner = (Object.keys(m.pins) as Role[]).find((role) => m.pins[role] === pin);
    // Only a role's own PIN signs in, as that role.
    expect(result.ok ? result.value.role : owner, `sign-in with ${pin}`).toBe(owner);
    expect(!result.ok || owner !== undefined).toBe(true);
    if (result.ok) m.session = result.value.role;
  }
  toString(): string {
    return `signIn(${this.who})`;
  }
}

class SignOut implements fc.AsyncCommand<Model, Real> {
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    value(await r.bridge.send('session.signOut', {}));
    m.session = null;
  }
  toString(): string {
    return 'signOut';
  }
}

type Proof = 'own-right' | 'own-wrong' | ApprovalKind;

class ChangePin implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly target: Role,
    readonly proof: Proof,
    readonly newPin: string,
  ) {}
  check(m: Model): boolean {
    return m.session !== null;
  }
  async run(m: Model, r: Real): Promise<void> {
    const session = m.session as Role;
    const currentPin =
      this.proof === 'own-right' ? m.pins[this.target] : this.proof === 'own-wrong' ? '0000' : undefined;
    const approval =
      this.proof === 'own-right' || this.proof === 'own-wrong' ? undefined : approvalOf(this.proof, m);
    const result = await r.bridge.send('session.changePin', {
      role: this.target,
      newPin: this.newPin,
      ...(currentPin !== undefined ? { currentPin } : {}),
      ...(approval ? { approval } : {}),
    });
    const own = session === this.target && currentPin === m.pins[this.target];
    const managed = session !== this.target && approval?.managerPin === m.pins.manager;
    const others = (Object.keys(m.pins) as Role[]).filter((x) => x !== this.target).map((x) => m.pins[x]);
    const label = `${this.toString()} as ${session}`;
    expect(!result.ok || own || managed, `${label} changed a PIN without proof`).toBe(true);
    expect(!result.ok || !others.includes(this.newPin), `${label}: two roles share a PIN`).toBe(true);
    // A refusal tied to a PIN reads the same whether the proof was wrong or the new PIN is taken.
    expect(result.ok || !/already used|used by another|belongs to/i.test(result.error.message)).toBe(true);
    if (result.ok) {
      seen.pinChanges += 1;
      if (this.target === 'manager' && m.pins.manager !== this.newPin) m.former.push(m.pins.manager);
      m.pins[this.target] = this.newPin;
    }
  }
  toString(): string {
    return `changePin(${this.target}, ${this.proof}, ${this.newPin})`;
  }
}

/** A card sale as the signed-in role (something to refund or void later). */
class Sale implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly cents: number,
    readonly hold: boolean,
  ) {}
  check(m: Model): boolean {
    return m.session === 'cashier' || m.session === 'manager';
  }
  async run(m: Model, r: Real): Promise<void> {
    const t = value(await r.bridge.send('sale.open', { subtotalCents: this.cents, taxCents: 0 }));
    const paid = value(
      await r.bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: {
          kind: this.hold ? 'preauth' : 'credit',
          entry: 'keyed',
          keyed: { cardNumber: '4111111111111111', expiry: '1230' },
        },
        allowDuplicate: true,
      }),
    );
    const srn = paid.tender.serviceReferenceNumber;
    expect(paid.tender.status).toBe('approved');
    if (srn && this.hold) m.holds.push({ srn, cents: this.cents });
    else if (srn) m.sales.push(srn);
  }
  toString(): string {
    return `${this.hold ? 'hold' : 'sale'}(${this.cents})`;
  }
}

/** Time passes: a lock runs out (minutes), or a day's PIN-change budget and failures age out. */
class Tick implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ms: number) {}
  check(): boolean {
    return true;
  }
  run(_m: Model, r: Real): Promise<void> {
    r.clock.at += this.ms;
    return Promise.resolve();
  }
  toString(): string {
    return `tick(${this.ms})`;
  }
}

const signIn = fc
  .constantFrom<Role | 'wrong'>('cashier', 'manager', 'tech', 'wrong', 'cashier')
  .map((w) => new SignIn(w));
const managerActions: ManagerActionName[] = [
  'refund',
  'void',
  'settle',
  'gift-load',
  'big-tip',
  'saf-policy',
  'auto-close',
];
const managerAction = fc
  .tuple(fc.constantFrom(...managerActions), approvalKind, fc.nat(50))
  .map(([a, k, p]) => new ManagerAction(a, k, p));
/** The approvals that were valid once: the current PIN, one replayed, one the manager has since changed. */
const onceValid = fc
  .tuple(
    fc.constantFrom<ManagerActionName>('refund', 'void', 'gift-load', 'big-tip'),
    fc.constantFrom<ApprovalKind>('valid', 'replayed', 'expired'),
    fc.nat(50),
  )
  .map(([a, k, p]) => new ManagerAction(a, k, p));
const changePin = fc
  .tuple(
    fc.constantFrom<Role>('cashier', 'manager', 'tech'),
    fc.constantFrom<Proof>('own-right', 'own-wrong', 'none', 'valid', 'wrong', 'expired', 'cashier'),
    fc.constantFrom('9999', '1111', '7777', '2468', '3579', '8642', '0000'),
  )
  .map(([t, p, n]) => new ChangePin(t, p, n));

/** Weighted by repetition: manager actions and sign-ins most, since the property is about them. */
const commands = [
  signIn,
  signIn,
  fc.constant(new SignOut()),
  changePin,
  fc.tuple(fc.integer({ min: 100, max: 5000 }), fc.boolean()).map(([c, h]) => new Sale(c, h)),
  managerAction,
  managerAction,
  managerAction,
  onceValid,
  fc.constantFrom(60_000, 20 * 60_000, 25 * 3_600_000).map((ms) => new Tick(ms)),
];

describe('roles over the bridge (model-based)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it(
    'a cashier never completes a manager action without a valid approval, whatever the sequence',
    async () => {
      const property = fc.asyncProperty(
        fc.commands(commands, { maxCommands: run.maxCommands, size: 'max' }),
        async (cmds) => {
          const clock = { at: Date.now() };
          const lane = await startLane({
            gateway: gw,
            signIn: null,
            core: { clock: { now: () => clock.at } },
          });
          try {
            const bridge = lane.core.connect();
            const real: Real = { lane, bridge, clock };
            const model: Model = {
              session: null,
              pins: { cashier: '1111', manager: '9999', tech: '7777' },
              former: [],
              replay: undefined,
              sales: [],
              holds: [],
            };
            // Something to refund, void and complete from the start, rung by the cashier.
            await new SignIn('cashier').run(model, real);
            await new Sale(1234, false).run(model, real);
            await new Sale(2000, true).run(model, real);
            await fc.asyncModelRun(() => ({ model, real }), cmds);
          } finally {
            await lane.close();
          }
        },
      );
      await assertModel('terminal roles', property, run);
      console.log(
        `terminal roles: completed as the manager ${seen.viaSession}, with an approval ${seen.viaApproval}; ` +
          `refused without authority ${seen.refused}; PIN changes ${seen.pinChanges}`,
      );
      // A run that never completed a manager action, or never refused one, proved nothing.
      expect(seen.viaApproval).toBeGreaterThan(0);
      expect(seen.viaSession).toBeGreaterThan(0);
      expect(seen.refused).toBeGreaterThan(0);
    },
    60_000 + run.numRuns * run.maxCommands * 2_000,
  );
});
