import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { ControlledProcessor } from '../support/controlled-processor';
import { keyedSale, merchant1, startGateway, utn, type TestGateway } from '../support/gateway-harness';

/**
 * A ForceRetailSale posts a voice authorization the processor has not seen: anyone can type an
 * authorization number. Refunding it at once would pay the card from nothing (a fake code plus a refund is
 * a credit), so a force post is refundable only once its batch has settled (the capture the processor
 * checks); before that it can be voided, which moves no money.
 */
describe('a force post is refunded only once its batch has settled', () => {
  let gw: TestGateway;
  const processor = new ControlledProcessor();
  beforeAll(async () => {
    gw = await startGateway({ processor });
  });
  afterAll(async () => {
    await gw.close();
  });

  const force = async (amount: number) => {
    const r = await gw.post(
      '/api/Transactions/ForceRetailSale',
      keyedSale({ Amount: amount, AuthorizationNumber: 'VOICE1' }),
    );
    expect(r.body.ResponseCode).toBe(ResponseCode.Success);
    return String(r.body.ServiceReferenceNumber);
  };
  const refund = (srn: string, amount: number | null) =>
    amount === null
      ? gw.post('/api/Transactions/DoFullRefund', {
          ...merchant1,
          ServiceTransactionNumber: srn,
          UserTransactionNumber: utn('full'),
        })
      : gw.post('/api/Transactions/DoRefund', {
          ...merchant1,
          ServiceTransactionNumber: srn,
          Amount: amount,
          UserTransactionNumber: utn('refund'),
        });

  it('refuses DoRefund and DoFullRefund of an unsettled force post, and the processor is not asked', async () => {
    const srn = await force(40);
    const before = processor.callsOf('refund').length;
    expect((await refund(srn, 40)).body).toMatchObject({
      ResponseCode: ResponseCode.RefundImpossible,
      Msg: [expect.stringMatching(/force post/)],
    });
    expect((await refund(srn, null)).body).toMatchObject({
      ResponseCode: ResponseCode.RefundImpossible,
      Msg: [expect.stringMatching(/force post/)],
    });
    expect(processor.callsOf('refund')).toHaveLength(before);
    // Voiding it is the way back before settlement.
    const v = await gw.post('/api/Transactions/DoVoid', {
      ...merchant1,
      ServiceTransactionNumber: srn,
      UserTransactionNumber: utn('void'),
    });
    expect(v.body.ResponseCode).toBe(ResponseCode.Success);
  });

  it('refunds a force post once its batch has settled', async () => {
    const srn = await force(25);
    const settled = await gw.post('/api/Transactions/DoSettlement', merchant1);
    expect(settled.body.ResponseCode).toBe(ResponseCode.Success);
    expect((await refund(srn, 10)).body.ResponseCode).toBe(ResponseCode.Success);
    expect((await refund(srn, null)).body.ResponseCode).toBe(ResponseCode.Success);
    expect(
      processor
        .callsOf('refund')
        .map((c) => c.amountCents)
        .slice(-2),
    ).toEqual([1_000, 1_500]);
  });
});
