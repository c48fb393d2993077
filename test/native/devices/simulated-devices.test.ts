import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { simulatedLaneConfig } from '../../../native/devices/device-config';
import { createDeviceManager, type DeviceManager } from '../../../native/devices/device-manager';
import { createSimulatedDevices, type SimulatedDevices } from '../../../native/devices/simulated-devices';
import type { CardReaderEvent } from '../../../native/drivers/roles';
import { decryptTdesDukptPinBlock } from '../../../native/protocols/dukpt-tdes';
import { SANDBOX_BDK } from '../../../native/simulators/pinpad-simulator';
import { SANDBOX_PIN } from '../../../native/simulators/test-cards';
import { until } from '../support/pty-streams';
import { assertKind } from '../../support/narrow';

describe('simulated devices behind the real drivers (the sandbox set)', () => {
  let sims: SimulatedDevices | undefined;
  let manager: DeviceManager | undefined;
  afterEach(async () => {
    await manager?.stop();
    await sims?.stop();
    manager = undefined;
    sims = undefined;
  });

  async function setup(recordFramesTo?: string): Promise<{ sims: SimulatedDevices; manager: DeviceManager }> {
    sims = createSimulatedDevices();
    manager = createDeviceManager({
      config: { ...simulatedLaneConfig(), ...(recordFramesTo ? { recordFramesTo } : {}) },
      simulated: sims,
      backoff: { initialMs: 20, maxMs: 100 },
      rediscoveryMs: 0,
    });
    await manager.start();
    return { sims, manager };
  }

  it('connects every role and runs a swipe, a PIN, a tap, a signature and a receipt from the panel controls', async () => {
    const { sims, manager } = await setup();
    expect(manager.status().every((s) => s.health.state === 'connected')).toBe(true);
    const { devices } = manager;

    const cards: CardReaderEvent[] = [];
    devices.cardReader.onCard((e) => cards.push(e));
    await sims.controls.swipe('5555555555554444');
    await sims.controls.swipe(undefined, { badRead: true });
    await until(() => cards.length === 2, 2000, 'two card events');
    expect(cards[0]).toMatchObject({ kind: 'swipe', maskedPan: '555555******4444' });
    expect(cards[1]).toMatchObject({ kind: 'read-error', reason: 'bad-read' });

    const pin = devices.pinPad.requestPin({ pan: '4111111111111111', amountCents: 2500, timeoutMs: 5000 });
    await until(() => sims.controls.state().pinPad.awaitingPin, 2000, 'pad asking for the PIN');
    expect(sims.controls.typePin(SANDBOX_PIN)).toBe(true);
    const r = await pin;
    if (r.kind !== 'pin') throw new Error(`expected a PIN block, got ${r.kind}`);
    expect(
      decryptTdesDukptPinBlock({
        bdk: SANDBOX_BDK,
        ksn: r.ksn,
        pinBlock: r.pinBlock,
        pan: '4111111111111111',
      }),
    ).toBe(SANDBOX_PIN);

    const tap = devices.contactless.activateTransaction({ amountCents: 2500, timeoutMs: 5000 });
    await until(() => sims.controls.state().contactless.waitingForCard, 2000, 'reader waiting');
    expect(sims.controls.tap('4242424242424242')).toBe(true);
    expect(await tap).toMatchObject({ kind: 'emv', maskedPan: '424242******4242' });

    devices.signaturePad.startCapture();
    await sims.controls.sign();
    await until(() => (devices.signaturePad.health().detail?.packets ?? 0) !== 0, 2000, 'pen packets');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const signature = await devices.signaturePad.finishCapture();
    expect(signature?.strokes.length).toBe(3);

    expect(
      await devices.receiptPrinter.print({
        lines: [{ kind: 'text', text: 'SANDBOX SALE' }],
        openDrawer: true,
      }),
    ).toEqual({
      ok: true,
    });
    await until(() => sims.controls.state().receiptPrinter.receipts.length === 1, 2000, 'receipt');
    expect(sims.controls.state().receiptPrinter.receipts[0]?.map((l) => l.trim())).toContain('SANDBOX SALE');
    expect(sims.controls.state().receiptPrinter.drawerKicks).toBe(1);

    sims.controls.setPaper('out');
    expect(await devices.receiptPrinter.print({ lines: [{ kind: 'text', text: 'X' }] })).toMatchObject({
      ok: false,
      reason: 'paper-out',
    });
    expect(await manager.runTest({ role: 'receiptPrinter', action: 'status' })).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/paper out/) as string,
    });
  });

  it('the test receipt, with no store zone handed in, prints the machine’s local time and zone in plain ASCII', async () => {
    // This machine runs in UTC, where a UTC time and the local one read the same.
    const machineZone = process.env.TZ;
    process.env.TZ = 'America/Chicago';
    try {
      const { sims, manager } = await setup();
      const before = Date.now();
      expect(await manager.runTest({ role: 'receiptPrinter', action: 'print-test-receipt' })).toMatchObject({
        ok: true,
      });
      const after = Date.now();
      await until(() => sims.controls.state().receiptPrinter.receipts.length === 1, 2000, 'test receipt');
      const time = sims.controls.state().receiptPrinter.receipts[0]?.find((l) => l.startsWith('Time')) ?? '';
      const chicago = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Chicago', hour: 'numeric' });
      const hours = [before, after].map(
        (at) => chicago.formatToParts(at).find((p) => p.type === 'hour')?.value,
      );
      // The local hour (the hour may turn between the two readings) and the zone's short name, so paper
      // says which zone it is.
      expect(time).toMatch(new RegExp(` (${hours.join('|')}):\\d\\d [AP]M C[DS]T$`));
      expect(time).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
      // A printer's code page has no narrow no-break space (ICU's before AM/PM): it would print "?".
      expect(time).toMatch(/^[\x20-\x7e]+$/);
    } finally {
      if (machineZone === undefined) delete process.env.TZ;
      else process.env.TZ = machineZone;
    }
  });

  it('unplugging a simulated pad shows it reconnecting; replugging restores it with its KSN counter intact', async () => {
    const { sims, manager } = await setup();
    const first = manager.devices.pinPad.requestPin({
      pan: '4111111111111111',
      amountCents: 100,
      timeoutMs: 5000,
    });
    await until(() => sims.controls.state().pinPad.awaitingPin, 2000, 'pad asking');
    sims.controls.typePin(SANDBOX_PIN);
    expect(await first).toMatchObject({ kind: 'pin', ksn: 'FFFF9876543210E00001' });

    await sims.controls.unplug('pinPad');
    await until(() => manager.statusOf('pinPad').health.state === 'reconnecting', 2000, 'reconnecting');
    expect(
      await manager.devices.pinPad.requestPin({ pan: '4111111111111111', amountCents: 1, timeoutMs: 100 }),
    ).toEqual({
      kind: 'failed',
      reason: 'PIN pad not connected',
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(manager.statusOf('pinPad').attempts).toBeGreaterThan(1);
    sims.controls.replug('pinPad');
    await until(() => manager.statusOf('pinPad').health.state === 'connected', 2000, 'reconnected');

    const second = manager.devices.pinPad.requestPin({
      pan: '4111111111111111',
      amountCents: 100,
      timeoutMs: 5000,
    });
    await until(() => sims.controls.state().pinPad.awaitingPin, 2000, 'pad asking again');
    sims.controls.typePin(SANDBOX_PIN);
    expect(await second).toMatchObject({ kind: 'pin', ksn: 'FFFF9876543210E00002' });
  });

  it('records every frame of every device to support files with no PAN or PIN block in clear', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tillpoint-recordings-'));
    try {
      const { sims, manager } = await setup(dir);
      const cards: CardReaderEvent[] = [];
      manager.devices.cardReader.onCard((e) => cards.push(e));
      await sims.controls.swipe('4111111111111111');
      await sims.controls.swipe('5555555555554444');
      await until(() => cards.length === 2, 2000, 'swipes');
      const pin = manager.devices.pinPad.requestPin({
        pan: '4111111111111111',
        amountCents: 100,
        timeoutMs: 5000,
      });
      await until(() => sims.controls.state().pinPad.awaitingPin, 2000, 'pad asking');
      sims.controls.typePin(SANDBOX_PIN);
      const r = await pin;
      const tap = manager.devices.contactless.activateTransaction({ amountCents: 100, timeoutMs: 5000 });
      await until(() => sims.controls.state().contactless.waitingForCard, 2000, 'reader waiting');
      sims.controls.tap('4242424242424242');
      expect(await tap).toMatchObject({ kind: 'emv' });
      await manager.stop();
      const files = await readdir(dir);
      expect(files.filter((f) => f.startsWith('cardReader-'))).toHaveLength(1);
      const all = (await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')))).join('\n');
      const hex = (s: string): string => Buffer.from(s, 'latin1').toString('hex').toUpperCase();
      for (const pan of ['4111111111111111', '5555555555554444', '4242424242424242']) {
        expect(all).not.toContain(pan); // also the BCD form inside EMV TLV hex
        expect(all).not.toContain(hex(pan));
      }
      expect(all).not.toContain(hex(assertKind(r, 'pin').pinBlock));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses card numbers that are not sandbox test cards', async () => {
    const { sims } = await setup();
    await expect(sims.controls.swipe('4000056655665556')).rejects.toThrow('not a sandbox test card');
    expect(() => sims.controls.tap('5105105105105100')).toThrow('not a sandbox test card');
  });
});
