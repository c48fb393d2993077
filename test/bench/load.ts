import { Pool } from 'undici';

/** Latencies in ms: percentiles of a sorted copy. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}

export type LoadResult = {
  completed: number;
  ok: number;
  errors: number;
  seconds: number;
  rate: number;
  p50: number;
  p99: number;
  max: number;
};

function summarize(latencies: number[], ok: number, errors: number, seconds: number): LoadResult {
  const sorted = latencies.slice().sort((a, b) => a - b);
  return {
    completed: latencies.length,
    ok,
    errors,
    seconds,
    rate: latencies.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? NaN,
  };
}

export type Target = {
  url: string;
  path: string;
  /** The body of request number i (each sale needs its own UserTransactionNumber). */
  body: (i: number) => string;
  /** Whether an answer counts as success. */
  accept: (json: { ResponseCode?: unknown }) => boolean;
  onAnswer?: (i: number, json: { ResponseCode?: unknown }) => void;
  /** Closed loop: the clients stop early once this says so (a run cut short on purpose, e.g. by a kill). */
  done?: () => boolean;
  /** Open model: each counted request's due time (performance.timeOrigin-based, ms) and latency. */
  onLatency?: (dueAt: number, latencyMs: number) => void;
};

async function send(pool: Pool, t: Target, i: number): Promise<{ ok: boolean }> {
  const res = await pool.request({
    method: 'POST',
    path: t.path,
    headers: { 'content-type': 'application/json' },
    body: t.body(i),
  });
  const json = (await res.body.json()) as { ResponseCode?: unknown };
  t.onAnswer?.(i, json);
  return { ok: res.statusCode === 200 && t.accept(json) };
}

/** Closed loop: `concurrency` clients, each sending its next request when the last one is answered. */
export async function closedLoop(
  t: Target,
  concurrency: number,
  seconds: number,
  warmupSeconds = 1,
): Promise<LoadResult> {
  const pool = new Pool(t.url, { connections: concurrency, pipelining: 1, keepAliveTimeout: 30_000 });
  let next = 0;
  const latencies: number[] = [];
  let ok = 0;
  let errors = 0;
  const warmEnd = performance.now() + warmupSeconds * 1000;
  const end = warmEnd + seconds * 1000;
  const client = async () => {
    for (;;) {
      const started = performance.now();
      if (started >= end || t.done?.()) return;
      const i = next++;
      try {
        const r = await send(pool, t, i);
        if (started >= warmEnd) {
          latencies.push(performance.now() - started);
          if (r.ok) ok += 1;
          else errors += 1;
        }
      } catch {
        if (started >= warmEnd) errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  await pool.close();
  return summarize(latencies, ok, errors, seconds);
}

/**
 * Open model: requests leave at a fixed arrival rate whatever the answers do, and each latency counts from
 * the moment its request was DUE, so a stall shows in the tail instead of silently slowing the senders
 * (no coordinated omission).
 */
export async function openModel(
  t: Target,
  ratePerSecond: number,
  seconds: number,
  maxConnections = 256,
  // Sent at the same rate but not counted: a gateway that has just started compiles its code paths and
  // verifies its first credential, and that once-per-process cost would otherwise be most of the p99.
  warmupSeconds = 2,
): Promise<LoadResult> {
  const pool = new Pool(t.url, { connections: maxConnections, pipelining: 1, keepAliveTimeout: 30_000 });
  const latencies: number[] = [];
  let ok = 0;
  let errors = 0;
  const warmup = Math.round(ratePerSecond * warmupSeconds);
  const total = warmup + Math.round(ratePerSecond * seconds);
  const interval = 1000 / ratePerSecond;
  const start = performance.now() + 50;
  const inflight: Promise<void>[] = [];
  let i = 0;
  while (i < total) {
    const now = performance.now();
    // Send every request that is due by now, then sleep until the next is due.
    while (i < total && start + i * interval <= now) {
      const due = start + i * interval;
      const n = i;
      const counted = n >= warmup;
      inflight.push(
        send(pool, t, n).then(
          (r) => {
            if (!counted) return;
            latencies.push(performance.now() - due);
            t.onLatency?.(performance.timeOrigin + due, performance.now() - due);
            if (r.ok) ok += 1;
            else errors += 1;
          },
          () => {
            if (!counted) return;
            latencies.push(performance.now() - due);
            errors += 1;
          },
        ),
      );
      i += 1;
    }
    const wait = start + i * interval - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, Math.min(wait, 5)));
    else await new Promise((r) => setImmediate(r));
  }
  await Promise.all(inflight);
  await pool.close();
  return summarize(latencies, ok, errors, seconds);
}

export function fmt(r: LoadResult): string {
  return `${r.rate.toFixed(0)}/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  max ${r.max.toFixed(1)} ms  (${r.ok} ok, ${r.errors} errors)`;
}
