import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { createBridgeClient } from '../../common/bridge-client';
import {
  BRIDGE_CONTRACT_VERSION,
  type Bridge,
  type BridgeError,
  type Commands,
  type Events,
} from '../../common/bridge/contract';

/**
 * The bridge from Node over the browser-mode WebSocket: for tests and a store's own tools (docs/bridge.md
 * "Automation"). The same client as the screens' (common/bridge-client.ts), without their reconnect: a
 * tool's bridge ends with its socket.
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

/** Resolves once the terminal welcomed the secret; rejects if it refuses, the socket fails, or no answer. */
export function connectBridge(
  wsUrl: string,
  secret: string,
  options: { timeoutMs?: number } = {},
): Promise<RemoteBridge> {
  let socket: WebSocket | undefined;
  let failure: Error | undefined;
  const client = createBridgeClient<Commands, Events, BridgeError>({
    url: wsUrl,
    proof: { secret },
    contractVersion: BRIDGE_CONTRACT_VERSION,
    open: (url) => {
      // The server requires an Origin naming itself (a browser's page elsewhere sends its own).
      socket = new WebSocket(url, { headers: { origin: new URL(url).origin.replace(/^ws/, 'http') } });
      socket.on('error', (e) => {
        failure = e;
      });
      return socket;
    },
    schedule: (fn, ms) => {
      setTimeout(fn, ms).unref();
    },
    reconnect: false,
    messages: { lost: 'the bridge connection closed', refused: 'the bridge refused the connection' },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket?.terminate();
      reject(new Error('the bridge did not answer the hello'));
    }, options.timeoutMs ?? 10_000);
    const stop = client.onState((state, message) => {
      if (state === 'connecting') return;
      clearTimeout(timer);
      stop();
      if (state === 'open')
        resolve({
          send: (command, payload) => client.send(command, payload),
          on: (event, listener) => client.on(event, listener),
          close: () => client.close(),
        });
      else if (state === 'refused') reject(new Error(`the bridge refused the connection: ${message ?? ''}`));
      else reject(failure ?? new Error('the bridge connection closed'));
    });
  });
}
