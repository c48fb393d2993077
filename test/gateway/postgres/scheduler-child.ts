/**
 * One gateway process for the cross-process scheduler test: builds the gateway on the given PostgreSQL
 * database with a fixed clock and its timers off, says `ready`, and on `go` runs one pass of each scheduler
 * (automatic batch close, recurring billing) at once, then reports what it closed and exits.
 *
 * Run by multi-process.test.ts with child_process.fork: node --import tsx scheduler-child.ts DIR URL ISO
 */
import { buildGateway } from '../../../gateway/app';
import type { BatchCloseScheduler } from '../../../gateway/schedulers/batch-close';
import { RECURRING_BILLING_TASK } from '../../../gateway/schedulers/recurring-billing';

export type ChildMessage =
  { type: 'ready' } | { type: 'done'; closed: number[] } | { type: 'failed'; message: string };

const [dataDir, url, iso] = process.argv.slice(2);
if (!dataDir || !url || !iso) throw new Error('usage: scheduler-child.ts DIR URL ISO');
const at = new Date(iso);
const send = (m: ChildMessage) => process.send?.(m);

const gateway = await buildGateway({
  dataDir,
  database: { kind: 'postgres', url, poolSize: 4 },
  sandbox: false,
  logger: false,
  clock: { now: () => new Date(at) },
  backgroundTasks: false,
});

process.on('message', (m: unknown) => {
  if (m !== 'go') return;
  const close = gateway.tasks.get('batch-close') as BatchCloseScheduler | undefined;
  const recurring = gateway.tasks.get(RECURRING_BILLING_TASK);
  Promise.all([close?.runDue() ?? Promise.resolve([]), recurring?.runOnce()])
    .then(([runs]) => send({ type: 'done', closed: runs.map((r) => r.mid) }))
    .catch((error: unknown) => send({ type: 'failed', message: (error as Error).message }))
    .finally(() => {
      void gateway.close().then(() => process.exit(0));
    });
});
send({ type: 'ready' });
