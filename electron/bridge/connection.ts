import {
  CUSTOMER_DISPLAY_EVENTS,
  type Bridge,
  type BridgeResult,
  type CommandName,
  type CommandPayload,
  type CommandValue,
  type ConnectionKind,
  type EventName,
  type Events,
  type Session,
} from '../../common/bridge/contract';
import { newId } from '../util/ids';

/** One client of the bridge: a window, a browser tab, a test. Each has its own signed-in session. */
export type BridgeConnection = Bridge & {
  readonly id: string;
  /** A terminal screen or tool, or a customer display (docs/bridge.md "Customer display"). */
  readonly kind: ConnectionKind;
  /** Calls a command by name with an unchecked payload (the carriers' entry point). */
  dispatch(command: string, payload: unknown): Promise<BridgeResult<unknown>>;
  /** Every event, for carriers that forward them all. */
  onAny(listener: (event: EventName, payload: unknown) => void): () => void;
  close(): void;
};

/** What a handler knows of the connection that called it: its session. */
export type CallContext = {
  /** The connection's kind: a customer display may call the customer's commands only (dispatcher.ts). */
  kind: ConnectionKind;
  session: () => Session | null;
  setSession: (session: Session | null) => void;
};

/** Runs one command for one connection (the dispatcher). */
export type Dispatch = (
  command: string,
  payload: unknown,
  ctx: CallContext,
) => Promise<BridgeResult<unknown>>;

/** The open connections: each one's session and listeners, and the core's events relayed to all. */
export type ConnectionHub = {
  connect: (dispatch: Dispatch, kind?: ConnectionKind) => BridgeConnection;
  emit: <E extends EventName>(event: E, payload: Events[E]) => void;
  /** How many connections of `kind` are open now. */
  count: (kind: ConnectionKind) => number;
  /** Told whenever a connection opens or closes. */
  onConnections: (listener: () => void) => () => void;
  closeAll: () => void;
};

const customerEvents: ReadonlySet<EventName> = new Set(CUSTOMER_DISPLAY_EVENTS);

export function createConnectionHub(): ConnectionHub {
  const relays = new Set<(event: EventName, payload: unknown) => void>();
  const connections = new Set<BridgeConnection>();
  const watchers = new Set<() => void>();
  const changed = (): void => {
    for (const w of watchers) w();
  };

  const connect = (dispatch: Dispatch, kind: ConnectionKind = 'terminal'): BridgeConnection => {
    let session: Session | null = null;
    const own = new Map<EventName, Set<(payload: unknown) => void>>();
    const ownAny = new Set<(event: EventName, payload: unknown) => void>();
    const relay = (event: EventName, payload: unknown): void => {
      // A customer display hears the customer's view only: tickets, tenders, devices and sessions carry
      // what is the cashier's (gateway ids, first six, device trouble).
      if (kind === 'customer-display' && !customerEvents.has(event)) return;
      for (const l of own.get(event) ?? []) l(payload);
      for (const l of ownAny) l(event, payload);
    };
    // A session is this connection's own: its change is told to it alone.
    const ctx: CallContext = {
      kind,
      session: () => session,
      setSession: (s) => {
        session = s;
        relay('session.changed', s);
      },
    };
    relays.add(relay);
    const call = (command: string, payload: unknown) => dispatch(command, payload, ctx);

    const connection: BridgeConnection = {
      id: newId('C'),
      kind,
      dispatch: call,
      send<K extends CommandName>(
        command: K,
        payload: CommandPayload<K>,
      ): Promise<BridgeResult<CommandValue<K>>> {
        return call(command, payload) as Promise<BridgeResult<CommandValue<K>>>;
      },
      on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
        const set = own.get(event) ?? new Set();
        own.set(event, set);
        const l = listener as (payload: unknown) => void;
        set.add(l);
        return () => set.delete(l);
      },
      onAny(listener) {
        ownAny.add(listener);
        return () => ownAny.delete(listener);
      },
      close() {
        relays.delete(relay);
        own.clear();
        ownAny.clear();
        if (connections.delete(connection)) changed();
      },
    };
    connections.add(connection);
    changed();
    return connection;
  };

  return {
    connect,
    emit(event, payload) {
      for (const r of relays) r(event, payload);
    },
    count(kind) {
      let n = 0;
      for (const c of connections) if (c.kind === kind) n += 1;
      return n;
    },
    onConnections(listener) {
      watchers.add(listener);
      return () => watchers.delete(listener);
    },
    closeAll() {
      for (const c of [...connections]) c.close();
    },
  };
}
