import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';

/**
 * A loopback HTTP proxy between the terminal and the gateway that injects the faults a store's network
 * produces: a request held back (it reaches the gateway late, after the terminal gave up), a response held
 * back, the response dropped after the gateway committed the payment, and the connection reset before the
 * request was forwarded.
 */
export type Fault = 'pass' | 'delay-request' | 'delay-response' | 'drop-response' | 'reset';

export type FaultPolicy = (path: string) => { fault: Fault; delayMs: number };

export type FaultProxy = {
  readonly url: string;
  setPolicy(policy: FaultPolicy): void;
  readonly counts: Record<Fault, number>;
  /** Requests forwarded to the gateway and not yet answered (held ones included). */
  inFlight(): number;
  /** Resolves once nothing is in flight. */
  idle(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
};

export const passThrough: FaultPolicy = () => ({ fault: 'pass', delayMs: 0 });

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  let policy: FaultPolicy = passThrough;
  let inFlight = 0;
  const counts: Record<Fault, number> = {
    pass: 0,
    'delay-request': 0,
    'delay-response': 0,
    'drop-response': 0,
    reset: 0,
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  const forward = (
    req: IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> =>
    new Promise((resolve, reject) => {
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
              headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') },
              body: Buffer.concat(chunks),
            }),
          );
          res.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const { fault, delayMs } = policy(req.url ?? '/');
      counts[fault] += 1;
      if (fault === 'reset') {
        // The connection dies before anything reaches the gateway.
        req.socket.destroy();
        return;
      }
      inFlight += 1;
      void (async () => {
        try {
          if (fault === 'delay-request') await sleep(delayMs);
          const answer = await forward(req, body);
          if (fault === 'drop-response') {
            // The gateway committed and answered; the terminal never hears it.
            req.socket.destroy();
            return;
          }
          if (fault === 'delay-response') await sleep(delayMs);
          if (res.writableEnded || req.socket.destroyed) return;
          res.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.length });
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
    setPolicy(p) {
      policy = p;
    },
    counts,
    inFlight: () => inFlight,
    async idle(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (inFlight > 0) {
        if (Date.now() > deadline) return false;
        await sleep(20);
      }
      return true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
