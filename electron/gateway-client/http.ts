import http from 'node:http';
import https from 'node:https';
import { gatewayAddressProblem } from '../../common/gateway-address';

/**
 * One HTTP exchange with the gateway, classified by what the terminal can know about it. The line that
 * matters is whether the request may have reached the gateway: a refused connection means nothing was
 * sent (safe to call "unreachable"), while a reset or timeout after the connection opened means the
 * gateway may have acted on it (stripe-node's "a closed connection can surface after the server acted").
 */
export type HttpAnswer =
  | { kind: 'response'; status: number; body: unknown }
  /** The request never left: connection refused, name not found, connect timeout. */
  | { kind: 'not-sent'; error: string }
  /** The request may have reached the gateway but no complete answer came back. */
  | { kind: 'no-answer'; error: string };

export type HttpTransport = {
  post(path: string, body: string, timeoutMs: number): Promise<HttpAnswer>;
  /** Any method; `body` undefined sends none (GET). `path` may carry a query string. */
  request(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body: string | undefined,
    timeoutMs: number,
  ): Promise<HttpAnswer>;
  close(): void;
};

// Errors that can only happen before a single byte reached the peer.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * A keep-alive transport to `baseUrl` (which may carry a path prefix such as `/testing`). Idle sockets are
 * dropped after 4 s, well below Fastify's 72 s keep-alive: reusing a socket the server is closing would
 * turn a harmless reconnect into an unknown outcome and a needless reversal.
 */
export function createHttpTransport(baseUrl: string): HttpTransport {
  const base = new URL(baseUrl);
  // The last line of PCI DSS 4.2.1 whatever the address came from (settings, launcher, an old database):
  // nothing goes in clear to another machine; every call answers "not sent" with the reason.
  const refused = gatewayAddressProblem(base.protocol, base.hostname);
  if (refused) {
    const answer = (): Promise<HttpAnswer> => Promise.resolve({ kind: 'not-sent', error: refused });
    return { post: answer, request: answer, close: () => undefined };
  }
  const secure = base.protocol === 'https:';
  const agent = secure
    ? new https.Agent({ keepAlive: true, maxSockets: 8, timeout: 4_000 })
    : new http.Agent({ keepAlive: true, maxSockets: 8, timeout: 4_000 });
  const prefix = base.pathname.replace(/\/+$/, '');

  const transport: HttpTransport = {
    post(path, body, timeoutMs) {
      return transport.request('POST', path, body, timeoutMs);
    },
    request(method, path, body, timeoutMs) {
      return new Promise<HttpAnswer>((resolve) => {
        let settled = false;
        let connected = false;
        const finish = (answer: HttpAnswer): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(answer);
        };
        const request = (secure ? https : http).request(
          {
            protocol: base.protocol,
            hostname: base.hostname,
            port: base.port,
            method,
            path: prefix + path,
            agent,
            headers:
              body === undefined
                ? { accept: 'application/json' }
                : {
                    'content-type': 'application/json',
                    accept: 'application/json',
                    'content-length': Buffer.byteLength(body),
                  },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (c: Buffer) => chunks.push(c));
            response.on('error', (e) => finish({ kind: 'no-answer', error: e.message }));
            response.on('aborted', () => finish({ kind: 'no-answer', error: 'response aborted' }));
            response.on('end', () => {
              if (!response.complete) {
                finish({ kind: 'no-answer', error: 'response cut short' });
                return;
              }
              const text = Buffer.concat(chunks).toString('utf8');
              let parsed: unknown;
              try {
                parsed = JSON.parse(text);
              } catch {
                // A 200 with a body we cannot read is as good as no answer for a payment.
                finish({
                  kind: 'no-answer',
                  error: `unreadable response (HTTP ${response.statusCode ?? 0})`,
                });
                return;
              }
              finish({ kind: 'response', status: response.statusCode ?? 0, body: parsed });
            });
          },
        );
        request.on('socket', (socket) => {
          // A reused keep-alive socket is already connected: anything written may arrive.
          if (!socket.connecting) connected = true;
          else socket.once('connect', () => (connected = true));
        });
        request.on('error', (e: NodeJS.ErrnoException) => {
          const code = e.code ?? '';
          if (!connected && (NOT_SENT_CODES.has(code) || code === 'ETIMEDOUT' || code === 'ECONNRESET'))
            finish({ kind: 'not-sent', error: code || e.message });
          else finish({ kind: 'no-answer', error: code || e.message });
        });
        const timer = setTimeout(() => {
          const wasConnected = connected;
          request.destroy();
          finish(
            wasConnected
              ? { kind: 'no-answer', error: `no answer within ${timeoutMs} ms` }
              : { kind: 'not-sent', error: `could not connect within ${timeoutMs} ms` },
          );
        }, timeoutMs);
        request.end(body);
      });
    },
    close() {
      agent.destroy();
    },
  };
  return transport;
}
