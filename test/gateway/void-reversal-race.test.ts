import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { keyedSale, merchant1, startGateway, utn, type TestGateway } from '../support/gateway-harness';

/**
 * A DoVoid and a DoReversal of the same payment at once cancel it once: whichever takes the payment's lock
 * first cancels it and reverses it at the processor, the other sees it cancelled. The model checker
 * (docs/model-checker.md) found on PostgreSQL [reverse(#0) ‖ void(#0)] both cancel it, the books ending
 * "reversed" although the void had answered that it voided it (seed 555): DoReversal decided on the
 * payment row it read before it took the payment's lock.
 */
describe('DoVoid and DoReversal of one payment at once', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ sandboxLedger: true });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('cancel it once: the books say what the winner answered, and the processor reverses it once', async () => {
    const { storage } = gw.gateway;
    // One pair at a time (each races only itself), the reversal 0-7 ms after the void.
    const outcomes: { void: unknown; reversal: unknown; status: unknown; reversals: number }[] = [];
    for (let i = 0; i < 80; i += 1) {
      const number = utn('void-rev-race');
      const sale = (
        await gw.post(
          '/api/Transactions/Sale',
          keyedSale({ Amount: 1 + i / 100, UserTransactionNumber: number }),
        )
      ).body;
      expect(sale.ResponseCode).toBe(ResponseCode.Success);
      const [voided, reversed] = await Promise.all([
        gw.post('/api/Transactions/DoVoid', {
          ...merchant1,
          ServiceTransactionNumber: sale.ServiceReferenceNumber,
          UserTransactionNumber: utn('void-rev-race-void'),
        }),
        new Promise((r) => setTimeout(r, i % 8)).then(() =>
          gw.post('/api/Transactions/DoReversal', { ...merchant1, UserTransactionNumber: number }),
        ),
      ]);
      const row = await storage.read.first(
        storage.read.qb.selectFrom('payments').select('status').where('utn', '=', number),
      );
      const ledger = await storage.read.all(
        storage.read.qb
          .selectFrom('sandbox_processor_ledger')
          .select('event')
          .where('auth_code', '=', String(sale.AuthorizationNumber))
          .where('event', '=', 'reverse'),
      );
      outcomes.push({
        void: voided.body.ResponseCode,
        reversal: reversed.body.ResponseCode,
        status: row?.status,
        reversals: ledger.length,
      });
    }
    // The void first: voided, and the reversal has nothing to reverse. The reversal first: reversed, and
    // the void is impossible. Either way one reversal at the processor.
    const allowed = [
      { void: ResponseCode.Success, reversal: ResponseCode.Success, status: 'voided', reversals: 1 },
      { void: ResponseCode.VoidImpossible, reversal: ResponseCode.Success, status: 'reversed', reversals: 1 },
    ];
    for (const o of outcomes) expect(allowed).toContainEqual(o);
    expect(outcomes).toHaveLength(80);
  });
});
