import { describe, expect, it } from 'vitest';
import type {
  BridgeResult,
  ManagerApproval,
  Session,
  TerminalStatusView,
} from '../../common/bridge/contract';
import { createAppStore } from '../../renderer/src/state/app-store';
import { viewsFor } from '../../renderer/src/state/views';
import { FakeBridge } from './fake-bridge';

const status = (session: Session | null): TerminalStatusView => ({
  laneId: 'L1',
  mid: 1001,
  cid: 1,
  sandbox: true,
  version: '0.1.0',
  contractVersion: 1,
  session,
  gateway: { online: true },
  reversals: { pending: 0 },
  saf: { enabled: false, exposureCents: 0, count: 0 },
  devices: [],
});

const cashier: Session = { role: 'cashier', name: 'Cashier', signedInAt: 1, employeeId: 1 };
const manager: Session = { role: 'manager', name: 'Manager', signedInAt: 1, employeeId: 2 };

describe('app store: session, screens and manager approval', () => {
  it('signs in by PIN and lands on the role’s first screen; a wrong PIN shows why', async () => {
    const bridge = new FakeBridge().answer('terminal.status', status(null));
    bridge.handle('session.signIn', (p) =>
      p.pin === '9999'
        ? { ok: true, value: manager }
        : { ok: false, error: { code: 'unauthorized', message: 'Wrong PIN.' } },
    );
    const app = createAppStore(bridge);
    expect(await app.getState().signIn('1234')).toBeNull();
    expect(app.getState().signInError).toBe('Wrong PIN.');
    expect(await app.getState().signIn('9999')).toEqual(manager);
    expect(app.getState().session?.role).toBe('manager');
    expect(app.getState().view).toBe('sale');
    app.getState().navigate('batch');
    expect(app.getState().view).toBe('batch');
    app.getState().navigate('devices');
    expect(app.getState().view).toBe('batch');
  });

  it('a one-time PIN’s session chooses its own PIN with the one-time PIN as proof, which is then forgotten', async () => {
    const fresh: Session = { ...cashier, name: 'Ana', employeeId: 7, mustChangePin: true };
    const bridge = new FakeBridge()
      .answer('terminal.status', status(null))
      .answer('session.signIn', fresh)
      .handle('session.changePin', (p) =>
        p.currentPin === '482913' && p.newPin === '2580'
          ? { ok: true, value: { ...cashier, name: 'Ana', employeeId: 7 } }
          : { ok: false, error: { code: 'forbidden', message: 'The PIN was not changed.' } },
      );
    const app = createAppStore(bridge);
    expect((await app.getState().signIn('482913'))?.mustChangePin).toBe(true);
    expect(await app.getState().changePin('2580')).toBeNull();
    expect(app.getState().session?.mustChangePin).toBeUndefined();
    // Nothing kept: a second change without the current PIN proves nothing.
    expect(await app.getState().changePin('3691')).toBe('The PIN was not changed.');
    expect(bridge.called('session.changePin')).toEqual([
      { currentPin: '482913', newPin: '2580' },
      { currentPin: '', newPin: '3691' },
    ]);
    expect(JSON.stringify(app.getState())).not.toContain('482913');
  });

  it('a session the core ends (clocked out, deactivated) takes its notices with it: the next person starts with none', () => {
    const bridge = new FakeBridge().answer('terminal.status', status(null));
    const app = createAppStore(bridge);
    const stop = app.getState().init();
    bridge.emit('session.changed', cashier);
    app.getState().notify('success', 'Refunded $10.00.');
    // The same person's session renewed keeps what it was told.
    bridge.emit('session.changed', { ...cashier, signedInAt: 2 });
    expect(app.getState().notices.map((n) => n.text)).toEqual(['Refunded $10.00.']);
    bridge.emit('session.changed', null);
    expect(app.getState().notices).toEqual([]);
    bridge.emit('session.changed', manager);
    expect(app.getState().notices).toEqual([]);
    stop();
  });

  it('signing out leaves no notice for the next person: the cashier’s "Refunded $5.00 in cash" is not the manager’s to read', async () => {
    const bridge = new FakeBridge().answer('session.signOut', null);
    const app = createAppStore(bridge);
    app.setState({ session: cashier });
    app.getState().notify('success', 'Refunded $5.00 in cash: the drawer is open.');
    expect(app.getState().notices.map((n) => n.text)).toEqual([
      'Refunded $5.00 in cash: the drawer is open.',
    ]);
    await app.getState().signOut();
    expect(app.getState().notices).toEqual([]);
  });

  it('each role sees only its screens', () => {
    expect(viewsFor('cashier')).toEqual(['sale', 'till', 'transactions', 'returns', 'cards', 'preauths']);
    // Returns: a cashier's from a receipt, a manager's too (and without one).
    expect(viewsFor('manager')).toContain('returns');
    expect(viewsFor('tech')).not.toContain('returns');
    // The cashier's drawer; the counts, reports and the day's close are the manager's.
    expect(viewsFor('cashier')).not.toContain('tills');
    expect(viewsFor('manager')).toContain('tills');
    expect(viewsFor('tech')).not.toContain('till');
    expect(viewsFor('tech')).not.toContain('sale');
    expect(viewsFor('manager')).toContain('batch');
    // The core answers audit.list to a manager only.
    expect(viewsFor('manager')).toContain('audit');
    expect(viewsFor('cashier')).not.toContain('audit');
  });

  it('a manager signed in needs no PIN dialog', async () => {
    const app = createAppStore(new FakeBridge());
    app.setState({ session: manager });
    const seen: (ManagerApproval | undefined)[] = [];
    const r = await app.getState().withManager('Refund', (a) => {
      seen.push(a);
      return Promise.resolve<BridgeResult<string>>({ ok: true, value: 'done' });
    });
    expect(r).toEqual({ ok: true, value: 'done' });
    expect(seen).toEqual([undefined]);
    expect(app.getState().approval).toBeNull();
  });

  it('a cashier is asked for the manager PIN, again after a wrong one, and can cancel', async () => {
    const app = createAppStore(new FakeBridge());
    app.setState({ session: cashier });
    const run = (a: ManagerApproval | undefined): Promise<BridgeResult<string>> =>
      Promise.resolve(
        a?.managerPin === '9999'
          ? { ok: true, value: 'refunded' }
          : { ok: false, error: { code: 'forbidden', message: 'The manager PIN is not correct.' } },
      );
    const pending = app.getState().withManager('Refund $5.00', run);
    await Promise.resolve();
    expect(app.getState().approval?.reason).toBe('Refund $5.00');
    app.getState().answerApproval({ managerPin: '0000' });
    await new Promise((r) => setTimeout(r, 0));
    expect(app.getState().approval?.error).toBe('The manager PIN is not correct.');
    app.getState().answerApproval({ managerPin: '9999' });
    expect(await pending).toEqual({ ok: true, value: 'refunded' });

    const cancelled = app.getState().withManager('Void', run);
    await Promise.resolve();
    app.getState().answerApproval(null);
    expect(await cancelled).toBeUndefined();
  });

  it('follows the core’s events: session, gateway status, device health', async () => {
    const bridge = new FakeBridge().answer('terminal.status', status(cashier));
    const app = createAppStore(bridge);
    const off = app.getState().init();
    await new Promise((r) => setTimeout(r, 0));
    expect(app.getState().session?.role).toBe('cashier');
    bridge.emit('gateway.status', { online: false, lastError: 'ECONNREFUSED' });
    expect(app.getState().gateway?.online).toBe(false);
    bridge.emit('devices.status', {
      role: 'pinPad',
      kind: 'simulated',
      attachment: 'sim',
      state: 'missing',
      attempts: 2,
    });
    expect(app.getState().status?.devices.find((d) => d.role === 'pinPad')?.state).toBe('missing');
    bridge.emit('session.changed', null);
    expect(app.getState().session).toBeNull();
    off();
  });

  it('a new socket starts signed out (the core keeps a session per connection)', () => {
    const app = createAppStore(new FakeBridge().answer('terminal.status', status(null)), 'closed');
    app.setState({ session: cashier });
    app.getState().setConnection('open');
    expect(app.getState().session).toBeNull();
  });
});
