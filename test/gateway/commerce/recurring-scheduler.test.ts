import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RECURRING_BILLING_TASK } from '../../../gateway/schedulers/recurring-billing';
import {
  ManualClock,
  merchant1,
  startGateway,
  type Json,
  type TestGateway,
} from '../../support/gateway-harness';
import { NOW, billing, reportOf } from './support';

const DAY = 86_400_000;

/** Gateways of one test, on one data folder, closed after it. */
const open: TestGateway[] = [];
const folders: string[] = [];
/** A seeded, closed data folder each test starts from a copy of: seeding hashes passwords (slow on purpose). */
let template = '';
beforeAll(async () => {
  template = mkdtempSync(join(tmpdir(), 'tillpoint-rb-template-'));
  folders.push(template);
  const seeded = await startGateway({ backgroundTasks: false, dataDir: template });
  await seeded.close();
});
afterEach(async () => {
  while (open.length > 0) await open.pop()?.close();
});
afterAll(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

async function gatewayAt(clock: ManualClock, dataDir?: string): Promise<TestGateway> {
  let dir = dataDir;
  if (!dir) {
    dir = mkdtempSync(join(tmpdir(), 'tillpoint-rb-'));
    folders.push(dir);
    for (const file of ['gateway.sqlite', 'keys.json']) copyFileSync(join(template, file), join(dir, file));
  }
  const gw = await startGateway({ backgroundTasks: false, clock, dataDir: dir });
  open.push(gw);
  return gw;
}

async function closeGateway(gw: TestGateway): Promise<void> {
  open.splice(open.indexOf(gw), 1);
  await gw.close();
}

const runOnce = async (gw: TestGateway) => {
  const task = gw.gateway.tasks.get(RECURRING_BILLING_TASK);
  if (!task) throw new Error('the recurring billing task is not registered');
  await task.runOnce();
};

async function create(gw: TestGateway, overrides: Json = {}): Promise<number> {
  const r = await gw.post('/api/RecurringBilling/Create', billing(overrides));
  expect(r.body.ResponseCode, JSON.stringify(r.body.Msg)).toBe(200);
  return r.body.BillingId as number;
}

async function record(gw: TestGateway, id: number): Promise<Json> {
  const all = (
    await gw.post('/api/RecurringBilling/GetAll', { ...merchant1, BillingId: id, IncludeInactive: true })
  ).body.Billings as Json[];
  const b = all[0];
  if (!b) throw new Error(`billing ${id} not listed`);
  return b;
}

const chargesOf = async (gw: TestGateway, id: number) =>
  (await reportOf(gw)).filter((t) => String(t.UserTransactionNumber).startsWith(`RB-${id}-`));

describe('recurring billing scheduler', () => {
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

  it('does not charge one due date twice across a restart', async () => {
    const clock = new ManualClock(NOW);
    const first = await gatewayAt(clock);
    const id = await create(first, { StartDate: '2030-01-10T00:00:00Z' });
    await runOnce(first);
    await closeGateway(first);
    const second = await gatewayAt(clock, first.dataDir);
    await runOnce(second);
    expect(await chargesOf(second, id)).toHaveLength(1);
    expect(await record(second, id)).toMatchObject({
      AmountCollectedSoFar: 19.99,
      NextPaymentDate: '2030-02-10',
    });
  });

  it('after a crash between the charge and its record, finishes the run without charging again', async () => {
    const clock = new ManualClock(NOW);
    const first = await gatewayAt(clock);
    const id = await create(first, { StartDate: '2030-01-10T00:00:00Z' });
    await runOnce(first);
    // Put the database back as a crash right after the payment committed would leave it: the run still
    // claimed, the billing not moved on.
    await first.gateway.storage.write(async (tx) => {
      await tx.run(
        tx.qb
          .updateTable('recurring_runs')
          .set({ state: 'claimed', payment_id: null, charged_cents: 0 })
          .where('billing_id', '=', id),
      );
      await tx.run(
        tx.qb
          .updateTable('recurring_billings')
          .set({
            amount_collected_cents: 0,
            installments_paid: 0,
            period_index: 0,
            next_due_date: '2030-01-10',
            last_run_date: null,
            last_run_srn: null,
          })
          .where('id', '=', id),
      );
    });
    await closeGateway(first);
    const second = await gatewayAt(clock, first.dataDir);
    await runOnce(second);
    await runOnce(second);
    expect(await chargesOf(second, id)).toHaveLength(1);
    expect(await record(second, id)).toMatchObject({
      AmountCollectedSoFar: 19.99,
      InstallmentsPaid: 1,
      NextPaymentDate: '2030-02-10',
    });
  });

  it('after a crash between the claim and the charge, charges the claimed date exactly once', async () => {
    const clock = new ManualClock(NOW);
    const first = await gatewayAt(clock);
    const id = await create(first, { StartDate: '2030-01-10T00:00:00Z' });
    const at = clock.now().toISOString();
    await first.gateway.storage.write((tx) =>
      tx.run(
        tx.qb.insertInto('recurring_runs').values({
          billing_id: id,
          mid: 1001,
          due_date: '2030-01-10',
          utn: `RB-${id}-20300110`,
          state: 'claimed',
          payment_id: null,
          charged_cents: 0,
          response_code: null,
          created_at: at,
          updated_at: at,
        }),
      ),
    );
    await closeGateway(first);
    const second = await gatewayAt(clock, first.dataDir);
    await runOnce(second);
    await runOnce(second);
    expect(await chargesOf(second, id)).toHaveLength(1);
    expect(await record(second, id)).toMatchObject({ AmountCollectedSoFar: 19.99 });
  });

  it('charges once when two gateways share the database and run at the same time', async () => {
    const clock = new ManualClock(NOW);
    const a = await gatewayAt(clock);
    const b = await gatewayAt(clock, a.dataDir);
    const ids = [];
    for (let i = 0; i < 5; i += 1)
      ids.push(await create(a, { StartDate: '2030-01-10T00:00:00Z', Amount: 5 + i }));
    await Promise.all([runOnce(a), runOnce(b), runOnce(a), runOnce(b)]);
    await Promise.all([runOnce(a), runOnce(b)]);
    for (const id of ids) {
      expect(await chargesOf(a, id)).toHaveLength(1);
      expect((await record(a, id)).InstallmentsPaid).toBe(1);
    }
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
