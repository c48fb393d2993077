import type { SafItemView, SafPolicy, SafView } from '../../common/bridge/contract';
import { SaleResponse } from '../../gateway/contract/card-sale';
import { transactionEndpoints } from '../../gateway/contract/transaction-endpoints';
import type { GatewayClient } from '../gateway-client/client';
import type { Journal } from '../journal/journal-protocol';
import type { JournalRow } from '../journal/journal-store';
import type { Clock } from '../util/clock';
import type { Sealer } from '../util/key-file';
import type { Logger } from '../util/log';
import { fromWire } from '../util/money';

/**
 * Store-and-forward (issue 5 "Offline"): off by default; a manager turns it on with limits. When the
 * gateway cannot be reached (the request provably never left), an eligible sale is accepted offline:
 * its request fields are sealed with AES-256-GCM (the data folder's key, owner-only) and queued in the
 * journal database. When the gateway answers again the queue is forwarded with the same
 * UserTransactionNumber (the gateway never saw it), and the sealed data is deleted in the same
 * transaction that records the answer.
 *
 * Eligible: a credit sale read from the chip or contactless (EMV) — never a swipe or keyed card, whose
 * data is easier to counterfeit, and never PIN debit, whose PIN block must not be stored — within the
 * per-sale limit and with the total exposure under its limit (offline-limits.ts).
 */

/** What is sealed: the operation's own fields (EmvData included), not the credentials. */
type SealedRequest = { path: string; fields: Record<string, unknown> };

export type StoreAndForward = {
  exposure(): Promise<{ exposureCents: number; count: number }>;
  store(
    row: JournalRow,
    fields: Record<string, unknown>,
    last4: string,
    cardType: string | null,
  ): Promise<JournalRow>;
  /** Forwards what is queued; stops at the first sign that the gateway is still unreachable. */
  forward(): Promise<{ forwarded: number; remaining: number }>;
  view(policy: SafPolicy): Promise<SafView>;
};

export function createStoreAndForward(deps: {
  journal: Journal;
  sealer: Sealer;
  gateway: () => GatewayClient;
  clock: Clock;
  log: Logger;
  policy: () => SafPolicy;
  onChange: () => void;
  onUnknown: (utn: string, message: string) => Promise<void>;
}): StoreAndForward {
  let forwarding: Promise<{ forwarded: number; remaining: number }> | undefined;

  async function forwardOnce(): Promise<{ forwarded: number; remaining: number }> {
    const queued = await deps.journal.safQueued();
    let forwarded = 0;
    for (const item of queued) {
      const now = deps.clock.now();
      if (now - item.storedAt > deps.policy().maxAgeHours * 3_600_000) {
        await deps.journal.safFinish(
          item.utn,
          'expired',
          'Too old to forward; follow up with the customer',
          now,
          {
            state: 'failed',
            message: 'Stored offline too long: not forwarded (card data deleted)',
          },
        );
        deps.log.log('warn', 'saf', `${item.utn} expired before it could be forwarded`);
        continue;
      }
      const sealed = await deps.journal.safSealed(item.utn);
      if (!sealed) {
        await deps.journal.safFinish(item.utn, 'failed', 'Sealed card data missing', now, {
          state: 'failed',
          message: 'Stored card data missing: not forwarded',
        });
        continue;
      }
      let request: SealedRequest;
      try {
        request = JSON.parse(deps.sealer.open(sealed, item.utn)) as SealedRequest;
      } catch {
        await deps.journal.safFinish(item.utn, 'failed', 'Sealed card data unreadable (key changed?)', now, {
          state: 'failed',
          message: 'Stored card data unreadable: not forwarded',
        });
        continue;
      }
      await deps.journal.safMark(item.utn, 'forwarding', null);
      const result = await deps
        .gateway()
        .callPath<SaleResponse>(request.path, SaleResponse, request.fields, { movesMoney: true });
      const at = deps.clock.now();
      if (result.ok) {
        const r = result.response;
        await deps.journal.safFinish(item.utn, 'forwarded', 'Forwarded', at, {
          state: result.code === 200 ? 'approved' : 'partial',
          approvedCents: fromWire(r.Amount) + fromWire(r.TipAmount) + fromWire(r.TaxAmount),
          authCode: r.AuthorizationNumber ?? null,
          srn: r.ServiceReferenceNumber ?? null,
          gatewayCode: result.code,
          message: 'Approved after store-and-forward',
        });
        forwarded += 1;
        continue;
      }
      const f = result.failure;
      if (f.kind === 'unreachable' && f.where === 'network') {
        // Still offline: it goes back in the queue, untouched.
        await deps.journal.safMark(item.utn, 'queued', f.message);
        break;
      }
      if (f.kind === 'unknown-outcome') {
        await deps.journal.safFinish(item.utn, 'failed', f.message, at, {
          state: 'failed',
          message: f.message,
        });
        await deps.onUnknown(item.utn, f.message);
        continue;
      }
      await deps.journal.safFinish(item.utn, 'declined', f.message, at, {
        state: 'declined',
        approvedCents: 0,
        ...(f.code !== undefined ? { gatewayCode: f.code } : {}),
        message: `Declined when forwarded: ${f.message}`,
      });
      deps.log.log('warn', 'saf', `${item.utn} declined when forwarded (${f.code ?? '-'})`);
    }
    if (queued.length > 0) {
      // The deleted ciphertext's pages leave the WAL too.
      await deps.journal.checkpoint();
      deps.onChange();
    }
    const left = await deps.journal.safExposure();
    return { forwarded, remaining: left.count };
  }

  return {
    exposure: () => deps.journal.safExposure(),
    async store(row, fields, last4, cardType) {
      const sealed = deps.sealer.seal(
        JSON.stringify({ path: transactionEndpoints.sale.path, fields } satisfies SealedRequest),
        row.utn,
      );
      const stored = await deps.journal.safStore(
        row.utn,
        row.amountCents + row.tipCents,
        last4,
        cardType,
        sealed,
        deps.clock.now(),
      );
      deps.onChange();
      return stored;
    },
    forward() {
      // One forwarder at a time: two would send the same stored sale twice.
      forwarding ??= forwardOnce().finally(() => {
        forwarding = undefined;
      });
      return forwarding;
    },
    async view(policy) {
      const [{ exposureCents, count }, rows] = await Promise.all([
        deps.journal.safExposure(),
        deps.journal.safList(200),
      ]);
      const items: SafItemView[] = rows.map((r) => ({
        userTransactionNumber: r.utn,
        amountCents: r.amountCents,
        last4: r.last4,
        ...(r.cardType ? { cardType: r.cardType } : {}),
        storedAt: r.storedAt,
        state: r.state,
        ...(r.message ? { message: r.message } : {}),
      }));
      return { policy, exposureCents, count, items };
    },
  };
}
