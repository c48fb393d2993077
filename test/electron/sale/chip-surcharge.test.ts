import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionReportRecord } from '../../../gateway/contract/report';
import { merchant1, startGateway, type TestGateway } from '../../support/gateway-harness';
import { eventually, startLane, value, type Lane } from '../helpers';

/**
 * A chip sale on a merchant whose business settings have a surcharge on (issue 18: "the card must sign
 * what is charged"). The sandbox issuer declines an ARQC over another amount than the one charged (723),
 * so an approval here means the card's 9F02 is what the gateway charged. The terminal adds no surcharge of
 * its own (the interface leaves it to the caller; the lane does not compute one): what is charged is the
 * ticket's total, and that is what the card signs.
 */

const MC_CHIP = '5100000000000016';

describe('chip sale on a merchant with a surcharge', () => {
  let gw: TestGateway;
  let lane: Lane;
  beforeAll(async () => {
    gw = await startGateway();
    // The merchant's account as a surcharging store has it (set on the gateway, shown on the terminal).
    const db = new Database(join(gw.dataDir, 'gateway.sqlite'));
    try {
      db.prepare(
        'UPDATE business_settings SET surcharge_enabled = 1, surcharge_percent_bp = 300 WHERE mid = ?',
      ).run(merchant1.mid);
    } finally {
      db.close();
    }
    lane = await startLane({ gateway: gw });
  });
  afterAll(async () => {
    await lane.close();
    await gw.close();
  });

  it('is approved (no 723): the amount the card signs is the amount charged', async () => {
    expect(value(await lane.bridge.send('business.get', {}))).toMatchObject({
      surchargeEnabled: true,
      surchargePercent: 3,
    });
    const t = value(await lane.bridge.send('sale.open', { subtotalCents: 1000, taxCents: 80 }));
    const paying = lane.bridge.send('sale.pay', {
      ticketId: t.ticketId,
      tender: { kind: 'credit', entry: 'chip' },
    });
    const controls = lane.core.devices.simulated?.controls;
    await eventually(() => controls?.state().chip.waitingForCard === true);
    expect(controls?.insert(MC_CHIP)).toBe(true);
    const out = value(await paying);
    expect(out.tender).toMatchObject({ status: 'approved', approvedCents: 1080 });
    expect(out.tender.declineCode).toBeUndefined();
    const r = await gw.post('/api/Report/GetReportByMerchant', merchant1);
    const record = (r.body.Transactions as TransactionReportRecord[]).find(
      (x) => x.UserTransactionNumber === out.tender.userTransactionNumber,
    );
    expect(record).toMatchObject({ Status: 'approved', TotalAmount: 10.8 });
  });
});
