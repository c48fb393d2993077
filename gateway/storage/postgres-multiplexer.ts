import pg from 'pg';

/**
 * Autocommit statements of many requests on a few shared connections, pipelined: a unit routine's call
 * (postgres-unit-routine.ts) is its own transaction and holds nothing between statements, so calls from
 * different requests can follow each other on one connection — each with its own Sync, so one call's
 * error is its own. Statements written in the same tick leave in one socket write (the stream is corked
 * until the tick ends), and a server process busy with the call before finds the next one waiting instead
 * of sleeping until it is woken: on a small machine a wake-up costs more than the statement.
 *
 * A call waiting for a lock holds up the calls behind it on its connection, never a lock: a queued call
 * has not started, so it cannot be part of a deadlock.
 */
export type Multiplexer = {
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
  /** Gives the connections back to the pool (they are released; the pool closes them). */
  close(): void;
};

type Corkable = { cork(): void; uncork(): void };

function streamOf(client: pg.PoolClient): Corkable | null {
  // node-postgres keeps the socket on its connection; without it the writes simply are not coalesced.
  const stream = (client as unknown as { connection?: { stream?: Partial<Corkable> } }).connection?.stream;
  return stream && typeof stream.cork === 'function' && typeof stream.uncork === 'function'
    ? (stream as Corkable)
    : null;
}

/** A failure of the connection, not of a statement: a socket error, or the server ending the session. */
function connectionLost(error: unknown): boolean {
  return !(error instanceof pg.DatabaseError) || error.severity === 'FATAL' || error.severity === 'PANIC';
}

type Lane = {
  client: pg.PoolClient | null;
  opening: Promise<pg.PoolClient> | null;
  inFlight: number;
  corked: boolean;
};

export function multiplexer(pool: pg.Pool, lanes: number): Multiplexer {
  const all: Lane[] = Array.from({ length: lanes }, () => ({
    client: null,
    opening: null,
    inFlight: 0,
    corked: false,
  }));
  let closed = false;

  async function clientOf(lane: Lane): Promise<pg.PoolClient> {
    if (lane.client) return lane.client;
    lane.opening ??= pool.connect().then(
      (client) => {
        // Held between calls, so no pool watches it: a connection the server or the network drops while
        // idle must not become an unhandled 'error' event (a crash); the lane opens another.
        client.on('error', () => drop(lane, client));
        lane.client = client;
        lane.opening = null;
        return client;
      },
      (error: unknown) => {
        lane.opening = null;
        throw error;
      },
    );
    return lane.opening;
  }

  function drop(lane: Lane, client: pg.PoolClient): void {
    // A connection that failed (not a statement): it goes, the next call opens another.
    if (lane.client !== client) return;
    lane.client = null;
    client.release(true);
  }

  return {
    async query(config) {
      if (closed) throw new Error('storage is closed');
      const lane = all.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
      lane.inFlight += 1;
      try {
        const client = lane.client ?? (await clientOf(lane));
        const stream = streamOf(client);
        if (stream && !lane.corked) {
          lane.corked = true;
          stream.cork();
          process.nextTick(() => {
            lane.corked = false;
            stream.uncork();
          });
        }
        try {
          return await client.query(config);
        } catch (error) {
          if (connectionLost(error)) drop(lane, client);
          throw error;
        }
      } finally {
        lane.inFlight -= 1;
      }
    },
    close() {
      closed = true;
      for (const lane of all) {
        lane.client?.release();
        lane.client = null;
      }
    },
  };
}
