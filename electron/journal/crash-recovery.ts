import { inquireAfterCrash, type CrashInquiryDeps } from './crash-inquiry';

/**
 * The lost answer across a crash, at start and before the next sale: the rows a crash left `sending` are
 * asked about first (crash-inquiry.ts: an approval the gateway holds is kept), then what is left — and
 * chip approvals the card never confirmed — become reversals in one journal transaction
 * (`recoverInFlight`, below in the store's side). The reversal queue is a journal table, so the reversal
 * worker started afterwards finds them as it would have before the crash.
 */
export async function recoverAfterCrash(
  deps: CrashInquiryDeps,
): Promise<{ settled: number; reversing: string[] }> {
  const settled = await inquireAfterCrash(deps);
  const reversing = await deps.journal.recoverInFlight(deps.clock.now());
  if (reversing.length > 0)
    deps.log.log('warn', 'journal', `${reversing.length} entr(ies) had no recorded answer; reversing them`);
  return { settled, reversing };
}
