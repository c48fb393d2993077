import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import {
  BRIDGE_CONTRACT_VERSION,
  type Bridge,
  type BridgeResult,
  type ClientMessage,
  type CommandName,
  type CommandPayload,
  type CommandValue,
  type EventName,
  type Events,
  type ServerMessage,
} from './contract';

/**
 * The bridge from Node over the browser-mode WebSocket: for tests and a store's own tools (docs/bridge.md
 * "Automation"). The browser's client is the renderer's, built on the same wire protocol.
 */
export type RemoteBridge = Bridge & { close(): Promise<void> };

/** The address and secret a running terminal writes to `<data>/bridge.json` (owner-only). */
export function readBridgeFile(dataDir: string): { url: string; wsUrl: string; secret: string } {
  return JSON.parse(readFileSync(join(dataDir, 'bridge.json'), 'utf8')) as {
    url: string;
    wsUrl: string;
    secret: string;
  };
}

export function connectBridge(
  wsUrl: string,
  secret: string,
  options: { timeoutMs?: number } = {},
): Promise<RemoteBridge> {
  // The server requires an Origin naming itself (a browser's page elsewhere sends its own).
  const ws = new WebSocket(wsUrl, { headers: { origin: new URL(wsUrl).origin.replace(/^ws/, 'http') } });
  const pending = new Map<number, (r: BridgeResult<unknown>) => void>();
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  let nextId = 1;
  let closedError: string | undefined;

  const failAll = (message: string): void => {
    closedError = message;
    for (const resolve of pending.values()) resolve({ ok: false, error: { code: 'unavailable', message } });
    pending.clear();
  };

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error('the bridge did not answer the hello'));
    }, options.timeoutMs ?? 10_000);
    ws.on('open', () => {
      ws.send(
        JSON.stringify({
          type: 'hello',
          secret,
          contractVersion: BRIDGE_CONTRACT_VERSION,
        } satisfies ClientMessage),
      );
    });
    ws.on('error', (e) => {
      clearTimeout(timer);
      failAll(e.message);
      reject(e);
    });
    ws.on('close', () => failAll('the bridge connection closed'));
    ws.on('message', (data) => {
      let m: ServerMessage;
      try {
        m = JSON.parse((data as Buffer).toString('utf8')) as ServerMessage;
      } catch {
        return;
      }
      switch (m.type) {
        case 'welcome': {
          clearTimeout(timer);
          const bridge: RemoteBridge = {
            send<K extends CommandName>(
              command: K,
              payload: CommandPayload<K>,
            ): Promise<BridgeResult<CommandValue<K>>> {
              if (closedError)
                return Promise.resolve({ ok: false, error: { code: 'unavailable', message: closedError } });
              const id = nextId++;
              return new Promise((done) => {
                pending.set(id, done as (r: BridgeResult<unknown>) => void);
                ws.send(JSON.stringify({ type: 'call', id, command, payload } satisfies ClientMessage));
              });
            },
            on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
              const set = listeners.get(event) ?? new Set();
              listeners.set(event, set);
              const l = listener as (payload: unknown) => void;
              set.add(l);
              return () => set.delete(l);
            },
            close: () =>
              new Promise<void>((done) => {
                if (ws.readyState === WebSocket.CLOSED) return done();
                ws.once('close', () => done());
                ws.close();
              }),
          };
          resolve(bridge);
          return;
        }
        case 'result':
          pending.get(m.id)?.(m.result);
          pending.delete(m.id);
          return;
        case 'event':
          for (const l of listeners.get(m.event) ?? []) l(m.payload);
          return;
        case 'refused':
          clearTimeout(timer);
          reject(new Error(`the bridge refused the connection: ${m.message}`));
          return;
      }
    });
  });
}
