import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { recoverInterruptedPayments } from '../../gateway/domain/recovery';
import { ControlledProcessor } from '../support/controlled-processor';
import { keyedSale, merchant1, startGateway, utn, type TestGateway } from '../support/gateway-harness';

/**
 * A refund credits the card at the processor at once. Whatever cancels a refund (a DoReversal that arrives
 * while it is at the processor, a DoVoid or DoReversal of a booked one) must take that credit back at the
 * processor, or leave the refund booked: the books and the processor agree, and the sale's refund ceiling
 * is never released while the card keeps the money.
 */
describe('cancelling a refund undoes it at the processor, or the refund stays booked', () => {
  let gw: TestGateway;
  const processor = new ControlledProcessor();
  beforeAll(async () => {
    gw = await startGateway({ processor });
  });
  afterAll(async () => {
    await gw.close();
  });

  const sale = async (amount: number) => {
    const r = await gw.post('/api/Transactions/Sale', keyedSale({ Amount: amount }));
    expect(r.body.ResponseCode).toBe(ResponseCode.Success);
    return { srn: String(r.body.ServiceReferenceNumber), auth: String(r.body.AuthorizationNumber) };
  };
  const refund = (srn: string, amount: number, number = utn('refund')) =>
    gw.post('/api/Transactions/DoRefund', {
      ...merchant1,
      ServiceTransactionNumber: srn,
      Amount: amount,
      UserTransactionNumber: number,
    });
  const reverse = (number: string) =>
    gw.post('/api/Transactions/DoReversal', { ...merchant1, UserTransactionNumber: number });
  const voidOf = (srn: string) =>
    gw.post('/api/Transactions/DoVoid', {
      ...merchant1,
      ServiceTransactionNumber: srn,
      UserTransactionNumber: utn('void'),
    });
  const booked = async (srn: string) => {
    const rows = (await gw.post('/api/Report/GetReportByMerchant', merchant1)).body.Transactions as Record<
      string,
      unknown
    >[];
    const row = rows.find((r) => r.ServiceReferenceNumber === srn);
    expect(row).toBeDefined();
    return Math.round(Number(row?.TotalRefundedAmount ?? NaN) * 100);
  };
  const statusOf = async (number: string) => {
    const rows = (await gw.post('/api/Report/GetReportByMerchant', merchant1)).body.Transactions as Record<
      string,
      unknown
    >[];
    return rows.find((r) => r.UserTransactionNumber === number)?.Status;
  };

  it('a DoReversal that arrives while the refund is at the processor takes the credit back there', async () => {
    const s = await sale(10);
    const number = utn('inflight');
    const held = processor.hold('refund');
    const pending = refund(s.srn, 10, number);
    await held.arrived;
    const rev = await reverse(number);
    expect(rev.body.ResponseCode).toBe(ResponseCode.Success);
    held.release();
    const answer = await pending;
    expect(answer.body.ResponseCode).toBe(ResponseCode.TransactionNumberBlocked);
    expect(await statusOf(number)).toBe('reversed');
    // The processor undid exactly that refund, and the books say nothing is refunded.
    expect(processor.callsOf('reverseRefund').map((c) => c.reference)).toContain(
      answer.body.ServiceReferenceNumber,
    );
    expect(processor.netRefundedCents(s.auth)).toBe(0);
    expect(await booked(s.srn)).toBe(0);
    // The ceiling is free again, and refunding once more leaves the card credited exactly once.
    expect((await refund(s.srn, 10)).body.ResponseCode).toBe(ResponseCode.Success);
    expect(processor.netRefundedCents(s.auth)).toBe(1_000);
    expect(await booked(s.srn)).toBe(1_000);
    expect((await refund(s.srn, 10)).body.ResponseCode).toBe(ResponseCode.RefundImpossible);
  });

  it('when the processor cannot take the credit back, the in-flight refund stays booked', async () => {
    const s = await sale(12);
    const number = utn('stays');
    const held = processor.hold('refund');
    const pending = refund(s.srn, 12, number);
    await held.arrived;
    expect((await reverse(number)).body.ResponseCode).toBe(ResponseCode.Success);
    processor.refuse('reverseRefund');
    try {
      held.release();
      const answer = await pending;
      expect(answer.body.ResponseCode).toBe(ResponseCode.Success);
    } finally {
      processor.accept('reverseRefund');
    }
    expect(await statusOf(number)).toBe('approved');
    expect(processor.netRefundedCents(s.auth)).toBe(1_200);
    expect(await booked(s.srn)).toBe(1_200);
    // Nothing was released: the sale cannot be refunded a second time.
    expect((await refund(s.srn, 12)).body.ResponseCode).toBe(ResponseCode.RefundImpossible);
    expect(processor.netRefundedCents(s.auth)).toBe(1_200);
  });

  it('voiding or reversing a booked refund takes the credit back at the processor', async () => {
    const s = await sale(20);
    const first = await refund(s.srn, 5);
    const number = utn('second');
    const second = await refund(s.srn, 7, number);
    expect([first.body.ResponseCode, second.body.ResponseCode]).toEqual([
      ResponseCode.Success,
      ResponseCode.Success,
    ]);
    expect((await voidOf(String(first.body.ServiceReferenceNumber))).body.ResponseCode).toBe(
      ResponseCode.Success,
    );
    expect((await reverse(number)).body.ResponseCode).toBe(ResponseCode.Success);
    expect(processor.netRefundedCents(s.auth)).toBe(0);
    expect(await booked(s.srn)).toBe(0);
  });

  it('a void of a refund the processor cannot take back is refused and changes nothing', async () => {
    const s = await sale(9);
    const r = await refund(s.srn, 9);
    const refundSrn = String(r.body.ServiceReferenceNumber);
    processor.refuse('reverseRefund');
    try {
      const v = await voidOf(refundSrn);
      expect(v.body.ResponseCode).toBe(ResponseCode.ProcessorUnavailable);
      const rev = await reverse(String(r.body.UserTransactionNumber));
      expect(rev.body.ResponseCode).toBe(ResponseCode.ProcessorUnavailable);
    } finally {
      processor.accept('reverseRefund');
    }
    expect(processor.netRefundedCents(s.auth)).toBe(900);
    expect(await booked(s.srn)).toBe(900);
    expect((await refund(s.srn, 1)).body.ResponseCode).toBe(ResponseCode.RefundImpossible);
    // Once the processor answers again, the same refund can be voided.
    expect((await voidOf(refundSrn)).body.ResponseCode).toBe(ResponseCode.Success);
    expect(processor.netRefundedCents(s.auth)).toBe(0);
    expect(await booked(s.srn)).toBe(0);
  });

  it('a settlement while a refund is being voided at the processor settles the rest; the void is booked', async () => {
    await gw.post('/api/Transactions/DoSettlement', merchant1);
    const s = await sale(30);
    const r = await refund(s.srn, 4);
    const held = processor.hold('reverseRefund');
    const voiding = voidOf(String(r.body.ServiceReferenceNumber));
    await held.arrived;
    const settled = await gw.post('/api/Transactions/DoSettlement', merchant1);
    held.release();
    expect((await voiding).body.ResponseCode).toBe(ResponseCode.Success);
    // The settled batch holds the sale alone: the refund being voided was not settled with it.
    expect(settled.body.AmountSettled).toBe(30);
    expect(processor.netRefundedCents(s.auth)).toBe(0);
    expect(await booked(s.srn)).toBe(0);
    const next = await gw.post('/api/Transactions/DoSettlement', merchant1);
    expect(next.body.AmountSettled).toBe(0);
  });
});

describe('a refund the processor does not answer in time', () => {
  let gw: TestGateway;
  const processor = new ControlledProcessor();
  beforeAll(async () => {
    gw = await startGateway({ processor, processorTimeoutMs: 400 });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('is cancelled at the processor, answered as a timeout, and releases its amount', async () => {
    const sale = await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 15 }));
    const srn = String(sale.body.ServiceReferenceNumber);
    const held = processor.hold('refund');
    const r = await gw.post('/api/Transactions/DoRefund', {
      ...merchant1,
      ServiceTransactionNumber: srn,
      Amount: 15,
      UserTransactionNumber: utn('slow-refund'),
    });
    held.release();
    expect(r.body.ResponseCode).toBe(ResponseCode.ProcessorTimeout);
    expect(processor.callsOf('reverseRefund').map((c) => c.reference)).toEqual([
      r.body.ServiceReferenceNumber,
    ]);
    expect(processor.netRefundedCents(String(sale.body.AuthorizationNumber))).toBe(0);
    const again = await gw.post('/api/Transactions/DoRefund', {
      ...merchant1,
      ServiceTransactionNumber: srn,
      Amount: 15,
      UserTransactionNumber: utn('refund'),
    });
    expect(again.body.ResponseCode).toBe(ResponseCode.Success);
  });

  it('stays pending, its amount reserved, while the processor will not confirm the cancel either', async () => {
    const sale = await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 6 }));
    const srn = String(sale.body.ServiceReferenceNumber);
    const held = processor.hold('refund');
    processor.refuse('reverseRefund');
    let r: Awaited<ReturnType<TestGateway['post']>>;
    try {
      r = await gw.post('/api/Transactions/DoRefund', {
        ...merchant1,
        ServiceTransactionNumber: srn,
        Amount: 6,
        UserTransactionNumber: utn('unknown-refund'),
      });
    } finally {
      held.release();
      processor.accept('reverseRefund');
    }
    expect(r.body.ResponseCode).toBe(ResponseCode.ProcessorTimeout);
    const blocked = await gw.post('/api/Transactions/DoRefund', {
      ...merchant1,
      ServiceTransactionNumber: srn,
      Amount: 6,
      UserTransactionNumber: utn('refund'),
    });
    expect(blocked.body.ResponseCode).toBe(ResponseCode.RefundImpossible);
    // The recovery sweep gets the processor's confirmation, then releases it.
    await recoverInterruptedPayments(gw.gateway.storage, processor, new Date(Date.now() + 10 * 60_000), 0);
    const released = await gw.post('/api/Transactions/DoRefund', {
      ...merchant1,
      ServiceTransactionNumber: srn,
      Amount: 6,
      UserTransactionNumber: utn('refund'),
    });
    expect(released.body.ResponseCode).toBe(ResponseCode.Success);
    expect(processor.netRefundedCents(String(sale.body.AuthorizationNumber))).toBe(600);
  });
});
