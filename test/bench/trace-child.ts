// Loaded into a spawned gateway with `--import ./test/bench/trace-child.ts` (stall-hunt.ts): records what
// its node-postgres does (test/support/pg-trace.ts) and writes it as JSON to $TILLPOINT_PG_TRACE_FILE when
// the process exits. Times are `performance.timeOrigin + performance.now()`, comparable across processes.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { tracePg } from '../support/pg-trace';

const file = process.env.TILLPOINT_PG_TRACE_FILE;
if (file) {
  const trace = tracePg();
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  // Event-loop stalls of this process, as a list: a sampler that notices when it ran late.
  const stalls: { at: number; ms: number }[] = [];
  let expected = performance.now() + 10;
  const sampler = setInterval(() => {
    const now = performance.now();
    if (now - expected > 20) stalls.push({ at: performance.timeOrigin + expected, ms: now - expected });
    expected = now + 10;
  }, 10);
  sampler.unref();
  const origin = performance.timeOrigin;
  process.on('exit', () => {
    writeFileSync(
      file,
      JSON.stringify({
        statements: trace.statements.map((s) => ({ ...s, startedAt: origin + s.startedAt })),
        poolWaits: trace.poolWaits.map((w) => ({ ...w, startedAt: origin + w.startedAt })),
        connections: trace.connections.map((c) => ({ ...c, startedAt: origin + c.startedAt })),
        stalls,
        loopP99: loop.percentile(99) / 1e6,
        loopMax: loop.max / 1e6,
      }),
    );
  });
}
