import {
  BRIDGE_GLOBAL,
  BRIDGE_LAUNCH_PARAM,
  BRIDGE_META_NAME,
  BRIDGE_PAGE_KEY_STORAGE,
  BRIDGE_WS_PATH,
  type Bridge,
} from '../../../common/bridge/contract';
import { createWsBridge, type ConnectionState, type HelloProof, type LiveBridge } from './ws-bridge';

function isBridge(value: unknown): value is Bridge {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { send?: unknown }).send === 'function' &&
    typeof (value as { on?: unknown }).on === 'function'
  );
}

/**
 * The bridge socket's address: the page's meta tag names it; without one, BRIDGE_WS_PATH on this page's
 * own host. Anything after `#` or `?` is dropped: the page carries no secret (an older server put one
 * there), and the proof travels in the first frame.
 */
export function bridgeSocketUrl(metaContent: string | undefined, pageUrl: string): string {
  const page = new URL(pageUrl);
  const fallback = `${page.protocol === 'https:' ? 'wss:' : 'ws:'}//${page.host}${BRIDGE_WS_PATH}`;
  const text = metaContent?.trim() ?? '';
  const url = new URL(/^wss?:\/\//.test(text) || text.startsWith('/') ? text : fallback, fallback);
  url.hash = '';
  url.search = '';
  return url.toString();
}

/**
 * How this window proves the terminal opened it: the one-time token in the fragment of the URL it was
 * opened with (`#launch=…`), else the page key this tab was given for one (a reload), else nothing.
 */
export function launchProof(hash: string, storedPageKey: string | null): HelloProof | undefined {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get(BRIDGE_LAUNCH_PARAM);
  if (token && /^[\w-]{32,}$/.test(token)) return { launchToken: token };
  if (storedPageKey) return { pageKey: storedPageKey };
  return undefined;
}

/** sessionStorage, or nothing where the browser refuses it (the window then cannot survive a reload). */
function tabStorage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

export type Connected =
  | { kind: 'electron'; bridge: Bridge }
  | { kind: 'browser'; bridge: LiveBridge }
  | { kind: 'none'; message: string };

/** Electron's preload object when present, else the loopback WebSocket this window was launched for. */
export function connectBridge(): Connected {
  const global = (window as unknown as Record<string, unknown>)[BRIDGE_GLOBAL];
  if (isBridge(global)) return { kind: 'electron', bridge: global };
  const storage = tabStorage();
  const proof = launchProof(window.location.hash, storage?.getItem(BRIDGE_PAGE_KEY_STORAGE) ?? null);
  if (!proof)
    return {
      kind: 'none',
      message:
        'This page was not opened by a Tillpoint terminal. Open the address npm start printed (it carries a one-time key), or ask the terminal for a new one.',
    };
  // The token is spent by the first hello: off the address bar and out of the history at once.
  if ('launchToken' in proof)
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  const meta = document.querySelector<HTMLMetaElement>(`meta[name="${BRIDGE_META_NAME}"]`);
  const url = bridgeSocketUrl(meta?.content, window.location.href);
  return {
    kind: 'browser',
    bridge: createWsBridge(url, proof, { onPageKey: (k) => storage?.setItem(BRIDGE_PAGE_KEY_STORAGE, k) }),
  };
}

export type { ConnectionState };
