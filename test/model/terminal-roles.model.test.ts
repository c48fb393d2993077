import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeResult, JournalOperation, ManagerApproval, Role } from '../../common/bridge/contract';
import type { BridgeConnection } from '../../electron/bridge/connection';
import { PIN_NOT_CHANGED } from '../../electron/roles/roles';
import { startLane, value, type Lane } from '../electron/helpers';
import { startGateway, type TestGateway } from '../support/gateway-harness';
import { assertModel, modelRun } from './terminal-model-run';

/**
 * Roles over the real bridge, as an adversary at the counter plays them, now with named employees: two
 * cashiers and two managers besides the tech. Whatever the sequence of sign-ins and sign-outs, own-PIN
 * changes, approvals (right, another manager's, wrong, a PIN that was a manager's before it changed or
 * before that manager was deactivated, a one-time PIN, the cashier's own, one replayed from an earlier
 * call), deactivations and reactivations, and manager actions (refund, void, batch close, a gift load with
 * no payment, a completion tip above the bound, settings): a cashier never completes a manager action
 * without a valid manager's approval, nothing it was refused leaves the terminal, and the approver the
 * audit and the journal record is the manager whose PIN it was.
 *
 * The system is the terminal core (bridge handlers, roles, sale engine, a real journal in a temp folder)
 * against the sandbox gateway over loopback, as test/electron runs it; the clock is the test's, so the
 * PIN throttle's locks and daily budgets can be waited out (Tick).
 */

const run = modelRun({ seed: 20_251_101, numRuns: 5, maxCommands: 30 });

type Person = 'cashier' | 'ana' | 'manager' | 'dora' | 'tech';
const PEOPLE: readonly Person[] = ['cashier', 'ana', 'manager', 'dora', 'tech'];

type ApprovalKind = 'none' | 'valid' | 'second' | 'wrong' | 'expired' | 'cashier' | 'replayed';

type Model = {
  session: { who: Person; restricted: boolean } | null;
  pins: Record<Person, string>;
  roles: Record<Person, Role>;
  ids: Record<Person, number>;
  active: Record<Person, boolean>;
  /** Holding a one-time PIN a manager issued: good for choosing their own, nothing else. */
  oneTime: Record<Person, boolean>;
  /** PINs a manager had before a change or a deactivation: an approval with one is expired. */
  former: string[];
  /** The manager PIN of the last approval the core accepted, to send again. */
  replay: string | undefined;
  sales: string[];
  holds: { srn: string; cents: number }[];
};

type Real = { lane: Lane; bridge: BridgeConnection; clock: { at: number } };

/** Across all runs: what the property saw, so a run that exercised nothing fails instead of passing. */
const seen = {
  viaSession: 0,
  viaApproval: 0,
  bySecondManager: 0,
  refused: 0,
  pinChanges: 0,
  deactivations: 0,
};

const WRONG_PINS = ['0000', '1234', '4321', '2581', '13579'];

/** The person whose valid manager PIN this is: active, a manager, not a one-time PIN. */
function managerOf(m: Model, pin: string | undefined): Person | undefined {
  return PEOPLE.find(
    (p) => m.roles[p] === 'manager' && m.active[p] && !m.oneTime[p] && m.pins[p] === pin && pin !== '',
  );
}

function approvalOf(kind: ApprovalKind, m: Model): ManagerApproval | undefined {
  switch (kind) {
    case 'none':
      return undefined;
    case 'valid':
      return { managerPin: m.pins.manager };
    case 'second':
      return { managerPin: m.pins.dora };
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

const signedInManager = (m: Model): boolean =>
  m.session !== null && !m.session.restricted && m.roles[m.session.who] === 'manager';

/** Valid authority for a manager action at the moment of the call. */
const authorized = (m: Model, approval: ManagerApproval | undefined): boolean =>
  signedInManager(m) || managerOf(m, approval?.managerPin) !== undefined;

async function rows(r: Real, operations: JournalOperation[]): Promise<number> {
  if (operations.length === 0) return 0;
  const all = await r.lane.core.journal.list({ limit: 10_000 });
  return all.filter((row) => operations.includes(row.operation)).length;
}

const approvalKind = fc.constantFrom<ApprovalKind>(
  'none',
  'valid',
  'second',
  'wrong',
  'expired',
  'cashier',
  'replayed',
);

type ManagerActionName = 'refund' | 'void' | 'settle' | 'gift-load' | 'big-tip' | 'saf-policy' | 'auto-close';

const auditAction: Record<ManagerActionName, string> = {
  refund: 'refund',
  void: 'void',
  settle: 'batch-close',
  'gift-load': 'gift-reload',
  'big-tip': 'preauth-complete',
  'saf-policy': 'saf-policy',
  'auto-close': 'auto-close-set',
};

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
    const label = `${this.toString()} as ${m.session?.who ?? 'nobody'} (managers ${m.pins.manager}, ${m.pins.dora})`;
    // The property: completed only with a valid approval (or as a manager), and a refused caller sent nothing.
    expect(!result.ok || allowed, `${label} completed: ${JSON.stringify(result)}`).toBe(true);
    expect(allowed || after === before, `${label} journaled a request it was refused`).toBe(true);
    if (!result.ok) {
      if (!allowed) seen.refused += 1;
      return;
    }
    // Who the audit and the journal name: the signed-in employee, and the manager whose PIN approved.
    const session = m.session as { who: Person };
    const approver = signedInManager(m) ? undefined : managerOf(m, approval?.managerPin);
    // Read from the core's journal: the cashier's screen may not read the audit.
    const line = (await r.lane.core.journal.auditList(1))[0];
    expect(line?.action, label).toBe(auditAction[this.action]);
    expect([line?.employeeId, line?.approvedById], `${label}: audit`).toEqual([
      m.ids[session.who],
      approver === undefined ? null : m.ids[approver],
    ]);
    if (ops[this.action].length > 0) {
      const newest = (await r.lane.core.journal.list({ limit: 1 }))[0];
      expect([newest?.employeeId, newest?.approvedById], `${label}: journal row`).toEqual([
        m.ids[session.who],
        approver === undefined ? null : m.ids[approver],
      ]);
    }
    if (signedInManager(m)) seen.viaSession += 1;
    else seen.viaApproval += 1;
    if (approver === 'dora') seen.bySecondManager += 1;
    if (approval && !signedInManager(m)) m.replay = approval.managerPin;
  }
  toString(): string {
    return `${this.action}(${this.kind})`;
  }
}

class SignIn implements fc.AsyncCommand<Model, Real> {
  constructor(readonly who: Person | 'wrong') {}
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    const pin =
      this.who === 'wrong' ? (approvalOf('wrong', m)?.managerPin ?? '0000') : m.pins[this.who] || '8642';
    const result = await r.bridge.send('session.signIn', { pin });
    const owner = PEOPLE.find((p) => m.active[p] && m.pins[p] === pin);
    // Only an active employee's own PIN signs in, as that employee.
    expect(result.ok ? result.value.employeeId : undefined, `sign-in with ${pin}`).toBe(
      result.ok && owner ? m.ids[owner] : undefined,
    );
    expect(!result.ok || owner !== undefined).toBe(true);
    if (result.ok && owner) {
      expect(result.value.mustChangePin === true).toBe(m.oneTime[owner]);
      m.session = { who: owner, restricted: m.oneTime[owner] };
    }
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

class ChangePin implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly right: boolean,
    readonly newPin: string,
  ) {}
  check(m: Model): boolean {
    return m.session !== null;
  }
  async run(m: Model, r: Real): Promise<void> {
    const who = (m.session as { who: Person }).who;
    const currentPin = this.right ? m.pins[who] : '0000';
    const result = await r.bridge.send('session.changePin', { newPin: this.newPin, currentPin });
    const others = PEOPLE.filter((p) => p !== who && m.active[p]).map((p) => m.pins[p]);
    const label = `${this.toString()} as ${who}`;
    expect(!result.ok || currentPin === m.pins[who], `${label} changed a PIN without proof`).toBe(true);
    expect(!result.ok || !others.includes(this.newPin), `${label}: two employees share a PIN`).toBe(true);
    // A refusal tied to a PIN reads the same whether the proof was wrong or the new PIN is taken.
    expect(result.ok || result.error.code !== 'forbidden' || result.error.message === PIN_NOT_CHANGED).toBe(
      true,
    );
    if (result.ok) {
      seen.pinChanges += 1;
      if (m.roles[who] === 'manager') m.former.push(m.pins[who]);
      m.pins[who] = this.newPin;
      m.oneTime[who] = false;
      m.session = { who, restricted: false };
    }
  }
  toString(): string {
    return `changePin(${this.right ? 'right' : 'wrong'}, ${this.newPin})`;
  }
}

/** A manager deactivates or reactivates Ana or Dora (confirmed with the signed-in manager's own PIN). */
class SetActive implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly target: 'ana' | 'dora',
    readonly active: boolean,
  ) {}
  check(m: Model): boolean {
    return m.session !== null && m.active[this.target] !== this.active;
  }
  async run(m: Model, r: Real): Promise<void> {
    const who = (m.session as { who: Person }).who;
    const result = await r.bridge.send('employees.setActive', {
      employeeId: m.ids[this.target],
      active: this.active,
      approval: { managerPin: m.pins[who] },
    });
    const managers = PEOPLE.filter((p) => m.roles[p] === 'manager' && m.active[p]);
    const lastManager = !this.active && m.roles[this.target] === 'manager' && managers.length <= 1;
    const label = `${this.toString()} as ${who}`;
    expect(!result.ok || (signedInManager(m) && managerOf(m, m.pins[who]) !== undefined), label).toBe(true);
    expect(!result.ok || !lastManager, `${label}: the last manager went`).toBe(true);
    if (!result.ok) return;
    m.active[this.target] = this.active;
    if (this.active) {
      m.pins[this.target] = result.value.oneTimePin ?? '';
      m.oneTime[this.target] = true;
    } else {
      seen.deactivations += 1;
      if (m.roles[this.target] === 'manager' && !m.oneTime[this.target]) m.former.push(m.pins[this.target]);
      m.pins[this.target] = '';
      m.oneTime[this.target] = false;
      if (who === this.target) m.session = null;
    }
  }
  toString(): string {
    return `${this.active ? 'reactivate' : 'deactivate'}(${this.target})`;
  }
}

/** A card sale as the signed-in role (something to refund or void later). */
class Sale implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly cents: number,
    readonly hold: boolean,
  ) {}
  check(m: Model): boolean {
    return (
      m.session !== null &&
      !m.session.restricted &&
      (m.roles[m.session.who] === 'cashier' || m.roles[m.session.who] === 'manager')
    );
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
  .constantFrom<Person | 'wrong'>('cashier', 'ana', 'manager', 'dora', 'tech', 'wrong', 'cashier', 'manager')
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
/** The approvals that were valid once: a current manager PIN, one replayed, one since changed or retired. */
const onceValid = fc
  .tuple(
    fc.constantFrom<ManagerActionName>('refund', 'void', 'gift-load', 'big-tip'),
    fc.constantFrom<ApprovalKind>('valid', 'second', 'replayed', 'expired'),
    fc.nat(50),
  )
  .map(([a, k, p]) => new ManagerAction(a, k, p));
const changePin = fc
  .tuple(fc.boolean(), fc.constantFrom('2580', '3691', '4826', '6047', '1357', '8024', '9999'))
  .map(([right, n]) => new ChangePin(right, n));
const setActive = fc
  .tuple(fc.constantFrom<'ana' | 'dora'>('ana', 'dora'), fc.boolean())
  .map(([t, a]) => new SetActive(t, a));

/** Weighted by repetition: manager actions and sign-ins most, since the property is about them. */
const commands = [
  signIn,
  signIn,
  fc.constant(new SignOut()),
  changePin,
  setActive,
  setActive,
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
    'a cashier never completes a manager action without a valid manager’s approval, and the approver recorded is that manager',
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
            // The demo people, and a second cashier and a second manager with PINs of their own.
            const setup = lane.core.connect();
            const demo = value(await setup.send('session.signIn', { pin: '9999' }));
            const people = value(await setup.send('employees.list', {})).employees;
            const idOf = (name: string) => people.find((e) => e.name === name)?.id ?? 0;
            const hire = async (name: string, role: Role, pin: string): Promise<number> => {
              const added = value(
                await setup.send('employees.add', { name, role, approval: { managerPin: '9999' } }),
              );
              const c = lane.core.connect();
              value(await c.send('session.signIn', { pin: added.oneTimePin }));
              value(await c.send('session.changePin', { currentPin: added.oneTimePin, newPin: pin }));
              return added.employee.id;
            };
            const model: Model = {
              session: null,
              pins: { cashier: '1111', ana: '3691', manager: '9999', dora: '4826', tech: '7777' },
              roles: {
                cashier: 'cashier',
                ana: 'cashier',
                manager: 'manager',
                dora: 'manager',
                tech: 'tech',
              },
              ids: {
                cashier: idOf('Cashier'),
                ana: await hire('Ana', 'cashier', '3691'),
                manager: demo.employeeId,
                dora: await hire('Dora', 'manager', '4826'),
                tech: idOf('Tech'),
              },
              active: { cashier: true, ana: true, manager: true, dora: true, tech: true },
              oneTime: { cashier: false, ana: false, manager: false, dora: false, tech: false },
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
        `terminal roles: completed as a manager ${seen.viaSession}, with an approval ${seen.viaApproval} ` +
          `(${seen.bySecondManager} by the second manager); refused without authority ${seen.refused}; ` +
          `PIN changes ${seen.pinChanges}; deactivations ${seen.deactivations}`,
      );
      // A run that never completed a manager action, or never refused one, proved nothing.
      expect(seen.viaApproval).toBeGreaterThan(0);
      expect(seen.bySecondManager).toBeGreaterThan(0);
      expect(seen.deactivations).toBeGreaterThan(0);
      expect(seen.viaSession).toBeGreaterThan(0);
      expect(seen.refused).toBeGreaterThan(0);
    },
    60_000 + run.numRuns * run.maxCommands * 2_000,
  );
});
