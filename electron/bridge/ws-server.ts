import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  BRIDGE_CONTRACT_VERSION,
  BRIDGE_META_NAME,
  BRIDGE_WS_PATH,
  CUSTOMER_DISPLAY_LAUNCH_QUERY,
  CUSTOMER_DISPLAY_PATH,
  type ConnectionKind,
  type ServerMessage,
} from '../../common/bridge/contract';
import { readClientFrame } from './client-frame';
import type { BridgeConnection } from './connection';
import { newSecret } from '../util/ids';

/**
 * Browser mode (docs/decisions.md#bridge): the renderer served over loopback and the same bridge over a
 * WebSocket. Locks that keep other software off it:
 * - it listens on 127.0.0.1 only, and the Host header must name it (no DNS-rebinding name);
 * - a socket must carry an Origin naming this server (a browser always sends one: a page elsewhere is
 *   refused; a tool must say it is ours too);
 * - the first frame must prove the client was handed access. The served page is public to every local
 *   process, so it carries no secret. Instead: a tool reads the per-launch secret from the owner-only
 *   `bridge.json`; the window the terminal opens gets a one-time launch token in its URL's fragment
 *   (`/#launch=…`: never sent to a server, never in served HTML), which the first hello spends for a page
 *   key the window keeps (sessionStorage) to reconnect and reload. A tool holding the secret may ask for
 *   another launch URL (`POST /launch`, `Authorization: Bearer <secret>`).
 * - a customer display's launch token (`/customer#launch=…`, `POST /launch?for=customer-display`) and the
 *   page key it is exchanged for open a `customer-display` connection: the customer's view and commands
 *   only, whatever the page asks (the kind is the server's to say, never the page's).
 */

export type BridgeServerOptions = {
  connect(kind: ConnectionKind): BridgeConnection;
  secret: string;
  port: number;
  /** The built renderer (index.html and assets); a placeholder page is served when absent. */
  staticDir?: string;
  /** Extra text for the placeholder page. */
  placeholderNote?: string;
  log?: (message: string) => void;
};

export type BridgeServer = {
  readonly port: number;
  readonly url: string;
  readonly wsUrl: string;
  /**
   * A URL for one window: this server's page with a one-time launch token in its fragment — a terminal
   * window, or (`customer-display`) the customer display's page, whose token opens a customer connection.
   */
  issueLaunchUrl(kind?: ConnectionKind): string;
  close(): Promise<void>;
};

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** The page's Content-Security-Policy: scripts from this origin only, the bridge socket the one connection. */
export function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Inline style attributes are not a script vector; charts and React style props need them.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function escapeAttribute(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function placeholderPage(note: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tillpoint terminal</title></head>
<body><main><h1>Tillpoint terminal</h1>
<p>The terminal core is running. The screens (renderer) are not built yet: run <code>npm run build:renderer</code> and reload.</p>
<p>${note.replace(/</g, '&lt;')}</p>
<p>Automation clients connect to the bridge as docs/bridge.md describes.</p>
</main></body></html>`;
}

function sameSecret(given: unknown, secret: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Launch tokens not yet spent and page keys handed out, compared by keyed hash (no timing on the text). */
function credentialSet(): { add(v: string): void; take(v: unknown): boolean; has(v: unknown): boolean } {
  const key = randomBytes(32);
  const digest = (v: string): string => createHmac('sha256', key).update(v).digest('base64url');
  const held = new Set<string>();
  return {
    add: (v) => void held.add(digest(v)),
    take: (v) => typeof v === 'string' && held.delete(digest(v)),
    has: (v) => typeof v === 'string' && held.has(digest(v)),
  };
}

/** An error's kind only: a message may quote what a client sent, and a client may send a card number. */
const errorName = (error: unknown): string => (error instanceof Error ? error.name : typeof error);

/** A text frame's bytes as text (`ws` hands a Buffer, or fragments of one). */
function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString('utf8');
}

/** At most this many launch URLs wait to be used: an old, unused one is dropped first. */
const MAX_OPEN_LAUNCHES = 16;

export function startBridgeServer(options: BridgeServerOptions): Promise<BridgeServer> {
  const log = options.log ?? (() => undefined);
  let port = options.port;
  const allowedHosts = (): Set<string> => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = (): Set<string> => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  const staticRoot =
    options.staticDir && existsSync(join(options.staticDir, 'index.html'))
      ? resolve(options.staticDir)
      : undefined;

  const send = (
    res: ServerResponse,
    status: number,
    type: string,
    body: string | Buffer,
    extra: Record<string, string> = {},
  ): void => {
    res.writeHead(status, {
      'content-type': type,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      ...extra,
    });
    res.end(body);
  };

  // One set per connection kind: a token or page key proves its kind by the set it is found in.
  const launchTokens: Record<ConnectionKind, ReturnType<typeof credentialSet>> = {
    terminal: credentialSet(),
    'customer-display': credentialSet(),
  };
  const pageKeys: Record<ConnectionKind, ReturnType<typeof credentialSet>> = {
    terminal: credentialSet(),
    'customer-display': credentialSet(),
  };
  const openLaunches: { kind: ConnectionKind; token: string }[] = [];
  const issueLaunchUrl = (kind: ConnectionKind = 'terminal'): string => {
    const token = newSecret();
    launchTokens[kind].add(token);
    openLaunches.push({ kind, token });
    if (openLaunches.length > MAX_OPEN_LAUNCHES) {
      const old = openLaunches.shift();
      if (old) launchTokens[old.kind].take(old.token);
    }
    const path = kind === 'customer-display' ? CUSTOMER_DISPLAY_PATH : '/';
    return `http://127.0.0.1:${port}${path}#launch=${token}`;
  };

  const indexHtml = (): string => {
    // The socket's address only: the page learns how to prove itself from its own URL (see above).
    const meta = `<meta name="${BRIDGE_META_NAME}" content="${escapeAttribute(`ws://127.0.0.1:${port}${BRIDGE_WS_PATH}`)}">`;
    const csp = `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(contentSecurityPolicy(port))}">`;
    const html = staticRoot
      ? readFileSync(join(staticRoot, 'index.html'), 'utf8')
      : placeholderPage(options.placeholderNote ?? '');
    return html.includes('<head>')
      ? html.replace('<head>', `<head>\n${csp}\n${meta}`)
      : `${csp}${meta}${html}`;
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (!allowedHosts().has(req.headers.host ?? '')) {
      send(res, 421, 'text/plain; charset=utf-8', 'Misdirected request');
      return;
    }
    const asked = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (req.method === 'POST' && asked.pathname === '/launch') {
      // A tool holding the secret opens another window (a second screen, the customer display, the e2e
      // harness).
      const auth = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
      req.resume();
      if (!sameSecret(auth, options.secret)) {
        send(res, 401, 'text/plain; charset=utf-8', 'Unauthorized');
        return;
      }
      const kind: ConnectionKind =
        asked.searchParams.get('for') === CUSTOMER_DISPLAY_LAUNCH_QUERY ? 'customer-display' : 'terminal';
      send(res, 200, 'application/json', JSON.stringify({ url: issueLaunchUrl(kind) }));
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed', { allow: 'GET, HEAD' });
      return;
    }
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const headers = { 'content-security-policy': contentSecurityPolicy(port), 'x-frame-options': 'DENY' };
    if (url.pathname === '/' || url.pathname === '/index.html' || url.pathname === CUSTOMER_DISPLAY_PATH) {
      send(res, 200, MIME['.html'] ?? 'text/html', indexHtml(), headers);
      return;
    }
    if (staticRoot) {
      let path: string;
      try {
        path = normalize(join(staticRoot, decodeURIComponent(url.pathname)));
      } catch {
        send(res, 400, 'text/plain; charset=utf-8', 'Bad path');
        return;
      }
      if (path.startsWith(staticRoot + sep) && existsSync(path) && statSync(path).isFile()) {
        send(res, 200, MIME[extname(path)] ?? 'application/octet-stream', readFileSync(path), headers);
        return;
      }
      // A client-side route: the single-page app answers it.
      if (!extname(url.pathname)) {
        send(res, 200, MIME['.html'] ?? 'text/html', indexHtml(), headers);
        return;
      }
    }
    send(res, 404, 'text/plain; charset=utf-8', 'Not found');
  };

  const server: Server = createServer(handle);
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    // A browser always sends the Origin, and it must be this page; a client that sends none is refused
    // (ws-client.ts sends this server's origin).
    const originOk = allowedOrigins().has(req.headers.origin ?? '');
    if (url.pathname !== BRIDGE_WS_PATH || !allowedHosts().has(req.headers.host ?? '') || !originOk) {
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws));
  });

  /**
   * One socket, one client. Every frame is checked against the protocol's schema before it is read
   * (client-frame.ts), and a defect anywhere in this socket's handling — a frame, an answer or event that
   * cannot be sent, a dispatch that fails — ends this socket alone: a terminal must not stop mid-sale
   * because one client sent one bad frame.
   */
  function serve(ws: WebSocket): void {
    let connection: BridgeConnection | undefined;
    let ended = false;
    const end = (why: string): void => {
      if (ended) return;
      ended = true;
      log(`bridge: a WebSocket client was disconnected (${why})`);
      connection?.close();
      ws.terminate();
    };
    const out = (m: ServerMessage): void => {
      if (ended || ws.readyState !== ws.OPEN) return;
      try {
        ws.send(JSON.stringify(m));
      } catch (error) {
        end(`an answer could not be sent: ${errorName(error)}`);
      }
    };
    const refuse = (message: string): void => {
      out({ type: 'refused', message });
      ws.close(4001, 'refused');
    };
    // A client that never says hello is dropped.
    const helloTimer = setTimeout(() => refuse('No hello within 10 s.'), 10_000);
    const onFrame = (data: RawData, isBinary: boolean): void => {
      if (isBinary) return refuse('Text frames only.');
      const read = readClientFrame(rawText(data));
      if (!read.ok) return refuse(read.why);
      const message = read.frame;
      if (!connection) {
        if (message.type !== 'hello') return refuse('Say hello first.');
        let pageKey: string | undefined;
        let kind: ConnectionKind = 'terminal';
        if (sameSecret(message.secret, options.secret) || pageKeys.terminal.has(message.pageKey)) {
          // A tool, or a window this server let in before (a reload, a dropped socket).
        } else if (pageKeys['customer-display'].has(message.pageKey)) {
          kind = 'customer-display';
        } else if (launchTokens.terminal.take(message.launchToken)) {
          pageKey = newSecret();
          pageKeys.terminal.add(pageKey);
        } else if (launchTokens['customer-display'].take(message.launchToken)) {
          kind = 'customer-display';
          pageKey = newSecret();
          pageKeys['customer-display'].add(pageKey);
        } else {
          log('bridge: a WebSocket client gave no valid secret, launch token or page key');
          return refuse('this window was not opened by the terminal (open the address it printed)');
        }
        clearTimeout(helloTimer);
        connection = options.connect(kind);
        connection.onAny((event, payload) => out({ type: 'event', event, payload }));
        out({ type: 'welcome', contractVersion: BRIDGE_CONTRACT_VERSION, ...(pageKey ? { pageKey } : {}) });
        return;
      }
      if (message.type !== 'call') return refuse('Expected a call.');
      const { id, command, payload } = message;
      connection.dispatch(command, payload).then(
        (result) => out({ type: 'result', id, result }),
        (error: unknown) => end(`a call could not be answered: ${errorName(error)}`),
      );
    };
    ws.on('message', (data, isBinary) => {
      if (ended) return;
      try {
        onFrame(data, isBinary);
      } catch (error) {
        end(`a frame could not be handled: ${errorName(error)}`);
      }
    });
    ws.on('close', () => {
      clearTimeout(helloTimer);
      connection?.close();
    });
    ws.on('error', () => connection?.close());
  }

  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      const address = server.address();
      port = typeof address === 'object' && address ? address.port : options.port;
      server.off('error', reject);
      resolvePromise({
        port,
        url: `http://127.0.0.1:${port}`,
        wsUrl: `ws://127.0.0.1:${port}${BRIDGE_WS_PATH}`,
        issueLaunchUrl,
        close: () =>
          new Promise<void>((done) => {
            for (const c of wss.clients) c.terminate();
            wss.close();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
