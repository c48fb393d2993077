import { get as httpGet } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { BridgeConnection } from '../../../electron/bridge/connection';
import { BRIDGE_META_NAME, type EventName, type ServerMessage } from '../../../common/bridge/contract';
import { connectBridge } from '../../../electron/bridge/ws-client';
import { startBridgeServer, type BridgeServer } from '../../../electron/bridge/ws-server';
import { startLane, value, type Lane } from '../helpers';

describe('browser-mode bridge over a loopback WebSocket', () => {
  let lane: Lane;
  let server: BridgeServer;
  const secret = 'test-secret-0123456789abcdefghijklmnopqrstuv';

  beforeAll(async () => {
    lane = await startLane({ signIn: null });
    server = await startBridgeServer({ connect: (kind) => lane.core.connect(kind), secret, port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await lane.close();
  });

  /** Says hello with `proof`, then makes each call in turn; answers each call's code (or 'ok'). */
  const session = (proof: Record<string, string>, calls: [string, unknown][]) =>
    new Promise<{ welcome: ServerMessage; codes: string[] }>((resolve, reject) => {
      const ws = new WebSocket(server.wsUrl, { headers: { origin: server.url } });
      let welcome: ServerMessage | undefined;
      const codes: string[] = [];
      const next = (): void => {
        const call = calls[codes.length];
        if (!call) {
          ws.close();
          if (welcome) resolve({ welcome, codes });
          return;
        }
        ws.send(JSON.stringify({ type: 'call', id: codes.length, command: call[0], payload: call[1] }));
      };
      ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', contractVersion: 1, ...proof })));
      ws.on('message', (d: Buffer) => {
        const m = JSON.parse(d.toString()) as ServerMessage;
        if (m.type === 'welcome') {
          welcome = m;
          next();
        } else if (m.type === 'result') {
          codes.push(m.result.ok ? 'ok' : m.result.error.code);
          next();
        } else if (m.type === 'refused') {
          ws.close();
          resolve({ welcome: m, codes });
        }
      });
      ws.on('error', reject);
    });

  it('a customer display’s token, and the page key it is exchanged for, open the customer’s connection only', async () => {
    const asked = await fetch(server.url + '/launch?for=customer-display', {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}` },
    });
    const { url } = (await asked.json()) as { url: string };
    expect(url).toMatch(new RegExp(`^${server.url}/customer#launch=[\\w-]{32,}$`));
    const page = await fetch(server.url + '/customer');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const token = /#launch=([\w-]+)$/.exec(url)?.[1] ?? '';
    const cashierCalls: [string, unknown][] = [
      ['session.signIn', { pin: '1111' }],
      ['sale.current', {}],
      ['customer.view', {}],
    ];
    const first = await session({ launchToken: token }, cashierCalls);
    expect(first.welcome.type).toBe('welcome');
    expect(first.codes).toEqual(['forbidden', 'forbidden', 'ok']);
    const pageKey = first.welcome.type === 'welcome' ? (first.welcome.pageKey ?? '') : '';
    // Reloaded: the page key brings back the customer's connection, not a terminal one.
    expect((await session({ pageKey }, cashierCalls)).codes).toEqual(['forbidden', 'forbidden', 'ok']);
    // The terminal's own window is a terminal connection, and the customer's commands are not its.
    const terminal = /#launch=([\w-]+)$/.exec(server.issueLaunchUrl())?.[1] ?? '';
    expect((await session({ launchToken: terminal }, cashierCalls)).codes).toEqual(['ok', 'ok', 'forbidden']);
  });

  it('serves the page with the bridge address and a strict CSP, never the secret (any local process can GET it)', async () => {
    const res = await fetch(server.url + '/');
    const html = await res.text();
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain(
      `connect-src 'self' ws://127.0.0.1:${server.port}`,
    );
    expect(html).toContain(
      `<meta name="${BRIDGE_META_NAME}" content="ws://127.0.0.1:${server.port}/bridge">`,
    );
    expect(html).not.toContain(secret);
    // Nor a launch token: those live only in the URL the terminal hands its own window.
    const launch = new URL(server.issueLaunchUrl());
    const again = await (await fetch(server.url + '/index.html')).text();
    expect(again).not.toContain(launch.hash.slice('#launch='.length));
  });

  it('requires the Origin on the socket: a client that sends none is refused', async () => {
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(server.wsUrl);
      ws.on('unexpected-response', (_req, r) => resolve(r.statusCode ?? 0));
      ws.on('open', () => {
        ws.close();
        resolve(101);
      });
    });
    expect(status).toBe(403);
  });

  it('a launch token opens one window: once, then that window reconnects with its page key', async () => {
    const launch = new URL(server.issueLaunchUrl());
    expect(launch.origin).toBe(server.url);
    const token = /^#launch=([\w-]{32,})$/.exec(launch.hash)?.[1] ?? '';
    expect(token).not.toBe('');
    const hello = (fields: Record<string, string>) =>
      new Promise<ServerMessage>((resolve, reject) => {
        const ws = new WebSocket(server.wsUrl, { headers: { origin: server.url } });
        ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', contractVersion: 1, ...fields })));
        ws.on('message', (d: Buffer) => {
          resolve(JSON.parse(d.toString()) as ServerMessage);
          ws.close();
        });
        ws.on('error', reject);
      });
    const first = await hello({ launchToken: token });
    expect(first.type).toBe('welcome');
    const pageKey = first.type === 'welcome' ? (first.pageKey ?? '') : '';
    expect(pageKey.length).toBeGreaterThanOrEqual(32);
    // The token is spent: another process that read it later gets nothing.
    expect((await hello({ launchToken: token })).type).toBe('refused');
    // The window reloads or its socket drops: its page key lets it back in.
    expect((await hello({ pageKey })).type).toBe('welcome');
    expect((await hello({ pageKey: 'x'.repeat(43) })).type).toBe('refused');
    expect((await hello({})).type).toBe('refused');
  });

  it('a tool holding the secret (bridge.json) asks for another launch URL; nobody else can', async () => {
    const ask = (auth?: string) =>
      fetch(server.url + '/launch', { method: 'POST', headers: auth ? { authorization: auth } : {} });
    expect((await ask()).status).toBe(401);
    expect((await ask('Bearer wrong')).status).toBe(401);
    const ok = await ask(`Bearer ${secret}`);
    expect(ok.status).toBe(200);
    const { url } = (await ok.json()) as { url: string };
    expect(url).toMatch(new RegExp(`^${server.url}/#launch=[\\w-]{32,}$`));
  });

  it('refuses another Host (DNS rebinding) and another Origin', async () => {
    // fetch cannot set Host; node:http can.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpGet(
        { host: '127.0.0.1', port: server.port, path: '/', headers: { host: 'attacker.example' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
    });
    expect(status).toBe(421);
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(server.wsUrl, { headers: { origin: 'https://attacker.example' } });
      ws.on('unexpected-response', (_req, r) => resolve(r.statusCode ?? 0));
      ws.on('open', () => resolve(101));
    });
    expect(refused).toBe(403);
  });

  it('echoes an unknown command name bounded and without control characters, the same over both carriers', async () => {
    // The IPC carrier (main.ts) hands any string to connection.dispatch; the WebSocket frames cap the
    // name at 200. One rule answers both: a short, printable echo.
    const ipc = lane.core.connect();
    const ws = (await connectBridge(server.wsUrl, secret)) as unknown as {
      send(c: string, p: unknown): Promise<{ ok: boolean; error?: { code: string; message: string } }>;
      close(): Promise<void>;
    };
    const hostile = `evil\u001b[2J\r\nFAKE: Approved\u0000\u2028${'x'.repeat(150)}`.slice(0, 200);
    const overIpc = await ipc.dispatch(hostile, {});
    const overWs = await ws.send(hostile, {});
    const messages = [overIpc, overWs].map((r) => (r.ok ? 'ok' : (r.error?.message ?? '')));
    for (const m of messages) {
      expect(m).toMatch(/^Unknown command evil/);
      expect(m.length).toBeLessThanOrEqual(100);
      expect(Array.from(m).filter((ch) => /\p{Cc}|\p{Zl}|\p{Zp}|\p{Cf}/u.test(ch))).toEqual([]);
    }
    expect(messages[0]).toBe(messages[1]);
    const huge = await ipc.dispatch('y'.repeat(100_000), {});
    expect(huge.ok ? 'ok' : huge.error.code).toBe('invalid');
    expect(huge.ok ? '' : huge.error.message.length).toBeLessThanOrEqual(100);
    ipc.close();
    await ws.close();
  });

  it('refuses a wrong secret', async () => {
    await expect(connectBridge(server.wsUrl, 'nope')).rejects.toThrow(/refused/);
  });

  it('carries commands, per-connection sessions and events', async () => {
    const a = await connectBridge(server.wsUrl, secret);
    const b = await connectBridge(server.wsUrl, secret);
    const unauth = await a.send('sale.open', { subtotalCents: 100 });
    expect(unauth.ok ? 'ok' : unauth.error.code).toBe('unauthorized');
    expect(value(await a.send('session.signIn', { pin: '1111' })).role).toBe('cashier');
    expect(value(await b.send('session.current', {}))).toBeNull();
    const events: string[] = [];
    b.on('sale.updated', (t) => events.push(t.ticketId));
    const t = value(await a.send('sale.open', { subtotalCents: 100 }));
    await new Promise((r) => setTimeout(r, 50));
    expect(events).toContain(t.ticketId);
    const bad = await a.send('sale.open', { subtotalCents: 1.5 });
    expect(bad.ok ? 'ok' : bad.error.code).toBe('invalid');
    // Unknown commands and non-object payloads are refused as data, not crashes.
    const raw = a as unknown as {
      send(c: string, p: unknown): Promise<{ ok: boolean; error?: { code: string } }>;
    };
    expect((await raw.send('nope.nothing', {})).error?.code).toBe('invalid');
    expect((await raw.send('sale.open', 5)).error?.code).toBe('invalid');
    await a.close();
    await b.close();
  });
});

describe('one client’s defect ends its own socket, never the process', () => {
  // A core whose connections misbehave on purpose: a dispatch that throws or rejects, an event that
  // cannot be put in a frame. Each must close the socket it happened on, and the next client is served.
  const secret = 'test-secret-0123456789abcdefghijklmnopqrstuv';
  let server: BridgeServer;
  const broken = (): BridgeConnection => {
    let relay: ((event: EventName, payload: unknown) => void) | undefined;
    return {
      id: 'broken',
      kind: 'terminal',
      dispatch(command) {
        if (command === 'throws') throw new Error('a handler bug');
        if (command === 'rejects') return Promise.reject(new Error('a dispatch bug'));
        // An event nobody can serialise (a BigInt), raised by the call.
        if (command === 'bad-event') relay?.('sale.updated', { total: 1n });
        return Promise.resolve({ ok: true, value: command });
      },
      onAny(listener) {
        relay = listener;
        return () => (relay = undefined);
      },
      send: () => Promise.resolve({ ok: false, error: { code: 'internal', message: 'unused' } }),
      on: () => () => undefined,
      close: () => undefined,
    };
  };
  beforeAll(async () => {
    server = await startBridgeServer({ connect: broken, secret, port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  const session = async (): Promise<{ ws: WebSocket; frames: ServerMessage[]; closed: Promise<void> }> => {
    const ws = new WebSocket(server.wsUrl, { headers: { origin: server.url } });
    const frames: ServerMessage[] = [];
    ws.on('message', (d: Buffer) => frames.push(JSON.parse(d.toString()) as ServerMessage));
    const closed = new Promise<void>((resolve) => ws.on('close', () => resolve()));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'hello', secret, contractVersion: 1 }));
    return { ws, frames, closed };
  };

  it.each([
    ['throws', 'a dispatch that throws'],
    ['rejects', 'a dispatch that rejects'],
    ['bad-event', 'an event that cannot be sent'],
  ])('%s: %s closes that socket only', async (command) => {
    const bystander = await session();
    const victim = await session();
    victim.ws.send(JSON.stringify({ type: 'call', id: 1, command, payload: {} }));
    await victim.closed;
    expect(victim.frames.map((f) => f.type)).toEqual(['welcome']);
    bystander.ws.send(JSON.stringify({ type: 'call', id: 2, command: 'fine', payload: {} }));
    await vi.waitFor(() => expect(bystander.frames.map((f) => f.type)).toEqual(['welcome', 'result']));
    bystander.ws.close();
  });
});

describe('roles', () => {
  // A lane per test: the PIN throttle one test trips must not decide what the next one may do.
  let lane: Lane;
  beforeEach(async () => {
    lane = await startLane({ signIn: null });
  });
  afterEach(async () => {
    await lane.close();
  });

  it('signs in by PIN, refuses wrong PINs and throttles guessing', async () => {
    const c = lane.core.connect();
    expect(value(await c.send('session.signIn', { pin: '7777' })).role).toBe('tech');
    for (let i = 0; i < 5; i++) expect((await c.send('session.signIn', { pin: '0000' })).ok).toBe(false);
    const locked = await c.send('session.signIn', { pin: '9999' });
    expect(locked.ok ? 'ok' : locked.error.message).toMatch(/Too many wrong PINs/);
    c.close();
  });

  it('keeps each role to its own work', async () => {
    const t = lane.core.connect();
    value(await t.send('session.signIn', { pin: '7777' }));
    const sale = await t.send('sale.open', { subtotalCents: 100 });
    expect(sale.ok ? 'ok' : sale.error.code).toBe('forbidden');
    expect(value(await t.send('devices.list', {})).length).toBe(7);
    expect(value(await t.send('gateway.get', {})).passwordSet).toBe(true);
    const c = lane.core.connect();
    value(await c.send('session.signIn', { pin: '1111' }));
    const g = await c.send('gateway.get', {});
    expect(g.ok ? 'ok' : g.error.code).toBe('forbidden');
    const audit = await c.send('audit.list', {});
    expect(audit.ok ? 'ok' : audit.error.code).toBe('forbidden');
    // PINs are changeable (with the current one), never to a weak one, and stored only as keyed digests.
    const weak = await c.send('session.changePin', { newPin: '9999', currentPin: '1111' });
    expect(weak.ok ? 'ok' : weak.error.code).toBe('invalid');
    value(await c.send('session.changePin', { newPin: '2468', currentPin: '1111' }));
    expect((await c.send('session.signIn', { pin: '1111' })).ok).toBe(false);
    expect(value(await c.send('session.signIn', { pin: '2468' })).role).toBe('cashier');
    const employees = await lane.core.journal.employees();
    expect(JSON.stringify(employees)).not.toContain('2468');
  });
});
