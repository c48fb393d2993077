import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket, WebSocketServer } from 'ws';
import type { ClientMessage, ServerMessage } from '../../common/bridge/contract';
import { createWsBridge, type LiveBridge } from '../../renderer/src/bridge/ws-bridge';

/** The browser-mode carrier against a WebSocket server speaking the contract's wire protocol. */
describe('browser-mode bridge (WebSocket carrier)', () => {
  let wss: WebSocketServer;
  let url: string;
  let sockets: NodeWebSocket[] = [];
  let received: ClientMessage[] = [];
  let spent = false;
  let bridge: LiveBridge | undefined;
  const g = globalThis as { WebSocket?: unknown };
  const had = g.WebSocket;

  beforeEach(async () => {
    // Node 20 has no global WebSocket; `ws` implements the same addEventListener interface.
    g.WebSocket = NodeWebSocket;
    received = [];
    sockets = [];
    spent = false;
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((r) => wss.once('listening', r));
    url = `ws://127.0.0.1:${(wss.address() as { port: number }).port}/bridge`;
    wss.on('connection', (ws) => {
      sockets.push(ws);
      ws.on('message', (data: Buffer) => {
        const msg = JSON.parse(data.toString()) as ClientMessage;
        received.push(msg);
        const reply = (m: ServerMessage) => ws.send(JSON.stringify(m));
        if (msg.type === 'hello') {
          if (msg.secret === 'good') reply({ type: 'welcome', contractVersion: 1 });
          else if (msg.launchToken === 'once' && !spent) {
            spent = true;
            reply({ type: 'welcome', contractVersion: 1, pageKey: 'key-1' });
          } else if (msg.pageKey === 'key-1') reply({ type: 'welcome', contractVersion: 1 });
          else reply({ type: 'refused', message: 'wrong secret' });
        } else if (msg.command === 'session.current')
          reply({ type: 'result', id: msg.id, result: { ok: true, value: null } });
      });
    });
  });

  afterEach(async () => {
    bridge?.close();
    for (const s of sockets) s.terminate();
    await new Promise((r) => wss.close(r));
    g.WebSocket = had;
  });

  it('says hello with the secret first, queues calls until welcome, and carries events', async () => {
    bridge = createWsBridge(url, { secret: 'good' });
    const r = await bridge.send('session.current', {});
    expect(r).toEqual({ ok: true, value: null });
    expect(received[0]).toEqual({ type: 'hello', secret: 'good', contractVersion: 1 });
    expect(received[1]).toMatchObject({ type: 'call', command: 'session.current', payload: {} });
    const got: unknown[] = [];
    bridge.on('gateway.status', (s) => got.push(s));
    sockets[0]?.send(JSON.stringify({ type: 'event', event: 'gateway.status', payload: { online: false } }));
    await new Promise((r) => setTimeout(r, 50));
    expect(got).toEqual([{ online: false }]);
    expect(bridge.state()).toBe('open');
  });

  it('answers pending calls with `unavailable` when the socket drops, then reconnects', async () => {
    bridge = createWsBridge(url, { secret: 'good' });
    await bridge.send('session.current', {});
    const states: string[] = [];
    bridge.onState((s) => states.push(s));
    const pending = bridge.send('terminal.status', {});
    await new Promise((r) => setTimeout(r, 50));
    sockets[0]?.terminate();
    const r = await pending;
    expect(r.ok ? 'ok' : r.error.code).toBe('unavailable');
    await new Promise((r) => setTimeout(r, 600));
    expect(states).toContain('closed');
    expect(bridge.state()).toBe('open');
  });

  it('a window spends its launch token once and comes back with the page key it was given', async () => {
    const kept: string[] = [];
    bridge = createWsBridge(url, { launchToken: 'once' }, { onPageKey: (k) => kept.push(k) });
    expect((await bridge.send('session.current', {})).ok).toBe(true);
    expect(received[0]).toEqual({ type: 'hello', launchToken: 'once', contractVersion: 1 });
    expect(kept).toEqual(['key-1']);
    sockets[0]?.terminate();
    await new Promise((r) => setTimeout(r, 600));
    expect(bridge.state()).toBe('open');
    const hellos = received.filter((m) => m.type === 'hello');
    expect(hellos).toEqual([
      { type: 'hello', launchToken: 'once', contractVersion: 1 },
      { type: 'hello', pageKey: 'key-1', contractVersion: 1 },
    ]);
  });

  it('a wrong secret is refused and not retried', async () => {
    bridge = createWsBridge(url, { secret: 'bad' });
    const states: string[] = [];
    bridge.onState((s, m) => states.push(`${s}${m ? `:${m}` : ''}`));
    await new Promise((r) => setTimeout(r, 200));
    expect(states).toContain('refused:wrong secret');
    const r = await bridge.send('session.current', {});
    expect(r.ok ? 'ok' : r.error.code).toBe('unavailable');
  });
});
