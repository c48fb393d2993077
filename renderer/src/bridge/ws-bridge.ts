import { createBridgeClient, type ConnectionState, type HelloProof } from '../../../common/bridge-client';
import {
  BRIDGE_CONTRACT_VERSION,
  type Bridge,
  type BridgeError,
  type Commands,
  type Events,
} from '../../../common/bridge/contract';

export type { ConnectionState, HelloProof };

/** The bridge plus what only browser mode has: a socket that can drop and come back. */
export type LiveBridge = Bridge & {
  state(): ConnectionState;
  onState(listener: (state: ConnectionState, message?: string) => void): () => void;
  close(): void;
};

/**
 * The browser-mode carrier (docs/bridge.md): the one client of the wire protocol (common/bridge-client.ts)
 * on the page's WebSocket, reconnecting with backoff after a drop — the screens show the connection state
 * and re-read what they show once it is back. `onPageKey` keeps the key a spent launch token was exchanged
 * for, so a reload can come back.
 */
export function createWsBridge(
  url: string,
  first: HelloProof,
  options: { onPageKey?: (pageKey: string) => void } = {},
): LiveBridge {
  const client = createBridgeClient<Commands, Events, BridgeError>({
    url,
    proof: first,
    contractVersion: BRIDGE_CONTRACT_VERSION,
    open: (address) => new WebSocket(address),
    schedule: (fn, ms) => {
      setTimeout(fn, ms);
    },
    reconnect: true,
    ...(options.onPageKey ? { onPageKey: options.onPageKey } : {}),
    messages: {
      lost: 'Lost the connection to the terminal core.',
      refused: 'The terminal core refused this window: reload the page.',
    },
  });
  return {
    send: (command, payload) => client.send(command, payload),
    on: (event, listener) => client.on(event, listener),
    state: () => client.state(),
    onState: (listener) => client.onState(listener),
    close: () => void client.close(),
  };
}
