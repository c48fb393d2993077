import type { BackgroundTask } from './background-task';
import { intervalTask } from './interval-task';
import { TransactionType } from '../contract/card-sale';
import { ResponseCode } from '../contract/response-codes';
import { checkMerchantAmountRules } from '../domain/business-settings';
import type { ResolvedCard } from '../domain/card-input';
import type { RequestContext } from '../domain/context';
import { localDate } from '../domain/frequency';
import { DomainError } from '../domain/outcome';
import { runPayment } from '../domain/payments';
import { RECURRING_SOURCE, chargeAmounts, finishRun, type RunRow } from '../domain/recurring-billing';
import {
  billingActive,
  billingOfRun,
  billingToken,
  cancelRun,
  claimRun,
  dueCandidates,
  openRuns,
  runHasPayment,
} from '../domain/recurring-runs';
import { findTransactionNumber } from '../domain/rules/user-transaction-number';
import { loadCard } from '../domain/vault';
import type { GatewayServices } from '../http/services';

export type RecurringSchedulerOptions = {
  /** How often a pass looks for due billings (one minute by default). */
  intervalMs?: number;
  /** Most billings charged in one pass; the next pass takes the rest. */
  batchSize?: number;
  /** Where a failed pass is reported; never given card data. */
  onError?: (message: string, error: unknown) => void;
};

export const RECURRING_BILLING_TASK = 'recurring-billing';

/**
 * Charges the stored card of every billing that is due on its merchant's calendar.
 *
 * Never twice for one due date, even across restarts and several gateway processes on one database:
 * 1. a unit of work claims the due date — a `recurring_runs` row, unique on (billing_id, due_date), with
 *    the deterministic UserTransactionNumber `RB-<id>-<yyyymmdd>` — before the card is charged;
 * 2. the charge is a normal payment (runPayment, Source RecurringBillingTask), which reserves that
 *    number first: a second charger of the same claim is refused by the transaction-number key;
 * 3. a unit of work records the outcome from the payment row and moves the schedule on, only once.
 * A pass that finds a claim left by a crash resumes it at the step it reached.
 */
export function createRecurringBillingScheduler(
  services: GatewayServices,
  options: RecurringSchedulerOptions = {},
): BackgroundTask {
  const intervalMs = options.intervalMs ?? 60_000;
  const batchSize = options.batchSize ?? 200;
  const report = options.onError ?? (() => undefined);
  const { storage, clock } = services;
  // Passes never overlap in one process: each waits for the one before it.

  const nowIso = () => clock.now().toISOString();

  function claim(billingId: number, due: string): Promise<RunRow | null> {
    return storage.write((tx) => claimRun(tx, billingId, due, nowIso));
  }

  async function cancel(run: RunRow): Promise<void> {
    await storage.write((tx) => cancelRun(tx, run.id, nowIso()));
  }

  /** Charges a claimed run whose number no payment holds yet; returns a failure code when none could be made. */
  async function charge(run: RunRow): Promise<{ code: number } | undefined> {
    const q = storage.read;
    const b = await billingOfRun(q, run);
    if (!b) return { code: ResponseCode.NotFound };
    const token = await billingToken(q, b);
    const stored = token !== undefined ? await loadCard(q, services.keys, b.mid, token) : null;
    if (!stored) return { code: ResponseCode.NotFound };
    const card: ResolvedCard = {
      pan: stored.pan,
      // The vault keeps MMYY (the interface's format); cards travel as YYMM.
      expiryYYMM: stored.expMMYY.slice(2, 4) + stored.expMMYY.slice(0, 2),
      entryMode: 'CredentialOnFile',
      cardType: stored.cardType,
      present: false,
      first6: stored.pan.slice(0, 6),
      last4: stored.pan.slice(-4),
      ...(stored.holderName ? { name: stored.holderName } : {}),
    };
    const amounts = chargeAmounts(b);
    const ctx: RequestContext = {
      principal: { userId: b.user_id, userName: '', mid: b.mid, cid: b.cid, appKey: '', appType: 0 },
      isTest: false,
      source: RECURRING_SOURCE,
    };
    try {
      await checkMerchantAmountRules(q, b.mid, amounts);
      await runPayment(services, ctx, {
        operation: 'token_sale',
        authorizationKind: 'token_sale',
        transactionType: TransactionType.CREDIT_WITH_TOKEN,
        utn: run.utn,
        amounts,
        currency: 'USD',
        card,
        // The claim already makes the charge unique per due date; two billings of one card and amount
        // falling due together are not duplicates of each other.
        forceDuplication: true,
        allowPartial: false,
        posCode: 'RecurringBilling',
        preauth: false,
        saveToken: false,
        tokenId: b.vault_token_id,
        customerId: b.customer_id ?? undefined,
        invoice: b.payment_link_id ? undefined : `RB-${b.id}`,
        paymentLinkId: b.payment_link_id ?? undefined,
        street: b.street || undefined,
        zip: b.zip || undefined,
      });
      return undefined;
    } catch (error) {
      if (error instanceof DomainError) {
        // Someone else holds the number: another process is charging this claim right now.
        if (error.code === ResponseCode.DuplicateTransactionNumber) return undefined;
        return { code: error.code };
      }
      throw error;
    }
  }

  async function settle(run: RunRow): Promise<void> {
    const q = storage.read;
    let failure: { code: number } | undefined;
    if (!(await runHasPayment(q, run))) {
      const use = await findTransactionNumber(q, run.mid, run.utn);
      if (use?.state === 'blocked') failure = { code: ResponseCode.TransactionNumberBlocked };
      // A charge reserves its number and inserts its payment in one unit of work: a used number with no
      // payment is the merchant's own use of it, which this due date cannot be charged under.
      else if (use?.state === 'used') failure = { code: ResponseCode.DuplicateTransactionNumber };
      // Reserved: a charge of this claim is in flight elsewhere.
      else if (use) return;
      else {
        if (!(await billingActive(q, run))) {
          await cancel(run);
          return;
        }
        failure = await charge(run);
      }
    }
    await storage.write((tx) => finishRun(tx, run.id, nowIso(), failure));
  }

  async function pass(): Promise<void> {
    const now = clock.now();
    const q = storage.read;
    // Claims a crash (or another process) left unfinished come first: finish or resume them.
    const open = await openRuns(q, batchSize);
    for (const run of open) {
      try {
        await settle(run);
      } catch (error) {
        report(`recurring billing ${run.billing_id}: settling ${run.due_date} failed`, error);
      }
    }
    // Time zones run from UTC-12 to UTC+14: nothing is due before UTC tomorrow anywhere.
    const horizon = localDate(new Date(now.getTime() + 15 * 3_600_000), 'UTC');
    const candidates = await dueCandidates(q, horizon, batchSize);
    for (const c of candidates) {
      const due = c.next_due_date;
      if (due === null || due > localDate(now, c.time_zone)) continue;
      try {
        const run = await claim(c.id, due);
        if (run) await settle(run);
      } catch (error) {
        report(`recurring billing ${c.id}: charging ${due} failed`, error);
      }
    }
  }

  return intervalTask(RECURRING_BILLING_TASK, pass, intervalMs, (error: unknown) =>
    report('recurring billing pass failed', error),
  );
}
