/**
 * The bridge's browser-mode wire protocol (docs/bridge.md) and its one client, for both runtimes: the
 * screens (renderer/src/bridge/ws-bridge.ts) and Node tools and tests (electron/bridge/ws-client.ts).
 * JSON text frames over a loopback WebSocket; the first frame from the client is the proof of access.
 * Neither DOM nor Node: the socket and the timer are handed in, and the command, event and error types
 * are the contract's (common/bridge/contract.ts instantiates them).
 */

/** An answer as it travels: the value, or an error with a stable code (Electron IPC keeps no Error). */
export type WireError = { code: string; message: string };
export type WireResult<T, E extends WireError> = { ok: true; value: T } | { ok: false; error: E };

/**
 * What the first frame proves: a tool's `secret` (`<data>/bridge.json`, owner-only), the one-time
 * `launchToken` of the URL the terminal opened this window with, or the `pageKey` this window was given
 * for it (a reload or a dropped socket).
 */
export type HelloProof = { secret: string } | { launchToken: string } | { pageKey: string };

export type WireClientMessage<Command extends string> =
  | { type: 'hello'; secret?: string; launchToken?: string; pageKey?: string; contractVersion: number }
  | { type: 'call'; id: number; command: Command; payload: unknown };

export type WireServerMessage<Event extends string, E extends WireError> =
  /** `pageKey`: given once, for a spent launch token; the window keeps it to come back. */
  | { type: 'welcome'; contractVersion: number; pageKey?: string }
  | { type: 'result'; id: number; result: WireResult<unknown, E> }
  | { type: 'event'; event: Event; payload: unknown }
  /** Sent before the server closes the socket (bad proof, protocol error). */
  | { type: 'refused'; message: string };

/** The part of a WebSocket the client uses: the browser's and `ws`'s both have it. */
export type SocketLike = {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
};

const SOCKET_OPEN = 1;

export type ConnectionState = 'connecting' | 'open' | 'closed' | 'refused';

/** The answer a call gets when the client, not the core, ends it. */
export type Unavailable = { code: 'unavailable'; message: string };

type CommandMap = Record<string, { payload: unknown; value: unknown }>;

export type BridgeClient<C extends CommandMap, V extends Record<string, unknown>, E extends WireError> = {
  send<K extends keyof C & string>(
    command: K,
    payload: C[K]['payload'],
  ): Promise<WireResult<C[K]['value'], E | Unavailable>>;
  /** Subscribes to an event; returns the unsubscribe function. */
  on<K extends keyof V & string>(event: K, listener: (payload: V[K]) => void): () => void;
  state(): ConnectionState;
  onState(listener: (state: ConnectionState, message?: string) => void): () => void;
  /** Closes for good (no reconnect); resolves once the socket is closed. */
  close(): Promise<void>;
};

export type BridgeClientOptions = {
  url: string;
  proof: HelloProof;
  contractVersion: number;
  /** Opens the socket (the browser's WebSocket, or `ws` with the Origin the server requires). */
  open: (url: string) => SocketLike;
  /** Runs `fn` after `ms` (the reconnect backoff). */
  schedule: (fn: () => void, ms: number) => void;
  /** A window reconnects with backoff after a drop; a tool's client ends with its socket. */
  reconnect: boolean;
  /** Told the page key a spent launch token was exchanged for (the window keeps it for a reload). */
  onPageKey?: (pageKey: string) => void;
  /** What a call ended by a dropped socket, and one made after a refusal, answer. */
  messages: { lost: string; refused: string };
};

/**
 * A launch token is spent by the first welcome, which hands back a page key: later reconnects use that.
 * Calls made before the welcome wait for it; a dropped socket answers every pending call `unavailable`
 * (the core may still finish them: the screens re-read state after a reconnect). The core keeps a session
 * per connection, so a reconnect means signing in again.
 */
export function createBridgeClient<
  C extends CommandMap,
  V extends Record<string, unknown>,
  E extends WireError,
>(options: BridgeClientOptions): BridgeClient<C, V, E> {
  type Pending = (r: WireResult<unknown, E | Unavailable>) => void;
  let proof = options.proof;
  let socket: SocketLike | undefined;
  let state: ConnectionState = 'connecting';
  let nextId = 1;
  let closedByUs = false;
  let retryMs = 250;
  const pending = new Map<number, Pending>();
  const queued: WireClientMessage<string>[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const stateListeners = new Set<(state: ConnectionState, message?: string) => void>();
  const closeWaiters: (() => void)[] = [];
  const unavailable = (message: string): WireResult<never, Unavailable> => ({
    ok: false,
    error: { code: 'unavailable', message },
  });

  const setState = (next: ConnectionState, message?: string): void => {
    state = next;
    for (const l of stateListeners) l(next, message);
  };

  const connect = (): void => {
    setState('connecting');
    const ws = options.open(options.url);
    socket = ws;
    ws.addEventListener('open', () => {
      const hello: WireClientMessage<string> = {
        type: 'hello',
        ...proof,
        contractVersion: options.contractVersion,
      };
      ws.send(JSON.stringify(hello));
    });
    // A failed socket is closed next: the close handler decides. (Node's `ws` throws an error nobody listens to.)
    ws.addEventListener('error', () => undefined);
    ws.addEventListener('message', (ev) => {
      if (typeof ev.data !== 'string') return;
      let msg: WireServerMessage<string, E>;
      try {
        msg = JSON.parse(ev.data) as WireServerMessage<string, E>;
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
          const resolve = pending.get(msg.id);
          pending.delete(msg.id);
          resolve?.(msg.result);
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
      for (const resolve of pending.values()) resolve(unavailable(options.messages.lost));
      pending.clear();
      queued.length = 0;
      for (const done of closeWaiters.splice(0)) done();
      if (closedByUs || !options.reconnect) {
        closedByUs = true;
        if (state !== 'refused') setState('closed');
        return;
      }
      setState('closed');
      options.schedule(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    });
  };
  connect();

  return {
    send<K extends keyof C & string>(
      command: K,
      payload: C[K]['payload'],
    ): Promise<WireResult<C[K]['value'], E | Unavailable>> {
      return new Promise((resolve) => {
        if (state === 'refused') return resolve(unavailable(options.messages.refused));
        if (closedByUs) return resolve(unavailable(options.messages.lost));
        const id = nextId++;
        pending.set(id, resolve);
        const msg: WireClientMessage<string> = { type: 'call', id, command, payload };
        if (state === 'open' && socket?.readyState === SOCKET_OPEN) socket.send(JSON.stringify(msg));
        else queued.push(msg);
      });
    },
    on<K extends keyof V & string>(event: K, listener: (payload: V[K]) => void): () => void {
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
      if (state === 'closed' || state === 'refused' || !socket) return Promise.resolve();
      return new Promise<void>((done) => {
        closeWaiters.push(done);
        socket?.close();
      });
    },
  };
}
