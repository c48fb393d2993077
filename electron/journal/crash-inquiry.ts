import type { JournalOperation } from '../../common/bridge/contract';
import type { GatewayClient } from '../gateway-client/client';
import type { Journal } from './journal-protocol';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';
import { inquireSale } from './lost-answer-inquiry';
import { approvedCentsOf } from '../gateway-client/approved-amount';

/**
 * The inquiry-then-reverse order across a crash (README: "asked about (GetTransaction) and kept if the
 * gateway approved it, else reversed — also across a crash"). At start, before the journal turns the rows
 * left `sending` into reversals, each one the terminal would have asked about while running is asked about
 * now: an approval the gateway holds is kept (the ticket comes back paid), a decline is a decline. What
 * the inquiry cannot settle — not found, still at the processor, no answer — goes on to the reversal, as a
 * lost answer does while the terminal runs.
 *
 * Not asked: a contact chip sale (its card never saw the issuer's answer, so never confirmed it with a TC:
 * not a sale, EMV Book 4 §6.3.8), a check or a void (nothing reverses them; the reconciliation view does),
 * refunds and completions (their standing is the reconciliation's).
 */

/** The operations whose lost answer the running terminal asks about (the tenders passing `inquire`). */
const ASKED: ReadonlySet<JournalOperation> = new Set([
  'sale',
  'preauth',
  'debit',
  'ebt-food',
  'ebt-cash',
  'gift-sale',
  'token-sale',
]);

const AFTER_CRASH = 'the terminal stopped before the answer; confirmed by GetTransaction';

export type CrashInquiryDeps = {
  journal: Journal;
  gateway: () => GatewayClient;
  clock: Clock;
  log: Logger;
};

// rule: crash-inquiry
/** Settles what the gateway can tell about the rows a crash left `sending`; returns how many it settled. */
export async function inquireAfterCrash(deps: CrashInquiryDeps): Promise<number> {
  const { journal, clock, log } = deps;
  const rows = await journal.list({ states: ['sending'] });
  let settled = 0;
  for (const row of rows) {
    if (!ASKED.has(row.operation) || row.entryMode === 'chip') continue;
    const known = await inquireSale(deps.gateway(), row.utn).catch(() => undefined);
    if (!known) continue;
    const now = clock.now();
    if (known.ok) {
      const r = known.response;
      const asked = row.amountCents + row.tipCents;
      const approvedCents = approvedCentsOf(known.code, r, asked);
      const partial = approvedCents < asked;
      await journal.update(
        row.utn,
        {
          state: partial ? 'partial' : 'approved',
          approvedCents,
          authCode: r.AuthorizationNumber ?? null,
          srn: r.ServiceReferenceNumber ?? null,
          ...(r.CardType ? { cardType: r.CardType } : {}),
          gatewayCode: known.code,
          message: `${partial ? 'Partial approval' : 'Approved'} (${AFTER_CRASH})`,
        },
        now,
      );
    } else {
      const f = known.failure;
      await journal.update(
        row.utn,
        {
          state: 'declined',
          message: `${f.message} (${AFTER_CRASH})`,
          ...(f.code !== undefined ? { gatewayCode: f.code } : {}),
        },
        now,
      );
    }
    settled += 1;
    log.log(
      'info',
      'journal',
      `${row.utn} ${row.operation}: no answer recorded before the stop; GetTransaction says ${known.ok ? 'approved' : 'declined'}`,
    );
  }
  return settled;
}
