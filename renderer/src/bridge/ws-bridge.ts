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
} from '../../../electron/bridge/contract';

export type ConnectionState = 'connecting' | 'open' | 'closed' | 'refused';

/** The bridge plus what only browser mode has: a socket that can drop and come back. */
export type LiveBridge = Bridge & {
  state(): ConnectionState;
  onState(listener: (state: ConnectionState, message?: string) => void): () => void;
  close(): void;
};

type Pending = { resolve: (r: BridgeResult<unknown>) => void };

const lost = (message: string): BridgeResult<never> => ({
  ok: false,
  error: { code: 'unavailable', message },
});

/**
 * What the first frame proves: a tool's `secret`, the one-time `launchToken` of the URL the terminal
 * opened this window with, or the `pageKey` this window was given for it (docs/bridge.md).
 */
export type HelloProof = { secret: string } | { launchToken: string } | { pageKey: string };

/**
 * The browser-mode carrier (docs/bridge.md): JSON frames over a loopback WebSocket, the first one the
 * proof of access. A launch token is spent by the first welcome, which hands back a page key: later
 * reconnects (and, through `onPageKey`, a reload) use that. Calls made before the welcome wait for it; a
 * dropped socket answers every pending call with `unavailable` (the core may still finish them: the
 * screens re-read state after a reconnect) and reconnects with backoff. The core keeps a session per
 * connection, so a reconnect means signing in again.
 */
export function createWsBridge(
  url: string,
  first: HelloProof,
  options: { onPageKey?: (pageKey: string) => void } = {},
): LiveBridge {
  let proof: HelloProof = first;
  let socket: WebSocket | undefined;
  let state: ConnectionState = 'connecting';
  let nextId = 1;
  let closedByUs = false;
  let retryMs = 250;
  const pending = new Map<number, Pending>();
  const queued: ClientMessage[] = [];
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const stateListeners = new Set<(state: ConnectionState, message?: string) => void>();

  const setState = (next: ConnectionState, message?: string): void => {
    state = next;
    for (const l of stateListeners) l(next, message);
  };

  const open = (): void => {
    setState('connecting');
    const ws = new WebSocket(url);
    socket = ws;
    ws.addEventListener('open', () => {
      const hello: ClientMessage = { type: 'hello', ...proof, contractVersion: BRIDGE_CONTRACT_VERSION };
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener('message', (ev: MessageEvent<unknown>) => {
      if (typeof ev.data !== 'string') return;
      let msg: ServerMessage;
      try {
        msg = JSON.parse(ev.data) as ServerMessage;
      } catch {
        return;
      }
      switch (msg.type) {
        case 'welcome':
          if (msg.pageKey) {
            proof = { pageKey: msg.pageKey };
            options.onPageKey?.(msg.pageKey);
          }
          retryMs = 250;
          setState('open');
          for (const m of queued.splice(0)) ws.send(JSON.stringify(m));
          return;
        case 'result': {
          const p = pending.get(msg.id);
          pending.delete(msg.id);
          p?.resolve(msg.result);
          return;
        }
        case 'event':
          for (const l of listeners.get(msg.event) ?? []) l(msg.payload);
          return;
        case 'refused':
          closedByUs = true;
          setState('refused', msg.message);
          return;
      }
    });
    ws.addEventListener('close', () => {
      for (const p of pending.values()) p.resolve(lost('Lost the connection to the terminal core.'));
      pending.clear();
      queued.length = 0;
      if (closedByUs) {
        if (state !== 'refused') setState('closed');
        return;
      }
      setState('closed');
      setTimeout(open, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    });
  };
  open();

  return {
    send<K extends CommandName>(
      command: K,
      payload: CommandPayload<K>,
    ): Promise<BridgeResult<CommandValue<K>>> {
      return new Promise((resolve) => {
        if (state === 'refused' || closedByUs) {
          resolve(lost('The terminal core refused this window: reload the page.'));
          return;
        }
        const id = nextId++;
        pending.set(id, { resolve: resolve as (r: BridgeResult<unknown>) => void });
        const msg: ClientMessage = { type: 'call', id, command, payload };
        if (state === 'open' && socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
        else queued.push(msg);
      });
    },
    on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      const l = listener as (payload: unknown) => void;
      set.add(l);
      return () => set.delete(l);
    },
    state: () => state,
    onState(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    close() {
      closedByUs = true;
      socket?.close();
    },
  };
}
