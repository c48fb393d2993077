import {
  BRIDGE_GLOBAL,
  BRIDGE_META_NAME,
  BRIDGE_WS_PATH,
  type Bridge,
} from '../../../electron/bridge/contract';
import { createWsBridge, type ConnectionState, type LiveBridge } from './ws-bridge';

export type WsEndpoint = { url: string; secret: string };

function isBridge(value: unknown): value is Bridge {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { send?: unknown }).send === 'function' &&
    typeof (value as { on?: unknown }).on === 'function'
  );
}

/**
 * Reads the browser-mode endpoint from the served page's meta tag. The contract fixes the tag's name, not
 * the shape of its content, so the forms a server might reasonably write are all accepted: JSON
 * (`{"url": ..., "secret": ...}`), a WebSocket URL carrying `?secret=`, or the bare secret (then the socket
 * is on this page's own host at BRIDGE_WS_PATH).
 */
export function parseBridgeMeta(content: string, pageUrl: string): WsEndpoint | undefined {
  const text = content.trim();
  if (text.length === 0) return undefined;
  const page = new URL(pageUrl);
  const defaultUrl = `${page.protocol === 'https:' ? 'wss:' : 'ws:'}//${page.host}${BRIDGE_WS_PATH}`;
  if (text.startsWith('{')) {
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      const secret = parsed['secret'] ?? parsed['token'];
      const url = parsed['url'] ?? parsed['wsUrl'] ?? parsed['ws'];
      if (typeof secret !== 'string' || secret.length === 0) return undefined;
      return {
        url: typeof url === 'string' && url.length > 0 ? new URL(url, defaultUrl).toString() : defaultUrl,
        secret,
      };
    } catch {
      return undefined;
    }
  }
  if (/^wss?:\/\//.test(text) || text.startsWith('/')) {
    const url = new URL(text, defaultUrl);
    const secret = url.searchParams.get('secret') ?? url.hash.replace(/^#/, '');
    if (!secret) return undefined;
    url.searchParams.delete('secret');
    url.hash = '';
    return { url: url.toString(), secret };
  }
  return { url: defaultUrl, secret: text };
}

export type Connected =
  | { kind: 'electron'; bridge: Bridge }
  | { kind: 'browser'; bridge: LiveBridge }
  | { kind: 'none'; message: string };

/** Electron's preload object when present, else the loopback WebSocket named by the page. */
export function connectBridge(): Connected {
  const global = (window as unknown as Record<string, unknown>)[BRIDGE_GLOBAL];
  if (isBridge(global)) return { kind: 'electron', bridge: global };
  const meta = document.querySelector<HTMLMetaElement>(`meta[name="${BRIDGE_META_NAME}"]`);
  const endpoint = meta ? parseBridgeMeta(meta.content, window.location.href) : undefined;
  if (!endpoint)
    return {
      kind: 'none',
      message:
        'This page was not opened by a Tillpoint terminal. Start it with npm start and open the address it prints.',
    };
  return { kind: 'browser', bridge: createWsBridge(endpoint.url, endpoint.secret) };
}

export type { ConnectionState };
