import type { BackgroundTask } from './background-task';
import { dueLocalDate, scheduleOf } from '../domain/batch-close/schedule';
import type { Clock } from '../domain/clock';
import { settleOpenBatch } from '../domain/batch-close/settlement';
import type { Storage } from '../domain/context';
import {
  claimCloseRun,
  closeRunClaimed,
  closeScheduleRows,
  recordCloseRun,
} from '../domain/batch-close/runs';

export const BATCH_CLOSE_TASK = 'batch-close';

export type BatchCloseSchedulerOptions = {
  /** How often a pass looks for merchants whose close time has come (30 s by default). */
  intervalMs?: number;
  /** Where a failed close is reported; the next pass does not retry that day (see below). */
  onError?: (message: string, error: unknown) => void;
};

export type BatchCloseRun = {
  mid: number;
  localDate: string;
  settlementId: number | null;
  amountCents: number;
};

export type BatchCloseScheduler = BackgroundTask & {
  /** One pass now, at the clock's time; the closes it made. */
  runDue(): Promise<BatchCloseRun[]>;
};

/**
 * Automatic batch close: at each enrolled merchant's closing time (its own time zone), its open batch is
 * settled, once per merchant and local day — also across restarts and several gateway processes on one
 * database. The claim comes first: a `batch_close_runs` row whose primary key is (mid, local_date), inserted
 * in its own unit of work before settling; whoever fails to insert it does not settle. The settlement is
 * then recorded on the claim. A process that dies between the claim and the settlement leaves that day
 * unsettled rather than risk settling twice; the next day's close settles the batch, which stayed open.
 */
export function createBatchCloseScheduler(
  services: { storage: Storage; clock: Clock },
  options: BatchCloseSchedulerOptions = {},
): BatchCloseScheduler {
  const intervalMs = options.intervalMs ?? 30_000;
  const report = options.onError ?? (() => undefined);
  const { storage, clock } = services;
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  // Passes never overlap in one process: each waits for the one before it.
  let chain: Promise<BatchCloseRun[]> = Promise.resolve([]);

  async function pass(): Promise<BatchCloseRun[]> {
    const now = clock.now();
    const merchants = await closeScheduleRows(storage.read);
    const runs: BatchCloseRun[] = [];
    for (const m of merchants) {
      const localDate = dueLocalDate(scheduleOf(m), now);
      if (localDate === null) continue;
      try {
        if (await closeRunClaimed(storage.read, m.mid, localDate)) continue;
        if (!(await claimCloseRun(storage, m.mid, localDate, now.toISOString()))) continue;
        const settled = await settleOpenBatch(storage, m.mid, now);
        await recordCloseRun(storage, m.mid, localDate, settled.settlementId, clock.now().toISOString());
        runs.push({
          mid: m.mid,
          localDate,
          settlementId: settled.settlementId,
          amountCents: settled.amountCents,
        });
      } catch (error) {
        report(`automatic batch close of merchant ${m.mid} failed`, error);
      }
    }
    return runs;
  }

  const runDue = (): Promise<BatchCloseRun[]> => {
    const next = chain.then(pass, pass);
    chain = next.catch((error: unknown) => {
      report('automatic batch close pass failed', error);
      return [];
    });
    return next;
  };

  const tick = () => {
    timer = null;
    void runDue()
      .catch(() => undefined)
      .finally(() => {
        if (running) {
          timer = setTimeout(tick, intervalMs);
          timer.unref();
        }
      });
  };

  return {
    name: BATCH_CLOSE_TASK,
    runDue,
    async runOnce() {
      await runDue();
    },
    start() {
      if (running) return;
      running = true;
      // A first pass at once: a gateway started after today's closing time closes the batch now.
      tick();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await chain;
    },
  };
}
