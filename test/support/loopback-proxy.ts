import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';

/**
 * A loopback HTTP proxy between a terminal and its gateway that plays one plan per request: the
 * connection reset before anything reaches the gateway, a wait before forwarding (a request held or
 * late), the answer dropped after the gateway committed, or the answer delayed. The fault suite
 * (test/fault/fault-proxy.ts) and the journal model's checking proxy (test/model/journal-checking-proxy.ts)
 * both build on it.
 */
export type ProxyPlan =
  | { reset: true }
  | {
      reset?: false;
      /** Awaited before the request is forwarded. */
      beforeForward?: () => Promise<void>;
      /** The gateway answered; the terminal never hears it. */
      dropResponse?: boolean;
      delayResponseMs?: number;
    };

export type LoopbackProxy = {
  readonly url: string;
  /** Requests forwarded to the gateway and not yet answered (held ones included). */
  inFlight: () => number;
  /** Resolves once nothing is in flight. */
  idle: (timeoutMs: number) => Promise<boolean>;
  close: () => Promise<void>;
};

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Answer = { status: number; type: string; body: Buffer };

function forward(upstream: URL, req: IncomingMessage, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const out = httpRequest(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: {
          'content-type': req.headers['content-type'] ?? 'application/json',
          'content-length': body.length,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 502,
            type: String(res.headers['content-type'] ?? 'application/json'),
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    out.on('error', reject);
    out.end(body);
  });
}

/** `plan` is asked synchronously once the request's body is in, before anything is forwarded. */
export async function startLoopbackProxy(
  target: string,
  plan: (req: IncomingMessage, body: Buffer) => ProxyPlan,
  onClose: () => void = () => undefined,
): Promise<LoopbackProxy> {
  const upstream = new URL(target);
  let inFlight = 0;

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const p = plan(req, body);
      if (p.reset) {
        // The connection dies before anything reaches the gateway.
        req.socket.destroy();
        return;
      }
      inFlight += 1;
      void (async () => {
        try {
          if (p.beforeForward) await p.beforeForward();
          const answer = await forward(upstream, req, body);
          if (p.dropResponse) {
            req.socket.destroy();
            return;
          }
          if (p.delayResponseMs !== undefined) await sleep(p.delayResponseMs);
          if (res.writableEnded || req.socket.destroyed) return;
          res.writeHead(answer.status, { 'content-type': answer.type, 'content-length': answer.body.length });
          res.end(answer.body);
        } catch {
          req.socket.destroy();
        } finally {
          inFlight -= 1;
        }
      })();
    });
  };

  const server: Server = createServer(handle);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    inFlight: () => inFlight,
    idle: async (timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      while (inFlight > 0) {
        if (Date.now() > deadline) return false;
        await sleep(20);
      }
      return true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        onClose();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
