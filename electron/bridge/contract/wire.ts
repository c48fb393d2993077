import type { CommandName, CommandPayload, CommandValue } from './commands';
import type { BridgeResult } from './errors';
import type { EventName, Events } from './events';

export type Bridge = {
  send<K extends CommandName>(command: K, payload: CommandPayload<K>): Promise<BridgeResult<CommandValue<K>>>;
  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
};

// =====================================================================================================
// Browser-mode wire protocol (JSON text frames over ws://127.0.0.1:PORT/bridge)

export type ClientMessage =
  /**
   * First frame, with one proof: `secret` (a tool: `<data>/bridge.json`, owner-only), `launchToken` (the
   * window the terminal opened: the one-time `#launch=` of its URL), or `pageKey` (that window again,
   * after a reload or a dropped socket).
   */
  | { type: 'hello'; secret?: string; launchToken?: string; pageKey?: string; contractVersion: number }
  | { type: 'call'; id: number; command: CommandName; payload: unknown };

export type ServerMessage =
  /** `pageKey`: given once, for a spent launch token; the window keeps it to come back. */
  | { type: 'welcome'; contractVersion: number; pageKey?: string }
  | { type: 'result'; id: number; result: BridgeResult<unknown> }
  | { type: 'event'; event: EventName; payload: unknown }
  /** Sent before the server closes the socket (bad secret, protocol error). */
  | { type: 'refused'; message: string };
