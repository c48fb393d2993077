import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeResult, EmployeeView } from '../../../common/bridge/contract';
import type { BridgeConnection } from '../../../electron/bridge/connection';
import { ONE_TIME_PIN_MS } from '../../../electron/roles/roles';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import { startLane, value, type Lane } from '../helpers';

/**
 * Issue 20 "People" over the real bridge: named employees, each with a PIN of their own, and every journal
 * row and audit line naming who did it and who approved it.
 */

const VISA = {
  kind: 'credit',
  entry: 'keyed',
  keyed: { cardNumber: '4111111111111111', expiry: '1230' },
} as const;
const codeOf = <T>(r: BridgeResult<T>): string => (r.ok ? 'ok' : r.error.code);
const messageOf = <T>(r: BridgeResult<T>): string => (r.ok ? 'ok' : r.error.message);
const MANAGER = { managerPin: '9999' };

async function cardSale(b: BridgeConnection, cents: number): Promise<string> {
  const t = value(await b.send('sale.open', { subtotalCents: cents, taxCents: 0 }));
  const paid = value(await b.send('sale.pay', { ticketId: t.ticketId, tender: VISA, allowDuplicate: true }));
  expect(paid.tender.status).toBe('approved');
  return paid.tender.serviceReferenceNumber ?? '';
}

describe('employees', () => {
  let gw: TestGateway;
  const lanes: Lane[] = [];
  /** A lane on the test's clock (one-time PINs expire), signed in as the demo manager. */
  const lane = async (): Promise<Lane & { clock: { at: number } }> => {
    const clock = { at: Date.now() };
    const l = await startLane({ gateway: gw, signIn: '9999', core: { clock: { now: () => clock.at } } });
    lanes.push(l);
    return { ...l, clock };
  };
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    for (const l of lanes) await l.close();
    await gw.close();
  });

  it('a manager adds two cashiers; each chooses a PIN of their own, sells, and the journal and audit name them', async () => {
    const { core, bridge: manager } = await lane();
    const ana = value(
      await manager.send('employees.add', { name: 'Ana', role: 'cashier', approval: MANAGER }),
    );
    const ben = value(
      await manager.send('employees.add', { name: 'Ben', role: 'cashier', approval: MANAGER }),
    );
    expect(ana.employee).toMatchObject({ name: 'Ana', role: 'cashier', active: true, pin: 'one-time' });
    expect(ana.oneTimePin).toMatch(/^\d{6}$/);
    expect(ana.oneTimePin).not.toBe(ben.oneTimePin);

    // The one-time PIN signs in to one thing only: choosing their own.
    const a = core.connect();
    const first = value(await a.send('session.signIn', { pin: ana.oneTimePin }));
    expect(first).toMatchObject({ name: 'Ana', role: 'cashier', mustChangePin: true });
    const early = await a.send('sale.open', { subtotalCents: 100 });
    expect([codeOf(early), messageOf(early)]).toEqual(['forbidden', 'Choose your own PIN first.']);
    const own = value(await a.send('session.changePin', { currentPin: ana.oneTimePin, newPin: '2580' }));
    expect(own).toMatchObject({ name: 'Ana', role: 'cashier' });
    expect(own?.mustChangePin).toBeUndefined();
    // The one-time PIN is spent.
    expect(codeOf(await core.connect().send('session.signIn', { pin: ana.oneTimePin }))).toBe('unauthorized');

    const b = core.connect();
    value(await b.send('session.signIn', { pin: ben.oneTimePin }));
    value(await b.send('session.changePin', { currentPin: ben.oneTimePin, newPin: '3691' }));

    const a2 = core.connect();
    expect(value(await a2.send('session.signIn', { pin: '2580' })).name).toBe('Ana');
    const b2 = core.connect();
    expect(value(await b2.send('session.signIn', { pin: '3691' })).name).toBe('Ben');
    const anaSale = await cardSale(a2, 1250);
    await cardSale(b2, 2000);
    // Ben refunds Ana's sale with the manager's PIN: Ben did it, the manager approved it.
    value(
      await b2.send('transactions.refund', {
        serviceReferenceNumber: anaSale,
        amountCents: 250,
        approval: MANAGER,
      }),
    );

    const list = value(await manager.send('transactions.list', {}));
    const by = list.map((t) => [t.operation, t.amountCents, t.employeeName, t.approvedByName ?? null]);
    expect(by).toEqual(
      expect.arrayContaining([
        ['sale', 1250, 'Ana', null],
        ['sale', 2000, 'Ben', null],
        ['refund', 250, 'Ben', 'Manager'],
      ]),
    );
    const audit = value(await manager.send('audit.list', { limit: 100 }));
    expect(audit.find((e) => e.action === 'refund')).toMatchObject({
      role: 'cashier',
      employeeName: 'Ben',
      approvedBy: 'manager',
      approvedByName: 'Manager',
    });
    expect(audit.filter((e) => e.action === 'employee-added').map((e) => e.detail)).toEqual([
      'Ben added as cashier; one-time PIN issued',
      'Ana added as cashier; one-time PIN issued',
    ]);
    // A one-time PIN goes to the manager once: never into the audit, the log or the journal.
    const kept = JSON.stringify([audit, core.log.recent(1000), await core.journal.employees()]);
    for (const pin of [ana.oneTimePin, ben.oneTimePin, '2580', '3691']) expect(kept).not.toContain(pin);
    // The ticket names who opened it.
    const t = value(await a2.send('sale.open', { subtotalCents: 100 }));
    expect(t).toMatchObject({ employeeName: 'Ana' });
  });

  it('every change but a rename asks for a manager PIN, also from a signed-in manager; each is audited with the approver', async () => {
    const { core, bridge: manager } = await lane();
    const noPin = await manager.send('employees.add', { name: 'Cleo', role: 'cashier' });
    expect(codeOf(noPin)).toBe('forbidden');
    const cleo = value(
      await manager.send('employees.add', { name: 'Cleo', role: 'cashier', approval: MANAGER }),
    );
    const id = cleo.employee.id;
    // A second manager approves Cleo's promotion for the signed-in one.
    const dora = value(
      await manager.send('employees.add', { name: 'Dora', role: 'manager', approval: MANAGER }),
    );
    const d = core.connect();
    value(await d.send('session.signIn', { pin: dora.oneTimePin }));
    value(await d.send('session.changePin', { currentPin: dora.oneTimePin, newPin: '4826' }));

    const rename = value(await manager.send('employees.update', { employeeId: id, name: 'Cleo B' }));
    expect(rename.name).toBe('Cleo B');
    expect(codeOf(await manager.send('employees.update', { employeeId: id, role: 'manager' }))).toBe(
      'forbidden',
    );
    const wrong = await manager.send('employees.update', {
      employeeId: id,
      role: 'manager',
      approval: { managerPin: '1111' },
    });
    expect([codeOf(wrong), messageOf(wrong)]).toEqual(['forbidden', 'The manager PIN is not correct.']);
    value(
      await manager.send('employees.update', {
        employeeId: id,
        role: 'manager',
        approval: { managerPin: '4826' },
      }),
    );
    const reset = value(await manager.send('employees.resetPin', { employeeId: id, approval: MANAGER }));
    expect(reset.employee.pin).toBe('one-time');

    const audit = value(await manager.send('audit.list', { limit: 50 }));
    const line = (action: string) => audit.find((e) => e.action === action);
    expect(line('employee-renamed')).toMatchObject({
      detail: 'Cleo renamed Cleo B',
      employeeName: 'Manager',
    });
    expect(line('role-changed')).toMatchObject({
      detail: 'Cleo B: cashier -> manager',
      employeeName: 'Manager',
      approvedByName: 'Dora',
    });
    // The signed-in manager's own PIN approved it: no separate approver.
    expect(line('pin-reset')).toMatchObject({
      detail: 'Cleo B: PIN reset, one-time PIN issued',
      employeeName: 'Manager',
    });
    expect(line('pin-reset')?.approvedByName).toBeUndefined();
    expect(line('approval-failed')).toMatchObject({ employeeName: 'Manager' });
  });

  it('a deactivated employee cannot sign in, their open session ends, and their PIN is free for someone else', async () => {
    const { core, bridge: manager } = await lane();
    const eli = value(
      await manager.send('employees.add', { name: 'Eli', role: 'cashier', approval: MANAGER }),
    );
    const e = core.connect();
    value(await e.send('session.signIn', { pin: eli.oneTimePin }));
    value(await e.send('session.changePin', { currentPin: eli.oneTimePin, newPin: '1357' }));
    value(await e.send('sale.open', { subtotalCents: 100 }));

    const off = value(
      await manager.send('employees.setActive', {
        employeeId: eli.employee.id,
        active: false,
        approval: MANAGER,
      }),
    );
    expect(off.employee).toMatchObject({ active: false, pin: 'none' });
    const after = await e.send('transactions.list', {});
    expect([codeOf(after), messageOf(after)]).toEqual([
      'unauthorized',
      'Your session has ended: sign in again.',
    ]);
    expect(value(await e.send('session.current', {}))).toBeNull();
    const again = await core.connect().send('session.signIn', { pin: '1357' });
    expect([codeOf(again), messageOf(again)]).toEqual(['unauthorized', 'Wrong PIN.']);
    // Never deleted: still listed, and history still names them.
    const listed = value(await manager.send('employees.list', {})).employees.find(
      (x) => x.id === eli.employee.id,
    );
    expect(listed).toMatchObject({ name: 'Eli', active: false });
    expect(
      value(await manager.send('audit.list', { limit: 20 })).find((x) => x.action === 'sign-in')
        ?.employeeName,
    ).toBe('Eli');

    // Reactivated with a new one-time PIN; the old PIN stays dead.
    const on = value(
      await manager.send('employees.setActive', {
        employeeId: eli.employee.id,
        active: true,
        approval: MANAGER,
      }),
    );
    expect(on.oneTimePin).toMatch(/^\d{6}$/);
    expect(codeOf(await core.connect().send('session.signIn', { pin: '1357' }))).toBe('unauthorized');
    expect(value(await core.connect().send('session.signIn', { pin: on.oneTimePin ?? '' })).name).toBe('Eli');
  });

  it('the last active manager can be neither demoted nor deactivated; with a second one, either can', async () => {
    const { core, bridge: manager } = await lane();
    const me = value(await manager.send('employees.list', {})).employees.find(
      (x) => x.role === 'manager',
    ) as EmployeeView;
    const demote = await manager.send('employees.update', {
      employeeId: me.id,
      role: 'cashier',
      approval: MANAGER,
    });
    expect([codeOf(demote), messageOf(demote)]).toEqual([
      'conflict',
      'Manager is the only active manager: make someone else a manager first.',
    ]);
    const leave = await manager.send('employees.setActive', {
      employeeId: me.id,
      active: false,
      approval: MANAGER,
    });
    expect(codeOf(leave)).toBe('conflict');
    expect(
      value(await manager.send('employees.list', {})).employees.find((x) => x.id === me.id),
    ).toMatchObject({
      role: 'manager',
      active: true,
    });

    const fay = value(
      await manager.send('employees.add', { name: 'Fay', role: 'manager', approval: MANAGER }),
    );
    value(await manager.send('employees.update', { employeeId: me.id, role: 'cashier', approval: MANAGER }));
    // The demoted manager's session ends (their rights changed); Fay is now the last one.
    expect(codeOf(await manager.send('employees.list', {}))).toBe('unauthorized');
    const f = core.connect();
    value(await f.send('session.signIn', { pin: fay.oneTimePin }));
    value(await f.send('session.changePin', { currentPin: fay.oneTimePin, newPin: '8024' }));
    const last = await f.send('employees.setActive', {
      employeeId: fay.employee.id,
      active: false,
      approval: { managerPin: '8024' },
    });
    expect(codeOf(last)).toBe('conflict');
  });

  it('PINs stay unique without telling anyone whose a PIN is; weak and expired ones are refused', async () => {
    const l = await lane();
    const { core, bridge: manager } = l;
    const gus = value(
      await manager.send('employees.add', { name: 'Gus', role: 'cashier', approval: MANAGER }),
    );
    const g = core.connect();
    value(await g.send('session.signIn', { pin: gus.oneTimePin }));
    const weak = await g.send('session.changePin', { currentPin: gus.oneTimePin, newPin: '1234' });
    expect(codeOf(weak)).toBe('invalid');
    value(await manager.send('session.changePin', { currentPin: '9999', newPin: '6047' }));
    const taken = await g.send('session.changePin', { currentPin: gus.oneTimePin, newPin: '6047' });
    const wrong = await g.send('session.changePin', { currentPin: '000000', newPin: '6048' });
    expect(taken).toEqual(wrong);
    expect(messageOf(taken)).not.toMatch(/manager|taken|another|Manager/);

    // A one-time PIN not used within its time is refused.
    const hal = value(
      await manager.send('employees.add', { name: 'Hal', role: 'cashier', approval: { managerPin: '6047' } }),
    );
    l.clock.at += ONE_TIME_PIN_MS + 1;
    const late = await core.connect().send('session.signIn', { pin: hal.oneTimePin });
    expect(messageOf(late)).toBe('This one-time PIN has expired: ask a manager for a new one.');
    // Two people of one name would make every report ambiguous.
    const twin = await manager.send('employees.add', {
      name: ' gus ',
      role: 'cashier',
      approval: { managerPin: '6047' },
    });
    expect(codeOf(twin)).toBe('conflict');
    const employees = await core.journal.employees();
    expect(new Set(employees.map((e) => e.pinLookup).filter(Boolean)).size).toBe(
      employees.filter((e) => e.pinLookup).length,
    );
  });

  it('time clock on: cashiers clock in to sign in, clocking out ends their session; the list shows who is in', async () => {
    const { core, bridge: manager } = await lane();
    expect(codeOf(await core.connect().send('timeClock.punch', { pin: '1111', action: 'in' }))).toBe(
      'conflict',
    );
    const on = value(await manager.send('employees.setTimeClock', { enabled: true }));
    expect(on.timeClock).toBe(true);
    expect(value(await manager.send('terminal.status', {})).timeClock).toBe(true);
    // Sessions already open go on (the manager switched it on mid-shift); the next sign-in needs the clock.
    value(await manager.send('employees.list', {}));
    value(await manager.send('session.signOut', {}));

    const c = core.connect();
    const refused = await c.send('session.signIn', { pin: '1111' });
    expect([codeOf(refused), messageOf(refused)]).toEqual([
      'forbidden',
      'Clock in first: type your PIN and choose Clock in.',
    ]);
    const wrongPunch = await c.send('timeClock.punch', { pin: '4444', action: 'in' });
    expect(codeOf(wrongPunch)).toBe('unauthorized');
    const punched = value(await c.send('timeClock.punch', { pin: '1111', action: 'in' }));
    expect(punched).toMatchObject({ name: 'Cashier', action: 'in' });
    value(await c.send('session.signIn', { pin: '1111' }));
    value(await c.send('sale.open', { subtotalCents: 100 }));
    // A tech visits: no clock for them.
    value(await core.connect().send('session.signIn', { pin: '7777' }));

    const m = core.connect();
    value(await m.send('timeClock.punch', { pin: '9999', action: 'in' }));
    value(await m.send('session.signIn', { pin: '9999' }));
    const listed = value(await m.send('employees.list', {})).employees;
    expect(listed.find((x) => x.name === 'Cashier')?.clockedInAt).toBe(punched.at);
    expect(listed.find((x) => x.name === 'Tech')?.clockedInAt).toBeUndefined();

    value(await core.connect().send('timeClock.punch', { pin: '1111', action: 'out' }));
    expect(codeOf(await c.send('sale.current', {}))).toBe('unauthorized');

    // A new employee's one-time PIN lets them choose their own; that does not make a shift.
    const ivy = value(await m.send('employees.add', { name: 'Ivy', role: 'cashier', approval: MANAGER }));
    const i = core.connect();
    expect(value(await i.send('session.signIn', { pin: ivy.oneTimePin })).mustChangePin).toBe(true);
    expect(
      value(await i.send('session.changePin', { currentPin: ivy.oneTimePin, newPin: '5173' })),
    ).toBeNull();
    expect(value(await i.send('session.current', {}))).toBeNull();
    expect(messageOf(await i.send('session.signIn', { pin: '5173' }))).toMatch(/^Clock in first/);
    const audit = value(await m.send('audit.list', { limit: 30 }));
    expect(
      audit
        .filter((x) => x.action === 'clock-in' || x.action === 'clock-out')
        .map((x) => [x.action, x.employeeName]),
    ).toEqual([
      ['clock-out', 'Cashier'],
      ['clock-in', 'Manager'],
      ['clock-in', 'Cashier'],
    ]);
  });
});
