import type Database from 'better-sqlite3';
import { inquireAfterCrash, type CrashInquiryDeps } from './crash-inquiry';
import type { ReversalStore } from './reversal-store';
import type { SalesStore } from './sales-store';

/**
 * The lost answer across a crash, at start and before the next sale: the rows a crash left `sending` are
 * asked about first (crash-inquiry.ts: an approval the gateway holds is kept), then what is left — and
 * chip approvals the card never confirmed — become reversals in one journal transaction
 * (`recoverInFlight`, run by the journal's worker). The reversal queue is a journal table, so the reversal
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

// rule: journal-crash-recovery
/**
 * After a restart: entries still `sending` may or may not have reached the gateway (the process died
 * between commit and answer). They are all unknown and get reversed; a reversal of a request that never
 * arrived only blocks its number at the gateway. Entries `awaiting-card` were approved by the issuer but
 * never confirmed by the chip card (no TC before the stop): not a sale (EMV Book 4 §6.3.8), reversed too.
 */
export function recoverInFlight(
  db: Database.Database,
  sales: SalesStore,
  reversals: ReversalStore,
  now: number,
): string[] {
  return db.transaction(() => {
    const rows = sales.inState('sending');
    for (const r of rows) {
      sales.update(
        r.utn,
        { state: 'unknown', message: 'No answer recorded before the terminal stopped' },
        now,
      );
      reversals.add(r.utn, now, now);
    }
    const unconfirmed = sales.inState('awaiting-card');
    for (const r of unconfirmed) {
      sales.update(
        r.utn,
        {
          state: 'reversing',
          message: 'The terminal stopped before the card confirmed the approval: reversing',
        },
        now,
      );
      reversals.add(r.utn, now, now);
    }
    return [...rows, ...unconfirmed].map((r) => r.utn);
  })();
}
