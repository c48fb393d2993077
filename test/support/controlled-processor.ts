import { ResponseCode } from '../../gateway/contract/response-codes';
import { createSandboxProcessor } from '../../gateway/sandbox/sandbox-processor';
import type {
  AuthorizationRequest,
  AuthorizationResult,
  CaptureRequest,
  Processor,
  ProcessorAnswer,
  ReturnRequest,
} from '../../gateway/sandbox/processor';

export type ProcessorOperation = 'authorize' | 'reverse' | 'refund' | 'reverseRefund' | 'capture';

/** One call the gateway made, as the processor saw it (never the card: only its amount and codes). */
export type ProcessorCall = {
  op: ProcessorOperation;
  mid: number;
  amountCents: number;
  authCode: string;
  reference?: string | undefined;
  /** What the call answered: ok, or a refusal the test asked for. */
  ok: boolean;
};

type Hold = { arrived: () => void; released: Promise<void> };

/**
 * The sandbox processor with a hand on its timing, for tests that must put a request "at the processor"
 * at a known moment: `hold(op)` keeps the next call of `op` waiting until the test releases it (the
 * request really is in flight over HTTP meanwhile), and `refuse(op)` makes calls of `op` fail as an
 * unreachable processor would. Every call is recorded, so a test can compare what the processor did with
 * what the gateway's books say.
 */
export class ControlledProcessor implements Processor {
  readonly name = 'sandbox';
  readonly supportsTokenLookup = true;
  readonly calls: ProcessorCall[] = [];
  private readonly inner: Processor;
  private readonly holds = new Map<ProcessorOperation, Hold[]>();
  private readonly refused = new Set<ProcessorOperation>();

  constructor(slowMs = 1_500) {
    this.inner = createSandboxProcessor({ slowMs, latencyMs: 0 });
  }

  /** Holds the next call of `op`: `arrived` resolves when it reaches the processor, `release()` lets it answer. */
  hold(op: ProcessorOperation): { arrived: Promise<void>; release: () => void } {
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const queue = this.holds.get(op) ?? [];
    queue.push({ arrived, released });
    this.holds.set(op, queue);
    return { arrived: arrival, release };
  }

  /** Calls of `op` fail (processor unreachable) until `accept(op)`. */
  refuse(op: ProcessorOperation): void {
    this.refused.add(op);
  }

  accept(op: ProcessorOperation): void {
    this.refused.delete(op);
  }

  /** The calls of one operation. */
  callsOf(op: ProcessorOperation): ProcessorCall[] {
    return this.calls.filter((c) => c.op === op);
  }

  /**
   * What the card holds back from the processor for one authorization: its refunds less the refunds taken
   * back (by reference), in cents.
   */
  netRefundedCents(authCode: string): number {
    const undone = new Set(
      this.calls.filter((c) => c.op === 'reverseRefund' && c.ok).map((c) => c.reference ?? ''),
    );
    return this.calls
      .filter((c) => c.op === 'refund' && c.ok && c.authCode === authCode && !undone.has(c.reference ?? ''))
      .reduce((sum, c) => sum + c.amountCents, 0);
  }

  private async gate(op: ProcessorOperation): Promise<boolean> {
    const hold = this.holds.get(op)?.shift();
    if (hold) {
      hold.arrived();
      await hold.released;
    }
    return !this.refused.has(op);
  }

  private record(op: ProcessorOperation, r: ReturnRequest | CaptureRequest, ok: boolean): void {
    this.calls.push({
      op,
      mid: r.mid,
      amountCents: r.amountCents,
      authCode: r.authCode,
      reference: r.reference,
      ok,
    });
  }

  async authorize(request: AuthorizationRequest): Promise<AuthorizationResult> {
    const ok = await this.gate('authorize');
    const result: AuthorizationResult = ok
      ? await this.inner.authorize(request)
      : {
          approved: false,
          code: ResponseCode.ProcessorUnavailable,
          message: 'Processor unreachable (test)',
          avs: 'U',
          cvn: 'U',
        };
    this.calls.push({
      op: 'authorize',
      mid: request.mid,
      amountCents: result.approved ? result.approvedCents : 0,
      authCode: result.approved ? result.authCode : '',
      ok: result.approved,
    });
    return result;
  }

  async reverse(request: ReturnRequest): Promise<void> {
    const ok = await this.gate('reverse');
    this.record('reverse', request, ok);
    if (!ok) throw new Error('processor unreachable (test)');
  }

  async refund(request: ReturnRequest): Promise<ProcessorAnswer> {
    return this.answer('refund', request);
  }

  async reverseRefund(request: ReturnRequest & { reference: string }): Promise<ProcessorAnswer> {
    return this.answer('reverseRefund', request);
  }

  async capture(request: CaptureRequest): Promise<ProcessorAnswer> {
    return this.answer('capture', request);
  }

  private async answer(
    op: ProcessorOperation,
    request: ReturnRequest | CaptureRequest,
  ): Promise<ProcessorAnswer> {
    const ok = await this.gate(op);
    this.record(op, request, ok);
    if (!ok) throw new Error('processor unreachable (test)');
    return { ok: true };
  }
}
