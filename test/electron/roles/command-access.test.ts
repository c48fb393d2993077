import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeError, BridgeResult } from '../../../common/bridge/contract';
import { accessTable, approvalFor, commandAccess } from '../../../electron/roles/command-access';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import { startLane, value, type Lane } from '../helpers';

const errorOf = <T>(r: BridgeResult<T>): BridgeError | 'ok' => (r.ok ? 'ok' : r.error);
const managerMust = {
  code: 'forbidden',
  message: 'A manager must approve this: enter a manager PIN.',
  messageId: 'approval.managerMust',
};

describe('the access table: one row per command, the manager approval among its requirements', () => {
  it('void and refund are rows that need a manager; the employees’ records need a manager’s PIN', () => {
    expect(accessTable['transactions.void']).toEqual(['sell', 'manager']);
    expect(accessTable['transactions.refund']).toEqual(['sell', 'manager']);
    expect(approvalFor('employees.resetPin')).toBe('manager-pin');
    // The dispatcher's part of a row is who may call: a cashier may ask for a void, a manager grants it.
    expect(commandAccess['transactions.void']).toBe('sell');
    expect(commandAccess['employees.resetPin']).toBe('manage');
  });

  describe('through the bridge', () => {
    let gw: TestGateway;
    const lanes: Lane[] = [];
    beforeAll(async () => {
      gw = await startGateway();
    });
    afterAll(async () => {
      for (const l of lanes) await l.close();
      await gw.close();
    });

    it("a cashier's void without a manager's approval is refused, as the row `manager` says", async () => {
      const lane = await startLane({ gateway: gw, signIn: '1111' });
      lanes.push(lane);
      const r = await lane.bridge.send('transactions.void', { serviceReferenceNumber: 'S-none' });
      expect(errorOf(r)).toEqual(managerMust);
      const refund = await lane.bridge.send('transactions.refund', {
        serviceReferenceNumber: 'S-none',
        amountCents: 100,
      });
      expect(errorOf(refund)).toEqual(managerMust);
    });

    it('a signed-in manager passes the row `manager` without a PIN, not the row `manager-pin`', async () => {
      const lane = await startLane({ gateway: gw, signIn: '9999' });
      lanes.push(lane);
      // Past the approval, the void itself answers: there is no such payment.
      const v = await lane.bridge.send('transactions.void', { serviceReferenceNumber: 'S-none' });
      expect(errorOf(v)).not.toEqual(managerMust);
      expect(errorOf(v)).not.toBe('ok');
      const cashier = value(await lane.bridge.send('employees.list', {})).employees.find(
        (e) => e.role === 'cashier',
      );
      expect(cashier).toBeDefined();
      const reset = await lane.bridge.send('employees.resetPin', { employeeId: cashier?.id ?? 0 });
      expect(errorOf(reset)).toEqual(managerMust);
    });
  });
});
