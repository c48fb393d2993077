import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { merchant1, startGateway, utn, type Json, type TestGateway } from '../../support/gateway-harness';
import { ebt, ebtBody } from './helpers';

/**
 * An EBT movement's answer tells the balances that movement left — the program's `Balance` and its
 * `FoodStampBalance`/`CashBenefitsBalance` — not those of whatever ran after it. The model checker
 * (docs/model-checker.md) found a food return answering `Balance` 150.01 and `FoodStampBalance` 150.00:
 * the second was read after the commit, by when a concurrent DoReversal had taken the return back.
 */
describe('EBT answers: the balances the movement left', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('a food return reversed at once still answers, in both fields, the balance it left', async () => {
    // One at a time, so each pair races only itself; the reversal 0-11 ms after the return, so that some
    // land after its commit and before its answer is made.
    const pairs: { ret: Json; reversal: Json }[] = [];
    for (let i = 0; i < 150; i += 1) {
      const number = utn('ebt-race');
      const [ret, reversal] = await Promise.all([
        gw.post(
          '/api/EbtTransaction/EbtFoodStampReturn',
          ebtBody(ebt.rich, { Amount: 0.01, UserTransactionNumber: number }),
        ),
        new Promise((r) => setTimeout(r, i % 12)).then(() =>
          gw.post('/api/Transactions/DoReversal', { ...merchant1, UserTransactionNumber: number }),
        ),
      ]);
      pairs.push({ ret: ret.body, reversal: reversal.body });
    }
    const approved = pairs.filter((p) => p.ret.ResponseCode === ResponseCode.Success);
    // The race needs both sides: returns that were approved and then reversed.
    expect(approved.length).toBeGreaterThan(0);
    expect(pairs.every((p) => p.reversal.ResponseCode === ResponseCode.Success)).toBe(true);
    const inconsistent = approved
      .filter((p) => p.ret.Balance !== p.ret.FoodStampBalance)
      .map((p) => `Balance ${String(p.ret.Balance)}, FoodStampBalance ${String(p.ret.FoodStampBalance)}`);
    expect(inconsistent).toEqual([]);
  });
});
