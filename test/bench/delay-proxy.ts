import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on loopback that holds every chunk for `delayMs` in each direction: a database on another
 * host, for the benchmark. It also counts round trips: on each connection, every time the client speaks
 * after the server last spoke is one (a request that waited for an answer), which is what a network's
 * latency is paid on, whatever the statements inside it.
 *
 * Node's timers have millisecond resolution and fire late: a timer covers the delay but its last
 * millisecond, which is waited out by polling the event loop (setImmediate) only while a chunk is in
 * flight; the delay actually applied is measured and reported.
 */
export type DelayProxy = {
  port: number;
  /** `postgres://…@127.0.0.1:<proxy port>/…` for a URL that pointed at the target. */
  rewrite(url: string): string;
  stats(): ProxyStats;
  resetStats(): void;
  close(): Promise<void>;
};

export type ProxyStats = {
  roundTrips: number;
  chunks: number;
  /** Mean delay actually added to a chunk, ms. */
  meanDelayMs: number;
};

export async function startDelayProxy(
  target: { host: string; port: number },
  delayMs: number,
): Promise<DelayProxy> {
  let roundTrips = 0;
  let chunks = 0;
  let delayTotal = 0;
  const sockets = new Set<Socket>();

  const forward = (from: Socket, to: Socket, onChunk: () => void) => {
    // One queue per direction: chunks leave in the order they came, each `delayMs` after its arrival.
    const queue: { due: number; data: Buffer; arrived: number }[] = [];
    let pumping = false;
    const pump = () => {
      const now = performance.now();
      while (queue.length > 0 && (queue[0]?.due ?? Infinity) <= now) {
        const item = queue.shift();
        if (!item) break;
        delayTotal += now - item.arrived;
        chunks += 1;
        if (!to.destroyed) to.write(item.data);
      }
      const next = queue[0];
      if (!next) {
        pumping = false;
        return;
      }
      schedule(next.due - performance.now());
    };
    const schedule = (wait: number) => {
      if (wait >= 2) setTimeout(pump, Math.floor(wait - 1));
      else setImmediate(pump);
    };
    from.on('data', (data: Buffer) => {
      onChunk();
      const arrived = performance.now();
      queue.push({ due: arrived + delayMs, data, arrived });
      if (!pumping) {
        pumping = true;
        schedule(delayMs);
      }
    });
  };

  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: target.host, port: target.port });
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    sockets.add(client);
    sockets.add(upstream);
    let lastSpoke: 'client' | 'server' | null = null;
    forward(client, upstream, () => {
      if (lastSpoke !== 'client') roundTrips += 1;
      lastSpoke = 'client';
    });
    forward(upstream, client, () => {
      lastSpoke = 'server';
    });
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', closeBoth);
    upstream.on('close', closeBoth);
    client.on('error', closeBoth);
    upstream.on('error', closeBoth);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy did not listen');
  const port = address.port;
  return {
    port,
    rewrite(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    stats: () => ({ roundTrips, chunks, meanDelayMs: chunks === 0 ? 0 : delayTotal / chunks }),
    resetStats() {
      roundTrips = 0;
      chunks = 0;
      delayTotal = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
