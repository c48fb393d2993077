import type { BackgroundTask } from './background-task';
import { intervalTask } from './interval-task';
import { merchantIds } from '../domain/merchants';
import { ensureStatements } from '../domain/statements';
import type { GatewayServices } from '../http/services';

export const STATEMENTS_TASK = 'merchant-statements';

/**
 * Issues every merchant's monthly statement once its month has closed (in the merchant's time zone), a
 * pass every 15 minutes by default: the month's sums are read here, in the background, and
 * GetMerchantStatementList and GetMerchantStatement only read what was issued. They once issued every
 * missing month on the first request after it closed, or after a restore: a request that read a year of
 * payments. Several processes on one database issue a statement once (the (mid, period) key; the loser's
 * insert is dropped in ensureStatements).
 */
export function createStatementsScheduler(
  services: Pick<GatewayServices, 'storage' | 'clock' | 'issuers'>,
  options: { intervalMs?: number; onError?: (error: unknown) => void } = {},
): BackgroundTask {
  const { storage, clock } = services;
  return intervalTask(
    STATEMENTS_TASK,
    async () => {
      for (const mid of await merchantIds(storage.read))
        await ensureStatements(storage, mid, clock.now(), services.issuers.depositAccount);
    },
    options.intervalMs ?? 15 * 60_000,
    options.onError ?? (() => undefined),
  );
}
