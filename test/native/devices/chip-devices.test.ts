import { afterEach, describe, expect, it } from 'vitest';
import { checkChipCryptogram } from '../../../gateway/sandbox/emv-issuer';
import { simulatedLaneConfig } from '../../../native/devices/device-config';
import { createDeviceManager, type DeviceManager } from '../../../native/devices/device-manager';
import {
  createSimulatedDevices,
  type SimulatedDevices,
  type SimulatedDevicesOptions,
} from '../../../native/devices/simulated-devices';
import { decodeTlvHex, findTlv } from '../../../native/protocols/ber-tlv';
import { readIssuerResponse } from '../../../native/protocols/emv-issuer-response';
import { bytesToHex } from '../../../native/protocols/hex';
import { until } from '../support/pty-streams';

describe('the sandbox EMV reader: chip slot and contactless on one simulated NGA reader', () => {
  let sims: SimulatedDevices | undefined;
  let manager: DeviceManager | undefined;
  afterEach(async () => {
    await manager?.stop();
    await sims?.stop();
    manager = undefined;
    sims = undefined;
  });

  async function setup(options: SimulatedDevicesOptions = {}) {
    sims = createSimulatedDevices(options);
    manager = createDeviceManager({
      config: simulatedLaneConfig(),
      simulated: sims,
      backoff: { initialMs: 20, maxMs: 100 },
      rediscoveryMs: 0,
    });
    await manager.start();
    return { sims, manager, devices: manager.devices };
  }

  it('insert() goes through the chip slot (9F39 05, a cryptogram the issuer verifies); tap() stays contactless (07)', async () => {
    const { sims, devices } = await setup();
    const chip = devices.chipReader.start({ amountCents: 1999, timeoutMs: 5000 });
    await until(() => sims.controls.state().chip.waitingForCard, 3000, 'the chip slot waiting');
    expect(sims.controls.state().contactless.waitingForCard).toBe(false);
    expect(sims.controls.insert()).toBe(true);
    const r = await chip;
    if (r.kind !== 'online') throw new Error(`expected online, got ${r.kind}`);
    expect(r.entryMode).toBe('05');
    expect(r.card.maskedPan).toBe('401288******1881');
    expect(devices.chipReader.inTransaction()).toBe(true);
    expect(sims.controls.state().chip.cardInserted).toBe(true);
    const check = checkChipCryptogram(r.emvTlvHex, '4012888888881881', {
      totalCents: 1999,
      cashbackCents: 0,
    });
    if (check.kind !== 'verified') throw new Error('the issuer did not verify');
    const answer = readIssuerResponse(check.arqc.answer('00'));
    if (!answer) throw new Error('no answer');
    expect(await devices.chipReader.complete(answer)).toMatchObject({ kind: 'completed', decision: 'TC' });
    expect(devices.chipReader.inTransaction()).toBe(false);

    const tap = devices.contactless.activateTransaction({ amountCents: 500, timeoutMs: 5000 });
    await until(() => sims.controls.state().contactless.waitingForCard, 3000, 'contactless waiting');
    expect(sims.controls.tap('4242424242424242')).toBe(true);
    const t = await tap;
    if (t.kind !== 'emv') throw new Error(`expected emv, got ${t.kind}`);
    expect(bytesToHex(findTlv(decodeTlvHex(t.emvTlvHex), '9F39')?.value ?? new Uint8Array(0))).toBe('07');
  });

  it('insert() goes to the chip slot only: with only a contactless activation waiting it is refused', async () => {
    const { sims, devices } = await setup();
    expect(sims.controls.insert()).toBe(false);
    const tap = devices.contactless.activateTransaction({ amountCents: 500, timeoutMs: 5000 });
    await until(() => sims.controls.state().contactless.waitingForCard, 3000, 'contactless waiting');
    expect(sims.controls.state().chip.waitingForCard).toBe(false);
    expect(sims.controls.insert()).toBe(false);
    expect(sims.controls.tap()).toBe(true);
    expect(await tap).toMatchObject({ kind: 'emv', maskedPan: '411111******1111' });
  });

  it('one start for insert or tap (02-40, contact + contactless): a tap answers it as contactless (07), an insert as chip (05)', async () => {
    const { sims, devices } = await setup();
    const first = devices.chipReader.start({ amountCents: 1250, timeoutMs: 5000, contactless: true });
    await until(() => sims.controls.state().chip.waitingForCard, 3000, 'the reader waiting');
    // Both interfaces listen: the panel may tap or insert.
    expect(sims.controls.state().contactless.waitingForCard).toBe(true);
    expect(sims.controls.tap('5555555555554444')).toBe(true);
    const tapped = await first;
    if (tapped.kind !== 'contactless') throw new Error(`expected contactless, got ${tapped.kind}`);
    const nodes = decodeTlvHex(tapped.emvTlvHex);
    expect(bytesToHex(findTlv(nodes, '9F39')?.value ?? new Uint8Array(0))).toBe('07');
    expect(bytesToHex(findTlv(nodes, '9F02')?.value ?? new Uint8Array(0))).toBe('000000001250');
    expect(tapped.sanitizedEmvHex).not.toContain('5555555555554444');
    expect(devices.chipReader.inTransaction()).toBe(false);
    expect(sims.controls.state().contactless.waitingForCard).toBe(false);

    const second = devices.chipReader.start({ amountCents: 1250, timeoutMs: 5000, contactless: true });
    await until(() => sims.controls.state().chip.waitingForCard, 3000, 'the reader waiting');
    expect(sims.controls.insert('5100000000000016')).toBe(true);
    const inserted = await second;
    if (inserted.kind !== 'online') throw new Error(`expected online, got ${inserted.kind}`);
    expect(inserted.entryMode).toBe('05');
    expect(inserted.card.last4).toBe('0016');
    await devices.chipReader.cancel();
    // Nothing listens any more: a late tap is refused.
    expect(sims.controls.tap()).toBe(false);
  });

  it('chip faults from the panel: an unreadable chip falls back, a card pulled out ends card-removed', async () => {
    const { sims, devices } = await setup({ autoInsert: true });
    sims.controls.setFaults({ chip: { chipUnreadable: true } });
    expect((await devices.chipReader.start({ amountCents: 100, timeoutMs: 5000 })).kind).toBe('fallback');
    sims.controls.setFaults({});
    const r = await devices.chipReader.start({ amountCents: 100, timeoutMs: 5000 });
    expect(r.kind).toBe('online');
    expect(sims.controls.removeCard()).toBe(true);
    expect(await devices.chipReader.complete('unable-to-go-online')).toEqual({ kind: 'card-removed' });
    // The trigger card that cannot be read, named like any test card.
    const waiting = devices.chipReader.start({ amountCents: 100, timeoutMs: 5000 });
    expect(await waiting).toMatchObject({ kind: 'online' });
    await devices.chipReader.cancel();
    expect(devices.chipReader.inTransaction()).toBe(false);
  });

  it("the chip reader shares the reader's connection: unplugged, it is not connected", async () => {
    const { sims, devices, manager } = await setup();
    await sims.controls.unplug('contactless');
    await until(() => manager.statusOf('contactless').health.state !== 'connected', 3000, 'reader gone');
    expect(await devices.chipReader.start({ amountCents: 100, timeoutMs: 1000 })).toMatchObject({
      kind: 'failed',
      code: 'not-connected',
    });
    expect(devices.chipReader.health().state).not.toBe('connected');
    sims.controls.replug('contactless');
    await until(() => manager.statusOf('contactless').health.state === 'connected', 3000, 'reader back');
    const again = devices.chipReader.start({ amountCents: 100, timeoutMs: 5000 });
    await until(() => sims.controls.state().chip.waitingForCard, 3000, 'chip slot waiting');
    expect(sims.controls.insert('4000000000000432')).toBe(true);
    expect((await again).kind).toBe('fallback');
  });
});
