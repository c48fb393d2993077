import { UniqueViolation, type Storage } from '../storage/queryable';
import type { SandboxLedgerEvent } from '../storage/schema-sandbox';
import type {
  AuthorizationRequest,
  AuthorizationResult,
  CaptureRequest,
  Processor,
  ProcessorAnswer,
  ReturnRequest,
} from '../domain/processor-port';
import { authorizationNumber } from './sandbox-processor';
import { sandboxBehaviour } from './test-cards';

export type ProcessorLedgerOptions = {
  /** The slow test card's delay, which its later calls (capture, refund, reversal) take too. */
  slowMs: number;
  now: () => Date;
};

/** Fresh authorization numbers tried when one is already the merchant's (1 in 1.5 billion each). */
const NUMBER_ATTEMPTS = 8;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * The sandbox processor with books of its own: every authorization it approves and every capture, refund,
 * refund taken back and reversal it carries out is a row of `sandbox_processor_ledger`, written in a unit
 * of work of its own before it answers, apart from the gateway's units of work (an acquirer's books are
 * not the gateway's). It lives in the gateway's database so that several gateway processes on one
 * PostgreSQL database keep one ledger, as one acquirer would. The model checker (test/model,
 * docs/model-checker.md) compares it with the gateway's books authorization by authorization and refund
 * by refund: what the card really paid and got back.
 *
 * The ledger makes the sandbox sharper in three ways, all for the checker's sake:
 * - authorization numbers are unique per merchant (the ledger refuses a repeat; a fresh one is drawn), so
 *   an authorization number names one authorization;
 * - taking a refund back and capturing are idempotent by the operation's reference, as the port says: a
 *   repeat (a retry, a recovery sweep) changes nothing, and a refund the processor never made is not
 *   taken back;
 * - the slow test card is slow for every call about its authorization, which gives a DoReversal a window
 *   in which the refund or the capture it names is still at the processor.
 *
 * Reversals are recorded as they come: one of an authorization number the ledger never issued (a
 * timed-out sale's, sent with no number) is kept too, and the checker judges it.
 */
export function withProcessorLedger(
  inner: Processor,
  storage: Storage,
  options: ProcessorLedgerOptions,
): Processor {
  const record = (
    mid: number,
    authCode: string,
    event: SandboxLedgerEvent,
    amountCents: number,
    extra: { kind?: string; slow?: boolean; reference?: string | undefined } = {},
  ) =>
    storage.write(async (tx) => {
      await tx.lock(`sandbox-ledger:${mid}:${authCode}`);
      if (extra.reference && (event === 'refund_reversal' || event === 'capture')) {
        // Idempotent by reference; and a refund is taken back only if the processor made it.
        const rows = await tx.all(
          tx.qb
            .selectFrom('sandbox_processor_ledger')
            .select('event')
            .where('mid', '=', mid)
            .where('reference', '=', extra.reference),
        );
        if (rows.some((r) => r.event === event)) return;
        if (event === 'refund_reversal' && !rows.some((r) => r.event === 'refund')) return;
      }
      await tx.run(
        tx.qb.insertInto('sandbox_processor_ledger').values({
          mid,
          auth_code: authCode,
          event,
          authorization_kind: extra.kind ?? '',
          amount_cents: amountCents,
          reference: extra.reference ?? '',
          slow: extra.slow ? 1 : 0,
          created_at: options.now().toISOString(),
        }),
      );
    });

  /** Whether the authorization was made with the slow test card (then every call about it is slow). */
  const isSlow = async (mid: number, authCode: string): Promise<boolean> => {
    const row = await storage.read.first(
      storage.read.qb
        .selectFrom('sandbox_processor_ledger')
        .select('slow')
        .where('mid', '=', mid)
        .where('auth_code', '=', authCode)
        .where('event', '=', 'authorize'),
    );
    return row?.slow === 1;
  };
  const slowFor = async (mid: number, authCode: string) => {
    if (await isSlow(mid, authCode)) await sleep(options.slowMs);
  };

  return {
    name: inner.name,
    supportsTokenLookup: inner.supportsTokenLookup,
    async authorize(request: AuthorizationRequest): Promise<AuthorizationResult> {
      const result = await inner.authorize(request);
      if (!result.approved) return result;
      const slow = sandboxBehaviour(request.card.pan).kind === 'slow';
      let authCode = result.authCode;
      for (let attempt = 1; ; attempt += 1) {
        try {
          await record(request.mid, authCode, 'authorize', result.approvedCents, {
            kind: request.kind,
            slow,
          });
          return { ...result, authCode };
        } catch (error) {
          if (!(error instanceof UniqueViolation) || attempt >= NUMBER_ATTEMPTS) throw error;
          authCode = authorizationNumber();
        }
      }
    },
    async capture(request: CaptureRequest): Promise<ProcessorAnswer> {
      await slowFor(request.mid, request.authCode);
      const answer = await inner.capture(request);
      if (answer.ok)
        await record(request.mid, request.authCode, 'capture', request.amountCents, {
          reference: request.reference,
        });
      return answer;
    },
    async reverse(request: ReturnRequest): Promise<void> {
      await slowFor(request.mid, request.authCode);
      await inner.reverse(request);
      await record(request.mid, request.authCode, 'reverse', request.amountCents, {
        reference: request.reference,
      });
    },
    async refund(request: ReturnRequest): Promise<ProcessorAnswer> {
      await slowFor(request.mid, request.authCode);
      const answer = await inner.refund(request);
      if (answer.ok)
        await record(request.mid, request.authCode, 'refund', request.amountCents, {
          reference: request.reference,
        });
      return answer;
    },
    async reverseRefund(request: ReturnRequest & { reference: string }): Promise<ProcessorAnswer> {
      await slowFor(request.mid, request.authCode);
      const answer = await inner.reverseRefund(request);
      if (answer.ok)
        await record(request.mid, request.authCode, 'refund_reversal', request.amountCents, {
          reference: request.reference,
        });
      return answer;
    },
  };
}
