import { afterEach, describe, expect, it } from 'vitest';
import { findTlv } from '../../../native/protocols/ber-tlv';
import { readEmvCardData } from '../../../native/protocols/emv-sanitize';
import { bytesToHex } from '../../../native/protocols/hex';
import {
  buildActivateTransaction,
  buildBuzzer,
  buildCancelTransaction,
  buildGetConfiguration,
  buildLed,
  buildPing,
  encodeVivo2Command,
  parseActivateTransactionResponse,
} from '../../../native/protocols/vivotech2';
import {
  ContactlessSimulator,
  type ContactlessSimulatorOptions,
} from '../../../native/simulators/contactless-simulator';
import {
  type AcTransactionData,
  CRYPTOGRAM_VERSIONS,
  acDataTailFromIad,
  applicationCryptogram,
  deriveIccMasterKeys,
} from '../../../native/protocols/emv-cryptogram-versions';
import { memoryAtcStore } from '../../../native/simulators/chip-atc';
import {
  CHIP_TEST_CARDS,
  SANDBOX_ISSUER_MASTER_KEYS,
  TEST_CARDS,
} from '../../../native/simulators/test-cards';
import { createMemoryPair } from '../../../native/transports/byte-stream';
import { type Link, type Transport, openLink, waitFor } from './harness';
import { vivo2Host as host } from './vivo2-host';

describe.each<Transport>(['memory', 'pty'])('contactless simulator over %s', (transport) => {
  let link: Link | undefined;
  let sim: ContactlessSimulator | undefined;
  afterEach(async () => {
    sim?.stop();
    await link?.close();
    link = undefined;
    sim = undefined;
  });
  async function setup(opts: ContactlessSimulatorOptions = {}) {
    link = await openLink(transport, { baudRate: 115200 });
    sim = new ContactlessSimulator(link.device, opts);
    return { sim, h: host(link), link };
  }

  it('answers ping with the manual bytes', async () => {
    const { h } = await setup();
    await h.send(buildPing());
    await h.next(1);
    const raw: number[] = [];
    link?.host.onData((c) => raw.push(...c));
    await h.send(buildPing());
    await waitFor(() => raw.length >= 16);
    expect(Buffer.from(raw).toString('hex').toUpperCase()).toBe('5669564F746563683200180000' + '00FA83');
  });

  it('get configuration, LED and buzzer', async () => {
    const { h, sim } = await setup();
    await h.send(buildGetConfiguration());
    const cfg = await h.next(1);
    expect(cfg).toMatchObject({ cmd: 0x03, subOrStatus: 0x00, crcOk: true });
    await h.send(buildLed(0, false, true));
    expect(await h.next(2)).toMatchObject({ cmd: 0x0a, subOrStatus: 0 });
    expect(sim.leds.get(0)).toEqual({ red: false, green: true });
    await h.send(buildBuzzer(1));
    expect(await h.next(3)).toMatchObject({ cmd: 0x0b, subOrStatus: 0 });
    expect(sim.beeps).toBe(1);
  });

  it('activate transaction returns EMV TLV data of the tapped card', async () => {
    const card = TEST_CARDS[2]!;
    const { h } = await setup({ card, tapDelayMs: 20 });
    await h.send(buildActivateTransaction({ amountCents: 2599, date: '260314' }));
    const r = parseActivateTransactionResponse(await h.next(1));
    if (!r.ok) throw new Error(r.reason);
    for (const tag of [
      '9F02',
      '5F2A',
      '9F26',
      '9F27',
      '82',
      '95',
      '9A',
      '9C',
      '9F36',
      '9F37',
      '57',
      '5A',
      '5F24',
    ]) {
      expect(findTlv(r.tlv, tag), tag).toBeDefined();
    }
    expect(bytesToHex(findTlv(r.tlv, '9F02')?.value ?? new Uint8Array(0))).toBe('000000002599');
    expect(bytesToHex(findTlv(r.tlv, '9A')?.value ?? new Uint8Array(0))).toBe('260314');
    // Contactless EMV, not contact (05): the issuer answers a tap with nothing for the card.
    expect(bytesToHex(findTlv(r.tlv, '9F39')?.value ?? new Uint8Array(0))).toBe('07');
    const cardData = readEmvCardData(bytesToHex(r.raw));
    expect(cardData).toEqual({
      ok: true,
      value: {
        pan: card.pan,
        expiryYYMM: card.expiryYYMM,
        serviceCode: '101',
        amountCents: 2599,
        currencyNumeric: '840',
      },
    });
  });

  it('the UI taps; the ATC advances per transaction', async () => {
    const { h, sim } = await setup({ autoTap: false });
    const atcs: string[] = [];
    for (let i = 1; i <= 2; i += 1) {
      await h.send(buildActivateTransaction({ amountCents: 100 }));
      await waitFor(() => sim.waitingForCard);
      expect(sim.tap(TEST_CARDS[0])).toBe(true);
      const r = parseActivateTransactionResponse(await h.next(i));
      if (!r.ok) throw new Error(r.reason);
      atcs.push(bytesToHex(findTlv(r.tlv, '9F36')?.value ?? new Uint8Array(0)));
    }
    expect(atcs).toEqual(['0001', '0002']);
    expect(sim.tap()).toBe(false);
  });

  it('no card within the timeout answers status 08; cancel answers the pending activate', async () => {
    const { h } = await setup({ autoTap: false });
    await h.send(buildActivateTransaction({ amountCents: 100, timeoutSeconds: 1 }));
    expect(parseActivateTransactionResponse(await h.next(1, 3000))).toEqual({
      ok: false,
      status: 8,
      reason: 'timeout',
    });
    await h.send(buildActivateTransaction({ amountCents: 100 }));
    await h.send(buildCancelTransaction());
    expect(await h.next(2)).toMatchObject({ cmd: 0x02, subOrStatus: 0x0a });
    expect(await h.next(3)).toMatchObject({ cmd: 0x05, subOrStatus: 0x00 });
  });

  it('bad CRC in gets status 04; unknown command 02; a stalled frame times out with 08', async () => {
    const { h } = await setup();
    const bad = buildPing();
    bad[15] = 0;
    await h.send(bad);
    expect(await h.next(1)).toMatchObject({ cmd: 0x18, subOrStatus: 0x04, crcOk: true });
    await h.send(encodeVivo2Command(0x77, 0x01));
    expect(await h.next(2)).toMatchObject({ cmd: 0x77, subOrStatus: 0x02 });
    await h.send(buildPing().subarray(0, 12));
    expect(await h.next(3)).toMatchObject({ subOrStatus: 0x08 });
    await h.send(buildPing());
    expect(await h.next(4)).toMatchObject({ cmd: 0x18, subOrStatus: 0x00 });
  });

  it('faults: bad CRC out, NAK storm, slow, unplug on activate', async () => {
    const { h, sim, link: l } = await setup();
    sim.setFaults({ badCrc: true });
    await h.send(buildPing());
    expect((await h.next(1)).crcOk).toBe(false);
    sim.setFaults({ nakStorm: true });
    await h.send(buildPing());
    expect(await h.next(2)).toMatchObject({ subOrStatus: 0x04 });
    sim.setFaults({ slowMs: 150 });
    const t0 = Date.now();
    await h.send(buildPing());
    await h.next(3);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    sim.setFaults({ unplugOnActivate: true });
    let closed = false;
    l.host.onClose(() => (closed = true));
    await h.send(buildActivateTransaction({ amountCents: 100 }));
    await waitFor(() => !l.device.isOpen, 3000, 'device closed');
    if (transport === 'pty') await l.pty?.close();
    await waitFor(() => closed, 3000, 'host closed');
    expect(h.frames).toHaveLength(3);
  });

  it("a tap's 9F26 is the card's ARQC under the sandbox issuer keys, over the data the record carries", async () => {
    const { h } = await setup({ card: TEST_CARDS[2], tapDelayMs: 0 });
    await h.send(buildActivateTransaction({ amountCents: 4321 }));
    const r = parseActivateTransactionResponse(await h.next(1));
    if (!r.ok) throw new Error(r.reason);
    const tag = (t: string) => findTlv(r.tlv, t)?.value ?? new Uint8Array(0);
    // A Mastercard stripe card tapped answers as Mastercard CVN 16, PAN sequence number 00.
    expect(bytesToHex(tag('5F34'))).toBe('00');
    const v = CRYPTOGRAM_VERSIONS['mastercard-16'];
    const icc = deriveIccMasterKeys(v, SANDBOX_ISSUER_MASTER_KEYS.mastercard, TEST_CARDS[2]!.pan, '00');
    const tags = Object.fromEntries(
      ['9F02', '9F03', '9F1A', '95', '5F2A', '9A', '9C', '9F37', '82', '9F36'].map((t) => [t, tag(t)]),
    ) as AcTransactionData;
    const expected = applicationCryptogram(v, icc.ac, tags, acDataTailFromIad(v, tag('9F10')));
    expect(bytesToHex(tag('9F26'))).toBe(bytesToHex(expected));
    expect(bytesToHex(tag('9F27'))).toBe('80');
  });
});

describe('a card keeps one transaction counter across the chip slot and the contactless field', () => {
  it('the ATC of a chip card goes on from inserts to taps when both interfaces share the store', () => {
    const store = memoryAtcStore();
    const card = CHIP_TEST_CARDS[0]!;
    // The chip slot took two counters for this card already.
    store.next(card.pan, card.chip!.panSequenceNumber);
    store.next(card.pan, card.chip!.panSequenceNumber);
    const sim = new ContactlessSimulator(createMemoryPair('host', 'reader')[1], {
      atcStore: store,
      autoTap: false,
    });
    try {
      const record = sim.tapRecord(card, { amountCents: 100 });
      expect(bytesToHex(findTlv(record, '9F36')?.value ?? new Uint8Array(0))).toBe('0003');
      // The chip card's own profile: PAN sequence number 01.
      expect(bytesToHex(findTlv(record, '5F34')?.value ?? new Uint8Array(0))).toBe('01');
    } finally {
      sim.stop();
    }
  });
});
