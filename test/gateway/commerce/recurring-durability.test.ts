import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../support/gateway-harness';
import {
  chargesOf,
  closeGateway,
  create,
  gatewayAt,
  record,
  runOnce,
  useSchedulerGateways,
} from './scheduler-support';
import { NOW } from './support';

useSchedulerGateways();

describe('recurring billing scheduler: never twice for one due date', () => {
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
});
