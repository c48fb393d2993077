import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReceiptTime } from '../../../common/store-time';
import { sandboxMerchants } from '../../../gateway/sandbox/seed';
import { merchant1, startGateway, type TestGateway } from '../../support/gateway-harness';
import { eventually, sandboxGatewayDefaults, startLane, value, type Lane } from '../helpers';

/** The zone the lane reports for every time a person reads. */
async function laneZone(lane: Lane): Promise<string> {
  return value(await lane.bridge.send('terminal.status', {})).timeZone ?? '';
}

/** Prints the test receipt as a tech does from the Devices screen; its Time line and the clock around it. */
async function printTestReceipt(lane: Lane): Promise<{ timeLine: string; before: number; after: number }> {
  const before = Date.now();
  const r = value(
    await lane.bridge.send('devices.test', { role: 'receiptPrinter', action: 'print-test-receipt' }),
  );
  const after = Date.now();
  expect(r.ok).toBe(true);
  const receipt = value(await lane.bridge.send('simulator.state', {})).receiptPrinter.receipts.at(-1) ?? [];
  expect(receipt.join('\n')).toContain('Printer test');
  return { timeLine: receipt.find((l) => l.startsWith('Time')) ?? '', before, after };
}

/** The Time line reads as a receipt's date line in `zone` (the minute may turn between the two readings). */
function expectReceiptTime(line: { timeLine: string; before: number; after: number }, zone: string): void {
  const expected = [formatReceiptTime(line.before, zone), formatReceiptTime(line.after, zone)];
  expect(
    expected.some((e) => line.timeLine.endsWith(e)),
    `${line.timeLine} ends with one of ${expected.join(' | ')}`,
  ).toBe(true);
  expect(line.timeLine).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
}

/**
 * The printer's test receipt: its time is the store's, the way every receipt writes it
 * (common/store-time.ts): the merchant's zone once the gateway has named it, else the machine's — never
 * UTC. This machine runs in UTC, where a UTC time and the machine's read the same, so the machine here is
 * in a zone west of UTC and different from the merchant's.
 */
describe('the test receipt prints the store’s time', () => {
  const machine = 'America/Chicago';
  const merchantZone = sandboxMerchants.find((m) => m.mid === merchant1.mid)?.timeZone ?? '';
  const machineZone = process.env.TZ;
  let gw: TestGateway;
  const lanes: Lane[] = [];
  beforeAll(async () => {
    process.env.TZ = machine;
    gw = await startGateway({});
  }, 60_000);
  afterAll(async () => {
    for (const lane of lanes) await lane.close();
    await gw?.close();
    if (machineZone === undefined) delete process.env.TZ;
    else process.env.TZ = machineZone;
  });

  it('writes the merchant’s zone, as a receipt does, once the gateway has named it', async () => {
    expect(merchantZone).not.toBe('');
    expect(merchantZone).not.toBe(machine);
    const lane = await startLane({ gateway: gw, signIn: '7777' });
    lanes.push(lane);
    // The lane asks the gateway for the merchant's zone as it starts.
    await eventually(async () => (await laneZone(lane)) === merchantZone, 10_000);
    expectReceiptTime(await printTestReceipt(lane), merchantZone);
  });

  it('writes the machine’s zone while no gateway has named the merchant’s', async () => {
    // A gateway that never answers: nothing names the merchant's zone.
    const lane = await startLane({
      gateway: gw,
      signIn: '7777',
      core: { gateway: sandboxGatewayDefaults('http://127.0.0.1:9') },
    });
    lanes.push(lane);
    expect(await laneZone(lane)).toBe(machine);
    expectReceiptTime(await printTestReceipt(lane), machine);
  });
});
