import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { ControlledProcessor } from '../support/controlled-processor';
import {
  keyedSale,
  merchant1,
  startGateway,
  utn,
  type Json,
  type TestGateway,
} from '../support/gateway-harness';

/**
 * ClosePreauth's AdditionalTip is bounded (a share of what the preauthorization held, 20 % by default)
 * and the completion is captured at the processor with its tip: a cashier cannot turn a 50.00 hold into a
 * 500.00 charge, and the processor charges what the books say.
 */
describe('ClosePreauth: the tip is bounded and the completion is captured at the processor', () => {
  let gw: TestGateway;
  let generous: TestGateway;
  const processor = new ControlledProcessor();
  beforeAll(async () => {
    gw = await startGateway({ processor, processorTimeoutMs: 1_500 });
    generous = await startGateway({ maxAdditionalTipPercent: 50 });
  });
  afterAll(async () => {
    await gw.close();
    await generous.close();
  });

  const preauth = async (on: TestGateway, amount: number, extra: Json = {}) => {
    const r = await on.post(
      '/api/Transactions/PreAuthorization',
      keyedSale({ TransactionType: 3, Amount: amount, ...extra }),
    );
    expect(r.body.ResponseCode).toBe(ResponseCode.Success);
    return r.body;
  };
  const close = (on: TestGateway, pre: Json, amount: number, tip?: number, number = utn('close')) =>
    on.post('/api/Transactions/ClosePreauth', {
      ...merchant1,
      ServiceReferenceNumber: pre.ServiceReferenceNumber,
      UserTransactionNumber: number,
      Amount: amount,
      ...(tip !== undefined ? { AdditionalTip: tip } : {}),
    });
  const unsettled = async (srn: unknown) =>
    (
      (await gw.post('/api/Report/GetUnsettledTransactions', merchant1)).body.UnsettledTransactions as Json[]
    ).some((u) => u.ServiceReferenceNumber === srn);

  it('refuses a tip above 20 % of the hold (701) and changes nothing; 20 % exactly is captured with it', async () => {
    const pre = await preauth(gw, 50, { TaxAmount: 4 });
    // The hold is 54.00: at most 10.80 of tip.
    const over = await close(gw, pre, 50, 10.81);
    expect(over.body.ResponseCode).toBe(ResponseCode.TipExceedsLimit);
    expect(String((over.body.Msg as string[])[0])).toContain('10.80');
    const done = await close(gw, pre, 45, 10.8);
    expect(done.body).toMatchObject({ ResponseCode: ResponseCode.Success, Amount: 45, TipAmount: 10.8 });
    const capture = processor.callsOf('capture').at(-1);
    expect(capture).toMatchObject({
      authCode: pre.AuthorizationNumber,
      amountCents: 4_500 + 400 + 1_080,
      reference: done.body.ServiceReferenceNumber,
    });
    expect(await unsettled(done.body.ServiceReferenceNumber)).toBe(true);
  });

  it('a tip and an amount both wrong are both reported', async () => {
    const pre = await preauth(gw, 10);
    const r = await close(gw, pre, 11, 5);
    expect(r.body.ResponseCode).toBe(ResponseCode.InvalidAmount);
    expect(r.body.Msg).toHaveLength(2);
  });

  it('the bound is configurable', async () => {
    const pre = await preauth(generous, 40);
    expect((await close(generous, pre, 40, 20.01)).body.ResponseCode).toBe(ResponseCode.TipExceedsLimit);
    expect((await close(generous, pre, 40, 20)).body.ResponseCode).toBe(ResponseCode.Success);
  });

  it('a capture the processor refuses books nothing and leaves the preauthorization open', async () => {
    const pre = await preauth(gw, 30);
    processor.refuse('capture');
    try {
      const r = await close(gw, pre, 30, 2);
      expect(r.body.ResponseCode).toBe(ResponseCode.ProcessorUnavailable);
      expect(await unsettled(r.body.ServiceReferenceNumber)).toBe(false);
    } finally {
      processor.accept('capture');
    }
    expect((await close(gw, pre, 30, 2)).body.ResponseCode).toBe(ResponseCode.Success);
  });

  it('a DoReversal that arrives while the capture is at the processor reverses it there', async () => {
    const pre = await preauth(gw, 25);
    const number = utn('capture-rev');
    const held = processor.hold('capture');
    const closing = close(gw, pre, 25, 3, number);
    await held.arrived;
    const rev = await gw.post('/api/Transactions/DoReversal', {
      ...merchant1,
      UserTransactionNumber: number,
    });
    expect(rev.body.ResponseCode).toBe(ResponseCode.Success);
    held.release();
    const done = await closing;
    expect(done.body.ResponseCode).toBe(ResponseCode.TransactionNumberBlocked);
    expect(await unsettled(done.body.ServiceReferenceNumber)).toBe(false);
    expect(processor.callsOf('reverse').map((c) => c.reference)).toContain(done.body.ServiceReferenceNumber);
    // Reversed, not reopened: the hold went with the capture.
    expect((await close(gw, pre, 25)).body.ResponseCode).toBe(ResponseCode.PreauthNotClosable);
  });

  it('a capture that times out is reversed at the processor and not booked', async () => {
    const pre = await preauth(gw, 15);
    const held = processor.hold('capture');
    const closing = close(gw, pre, 15);
    await held.arrived;
    const done = await closing;
    held.release();
    expect(done.body.ResponseCode).toBe(ResponseCode.ProcessorTimeout);
    expect(await unsettled(done.body.ServiceReferenceNumber)).toBe(false);
    await expect
      .poll(() => processor.callsOf('reverse').map((c) => c.reference))
      .toContain(done.body.ServiceReferenceNumber);
  });
});
