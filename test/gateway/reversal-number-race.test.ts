import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { merchant1, startGateway, utn, type TestGateway } from '../support/gateway-harness';

/**
 * DoReversal is idempotent and never answers "number already used" (409): that answer tells a client to
 * send a new number, which for a reversal means nothing. The model checker (docs/model-checker.md) found a
 * DoReversal racing a gift card activation of no value for the same number answer 409 on PostgreSQL: the
 * activation claimed the number without the number's lock, so the reversal found it free, then collided
 * with it.
 */
describe('DoReversal racing the operation that claims its number', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('answers as for the number before or after the claim, never 409', async () => {
    // Gift card numbers of this test: 6035 72 + a counter + a Luhn digit.
    const luhn = (digits: string) => {
      let sum = 0;
      for (let i = 0; i < digits.length; i += 1) {
        let d = Number(digits[digits.length - 1 - i]);
        if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
        sum += d;
      }
      return String((10 - (sum % 10)) % 10);
    };
    // One pair at a time (each races only itself), the reversal 0-7 ms after the activation.
    const answers: { activation: unknown; reversal: unknown }[] = [];
    for (let i = 0; i < 120; i += 1) {
      const body = `603572${String(Date.now() % 1e6).padStart(6, '0')}${String(i).padStart(3, '0')}`;
      const number = utn('rev-race');
      const [activation, reversal] = await Promise.all([
        gw.post('/api/GiftCard/Activate', {
          ...merchant1,
          CardNumber: body + luhn(body),
          UserTransactionNumber: number,
          Amount: 0,
        }),
        new Promise((r) => setTimeout(r, i % 8)).then(() =>
          gw.post('/api/Transactions/DoReversal', { ...merchant1, UserTransactionNumber: number }),
        ),
      ]);
      answers.push({ activation: activation.body.ResponseCode, reversal: reversal.body.ResponseCode });
    }
    // Before the claim: the reversal blocks the number and the activation is refused; after: the number
    // names no payment.
    for (const a of answers)
      expect([
        [ResponseCode.TransactionNumberBlocked, ResponseCode.Success],
        [ResponseCode.Success, ResponseCode.VoidImpossible],
      ]).toContainEqual([a.activation, a.reversal]);
  });
});
