import { describe, expect, it } from 'vitest';
import type { BridgeError } from '../../../common/bridge/contract';
import { BridgeFailure } from '../../../common/bridge/failure';
import type { GatewayClient } from '../../../electron/gateway-client/client';
import type { GatewayFailure } from '../../../electron/gateway-client/errors';
import { getAutoClose } from '../../../electron/merchant';
import { SaleEngine } from '../../../electron/sale/sale-engine';
import type { SaleEngineDeps } from '../../../electron/sale/sale-deps';
import { DeclineCode } from '../../../gateway/contract/decline-codes';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { blackHole } from '../../support/black-hole';
import { sandboxGatewayDefaults, startLane, value } from '../helpers';

/** A client whose one passthrough answers with `failure` (the mapping under test reads nothing else). */
function failingClient(failure: GatewayFailure): GatewayClient {
  const answer = { ok: false as const, failure };
  return { autoCloseGet: () => Promise.resolve(answer) } as unknown as GatewayClient;
}

async function rejection(p: Promise<unknown>): Promise<BridgeError> {
  const e: unknown = await p.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(e instanceof BridgeFailure)) throw new Error(`expected a BridgeFailure, got ${String(e)}`);
  return e.toError();
}

const failures: GatewayFailure[] = [
  {
    kind: 'declined',
    code: ResponseCode.Declined,
    declineCode: DeclineCode.InsufficientFunds,
    message: 'Declined: insufficient funds.',
  },
  { kind: 'invalid', code: ResponseCode.AuthenticationFailed, message: 'Invalid credentials' },
  { kind: 'unreachable', where: 'network', message: 'The gateway could not be reached (ECONNREFUSED).' },
  { kind: 'unreachable', where: 'processor', code: ResponseCode.ProcessorTimeout, message: 'slow' },
  { kind: 'unknown-outcome', where: 'network', message: 'No answer from the gateway (timeout).' },
];

describe('one mapping of gateway failures to bridge errors', () => {
  it('the sale engine and the manager passthroughs answer one gateway failure with the same bridge error', async () => {
    // The engine's mapping reads none of its dependencies.
    const engine = new SaleEngine({} as SaleEngineDeps);
    for (const f of failures) {
      const fromEngine = engine.failureOf(f).toError();
      const fromPassthrough = await rejection(getAutoClose(failingClient(f)));
      expect(fromPassthrough, f.kind).toEqual(fromEngine);
    }
  });

  it('an unknown outcome stays unknown-outcome (not "unreachable": that promises nothing was charged)', () => {
    const engine = new SaleEngine({} as SaleEngineDeps);
    const unknown = failures.filter((f) => f.kind === 'unknown-outcome');
    expect(unknown).toHaveLength(1);
    for (const f of unknown) expect(engine.failureOf(f).code).toBe('unknown-outcome');
  });

  it('a void whose answer is lost says it is not being reversed and stays unknown for reconciliation', async () => {
    const hole = await blackHole();
    const lane = await startLane({
      signIn: '9999',
      core: {
        gateway: sandboxGatewayDefaults(hole.url),
        timeouts: { saleMs: 200, otherMs: 200 },
      },
    });
    try {
      const r = await lane.bridge.send('transactions.void', {
        serviceReferenceNumber: 'SRN-LOST-1',
        approval: { managerPin: '9999' },
      });
      expect(r.ok).toBe(false);
      const error = r.ok ? undefined : r.error;
      expect(error?.code).toBe('unknown-outcome');
      // DoReversal cannot undo a void (docs/terminal.md): the message must not promise a reversal.
      expect(error?.message).not.toMatch(/reversing/i);
      expect(error?.message).toMatch(/reconciliation/i);
      const rows = value(await lane.bridge.send('transactions.list', { since: 0 })).filter(
        (t) => t.operation === 'void',
      );
      expect(rows.map((t) => t.state)).toEqual(['unknown']);
    } finally {
      await lane.close();
      await hole.close();
    }
  });
});
