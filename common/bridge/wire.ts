import type { WireClientMessage, WireServerMessage } from '../bridge-client';
import type { CommandName, CommandPayload, CommandValue } from './commands';
import type { BridgeError, BridgeResult } from './errors';
import type { EventName, Events } from './events';

/** The API the renderer holds (window.tillpoint in Electron; a WebSocket client in browser mode). */
export type Bridge = {
  send<K extends CommandName>(command: K, payload: CommandPayload<K>): Promise<BridgeResult<CommandValue<K>>>;
  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
};

/**
 * Browser mode: JSON text frames over ws://127.0.0.1:PORT/bridge. The protocol and its one client live in
 * common/bridge-client.ts (both the screens and Node tools use it); these are its frames for this contract.
 * The first frame carries one proof: `secret` (a tool: `<data>/bridge.json`, owner-only), `launchToken`
 * (the window the terminal opened: the one-time `#launch=` of its URL), or `pageKey` (that window again,
 * after a reload or a dropped socket).
 */
export type ClientMessage = WireClientMessage<CommandName>;
export type ServerMessage = WireServerMessage<EventName, BridgeError>;
