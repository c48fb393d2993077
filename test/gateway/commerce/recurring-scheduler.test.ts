import { describe, expect, it } from 'vitest';
import { ManualClock, keyedSale, merchant1, type Json } from '../../support/gateway-harness';
import {
  DAY,
  chargesOf,
  create,
  gatewayAt,
  record,
  runOnce,
  useSchedulerGateways,
} from './scheduler-support';
import { NOW } from './support';

useSchedulerGateways();

describe('recurring billing scheduler: charging rules', () => {
  it('charges a due billing once per due date, as a normal payment in the report', async () => {
    const clock = new ManualClock(NOW);
    const gw = await gatewayAt(clock);
    const id = await create(gw, { StartDate: '2030-01-10T00:00:00-05:00' });
    const later = await create(gw, { StartDate: '2030-01-11T00:00:00-05:00' });
    await runOnce(gw);
    await runOnce(gw);
    const charges = await chargesOf(gw, id);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({
      UserTransactionNumber: `RB-${id}-20300110`,
      Amount: 19.99,
      Status: 'approved',
      Source: 'RecurringBillingTask',
      TransactionType: 'token_sale',
      LastFour: '1111',
    });
    expect(await chargesOf(gw, later)).toHaveLength(0);
    expect(await record(gw, id)).toMatchObject({
      AmountCollectedSoFar: 19.99,
      InstallmentsPaid: 1,
      NextPaymentDate: '2030-02-10',
      LastRunDate: '2030-01-10',
      LastServiceReferenceNumber: charges[0]?.ServiceReferenceNumber,
    });
    // The charge is an ordinary sale: it sits in the open batch and can be refunded.
    const unsettled = (await gw.post('/api/Report/GetUnsettledTransactions', merchant1)).body
      .UnsettledTransactions as Json[];
    expect(unsettled.some((u) => u.ServiceReferenceNumber === charges[0]?.ServiceReferenceNumber)).toBe(true);

    clock.set(new Date('2030-02-10T15:00:00Z'));
    await runOnce(gw);
    await runOnce(gw);
    expect(await chargesOf(gw, id)).toHaveLength(2);
    expect(await record(gw, id)).toMatchObject({
      AmountCollectedSoFar: 39.98,
      NextPaymentDate: '2030-03-10',
    });
  });

  it("falls due on the merchant's calendar day, not the server's", async () => {
    const clock = new ManualClock(new Date('2030-01-20T03:00:00Z')); // 22:00 on Jan 19 in New York
    const gw = await gatewayAt(clock);
    clock.set(new Date('2030-01-19T15:00:00Z'));
    const id = await create(gw, { StartDate: '2030-01-20T00:00:00-05:00' });
    clock.set(new Date('2030-01-20T03:00:00Z'));
    await runOnce(gw);
    expect(await chargesOf(gw, id)).toHaveLength(0);
    clock.set(new Date('2030-01-20T05:30:00Z')); // 00:30 on Jan 20 in New York
    await runOnce(gw);
    expect(await chargesOf(gw, id)).toHaveLength(1);
  });

  it('stops an installment plan after InstallmentTotal charges, with the total exact to the cent', async () => {
    const clock = new ManualClock(NOW);
    const gw = await gatewayAt(clock);
    const id = await create(gw, {
      Amount: 10.01,
      TaxPercent: 8.25,
      FrequencyId: 2,
      IsInstallment: true,
      InstallmentTotal: 3,
      StartDate: '2030-01-10T00:00:00Z',
    });
    for (let week = 0; week < 6; week += 1) {
      await runOnce(gw);
      clock.advance(7 * DAY);
    }
    const charges = await chargesOf(gw, id);
    expect(charges.map((c) => c.UserTransactionNumber)).toEqual([
      `RB-${id}-20300110`,
      `RB-${id}-20300117`,
      `RB-${id}-20300124`,
    ]);
    // 8.25 % of 10.01 is 0.825825: 0.83 each, 10.84 a charge, 32.52 for three.
    expect(charges.every((c) => c.Amount === 10.01 && c.TaxAmount === 0.83 && c.TotalAmount === 10.84)).toBe(
      true,
    );
    expect(await record(gw, id)).toMatchObject({
      AmountCollectedSoFar: 32.52,
      InstallmentsPaid: 3,
      Active: false,
      Status: 'completed',
      NextPaymentDate: null,
    });
    expect(
      (await gw.post('/api/RecurringBilling/Get', { ...merchant1, BillingId: id })).body.ResponseCode,
    ).toBe(606);
  });

  it('ends a recurring billing after its EndDate', async () => {
    const clock = new ManualClock(NOW);
    const gw = await gatewayAt(clock);
    const id = await create(gw, {
      FrequencyId: 1,
      StartDate: '2030-01-10T00:00:00Z',
      EndDate: '2030-01-12T00:00:00Z',
    });
    for (let d = 0; d < 5; d += 1) {
      await runOnce(gw);
      clock.advance(DAY);
    }
    expect(await chargesOf(gw, id)).toHaveLength(3);
    expect(await record(gw, id)).toMatchObject({ Status: 'completed', AmountCollectedSoFar: 59.97 });
  });

  it('counts a declined charge as a failure, collects nothing, and suspends after three in a row', async () => {
    const clock = new ManualClock(NOW);
    const gw = await gatewayAt(clock);
    const id = await create(gw, {
      FrequencyId: 1,
      Account: '4000000000000002',
      StartDate: '2030-01-10T00:00:00Z',
    });
    for (let d = 0; d < 5; d += 1) {
      await runOnce(gw);
      clock.advance(DAY);
    }
    const charges = await chargesOf(gw, id);
    expect(charges).toHaveLength(3);
    expect(charges.every((c) => c.Status === 'declined')).toBe(true);
    expect(await record(gw, id)).toMatchObject({
      AmountCollectedSoFar: 0,
      InstallmentsPaid: 0,
      Status: 'suspended',
      Active: false,
    });
  });

  it('never charges a deactivated billing', async () => {
    const clock = new ManualClock(NOW);
    const gw = await gatewayAt(clock);
    const id = await create(gw, { StartDate: '2030-01-10T00:00:00Z' });
    await gw.post('/api/RecurringBilling/Deactivate', { ...merchant1, BillingId: id });
    await runOnce(gw);
    expect(await chargesOf(gw, id)).toHaveLength(0);
  });

  it('skips a due date whose number the merchant already used for a sale of its own', async () => {
    const clock = new ManualClock(NOW);
    const gw = await gatewayAt(clock);
    const id = await create(gw, { FrequencyId: 1, StartDate: '2030-01-10T00:00:00Z' });
    const own = await gw.post(
      '/api/Transactions/Sale',
      keyedSale({ UserTransactionNumber: `RB-${id}-20300110`, Amount: 1 }),
    );
    expect(own.body.ResponseCode).toBe(200);
    await runOnce(gw);
    await runOnce(gw);
    expect(await chargesOf(gw, id)).toHaveLength(1); // the merchant's own sale, not a charge of the billing
    expect(await record(gw, id)).toMatchObject({
      AmountCollectedSoFar: 0,
      NextPaymentDate: '2030-01-11',
      Active: true,
    });
    clock.advance(DAY);
    await runOnce(gw);
    expect(await record(gw, id)).toMatchObject({ AmountCollectedSoFar: 19.99, InstallmentsPaid: 1 });
  });

  it('catches up missed due dates one per pass after downtime', async () => {
    const clock = new ManualClock(NOW);
    const gw = await gatewayAt(clock);
    const id = await create(gw, { FrequencyId: 2, StartDate: '2030-01-10T00:00:00Z' });
    clock.advance(15 * DAY); // Jan 25: Jan 10 and Jan 17 and Jan 24 are due
    await runOnce(gw);
    expect(await chargesOf(gw, id)).toHaveLength(1);
    await runOnce(gw);
    await runOnce(gw);
    await runOnce(gw);
    expect((await chargesOf(gw, id)).map((c) => c.UserTransactionNumber)).toEqual([
      `RB-${id}-20300110`,
      `RB-${id}-20300117`,
      `RB-${id}-20300124`,
    ]);
    expect(await record(gw, id)).toMatchObject({
      NextPaymentDate: '2030-01-31',
      AmountCollectedSoFar: 59.97,
    });
  });

  it('charges link-made plans from their second payment on', async () => {
    const clock = new ManualClock(NOW);
    const gw = await gatewayAt(clock);
    const link = (
      await gw.post('/api/PaymentLinks', {
        ...merchant1,
        PaymentLink: {
          Amount: '100.00',
          AllowedPaymentSchedule: 'OnlyInstallment',
          FrequencyId: 1,
          InstallmentTotal: 3,
        },
      })
    ).body.PaymentLink as Json;
    const res = await fetch(`${gw.baseUrl}${new URL(String(link.Link)).pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        CardNumber: '4242424242424242',
        ExpDate: '1235',
        PaymentSchedule: 'Installment',
      }),
    });
    const paid = (await res.json()) as Json;
    expect(paid).toMatchObject({ Approved: true, Amount: '33.34' });
    const id = paid.RecurringBillingId as number;
    for (let d = 0; d < 4; d += 1) {
      clock.advance(DAY);
      await runOnce(gw);
    }
    const charges = await chargesOf(gw, id);
    expect(charges.map((c) => c.Amount)).toEqual([33.33, 33.33]);
    expect(charges.every((c) => c.PaymentLinkId === link.Id)).toBe(true);
    expect(await record(gw, id)).toMatchObject({
      AmountCollectedSoFar: 100,
      InstallmentsPaid: 3,
      Status: 'completed',
    });
  });
});
