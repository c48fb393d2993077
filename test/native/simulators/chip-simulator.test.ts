import { afterEach, describe, expect, it } from 'vitest';
import { findTlv } from '../../../native/protocols/ber-tlv';
import { bytesToHex } from '../../../native/protocols/hex';
import {
  EMV_RESULT,
  buildCancel,
  buildContactApplyHostResponse,
  buildContactAuthenticate,
  buildContactStart,
  parseContactResponse,
} from '../../../native/protocols/idtech-emv';
import {
  buildActivateTransaction,
  buildPing,
  encodeVivo2Command,
  parseActivateTransactionResponse,
} from '../../../native/protocols/vivotech2';
import { fileAtcStore, memoryAtcStore } from '../../../native/simulators/chip-atc';
import { ChipSimulator, type ChipSimulatorOptions } from '../../../native/simulators/chip-simulator';
import { NgaReaderSimulator } from '../../../native/simulators/nga-reader-simulator';
import { CHIP_TEST_CARDS, TEST_CARDS } from '../../../native/simulators/test-cards';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Link, type Transport, openLink, waitFor } from './harness';
import { vivo2Host as host } from './vivo2-host';

const start = (amountCents = 1000) =>
  buildContactStart({
    allowFallback: true,
    cardSeatedTimeoutSeconds: 5,
    authenticateTimeoutSeconds: 30,
    amountCents,
  });

describe.each<Transport>(['memory', 'pty'])('contact chip simulator over %s', (transport) => {
  let link: Link | undefined;
  let sim: ChipSimulator | undefined;
  afterEach(async () => {
    sim?.stop();
    await link?.close();
    link = undefined;
  });
  async function setup(opts: ChipSimulatorOptions = {}) {
    link = await openLink(transport);
    sim = new ChipSimulator(link.device, opts);
    return { h: host(link), sim };
  }

  it('60-10 waits for the card, answers 0010 with the card data; 60-11 answers 0004 with the ARQC', async () => {
    const { h, sim } = await setup();
    await h.send(start(4321));
    await waitFor(() => sim.waitingForCard, 3000, 'waiting for a card');
    expect(h.frames).toHaveLength(0);
    expect(sim.insert()).toBe(true);
    const started = parseContactResponse(await h.next(1));
    expect(started).toMatchObject({ ok: true, resultCode: EMV_RESULT.startOk, attribution: 0 });
    if (!started.ok) return;
    expect(bytesToHex(findTlv(started.tlv, '9F39')?.value ?? new Uint8Array(0))).toBe('05');
    expect(findTlv(started.tlv, '8E')).toBeDefined();
    await h.send(buildContactAuthenticate());
    const auth = parseContactResponse(await h.next(2));
    expect(auth).toMatchObject({ ok: true, resultCode: EMV_RESULT.goOnline });
    if (!auth.ok) return;
    expect(bytesToHex(findTlv(auth.tlv, '9F27')?.value ?? new Uint8Array(0))).toBe('80');
    expect(findTlv(auth.tlv, '9F26')?.value).toHaveLength(8);
    expect(bytesToHex(findTlv(auth.tlv, '9F02')?.value ?? new Uint8Array(0))).toBe('000000004321');
    expect(bytesToHex(findTlv(auth.tlv, '9F36')?.value ?? new Uint8Array(0))).toBe('0001');
  });

  it('commands out of order are not allowed (0B); bad CRC gets 04; unknown commands 02/03; ping OK', async () => {
    const { h } = await setup();
    await h.send(buildContactAuthenticate());
    expect((await h.next(1)).subOrStatus).toBe(0x0b);
    await h.send(buildContactApplyHostResponse({ kind: 'unable-to-go-online' }));
    expect((await h.next(2)).subOrStatus).toBe(0x0b);
    const broken = start();
    broken[broken.length - 1] = (broken[broken.length - 1] ?? 0) ^ 0xff;
    await h.send(broken);
    expect((await h.next(3)).subOrStatus).toBe(0x04);
    await h.send(encodeVivo2Command(0x60, 0x19));
    expect((await h.next(4)).subOrStatus).toBe(0x03);
    await h.send(encodeVivo2Command(0x77, 0x01));
    expect((await h.next(5)).subOrStatus).toBe(0x02);
    await h.send(buildPing());
    expect((await h.next(6)).subOrStatus).toBe(0x00);
    await h.send(encodeVivo2Command(0x60, 0x10, Uint8Array.of(0x05)));
    expect((await h.next(7)).subOrStatus).toBe(0x07);
  });

  it('cancel while waiting answers the start with 0012, then the cancel; a second start meanwhile is refused', async () => {
    const { h, sim } = await setup();
    await h.send(start());
    await waitFor(() => sim.waitingForCard, 3000, 'waiting');
    await h.send(start());
    expect((await h.next(1)).subOrStatus).toBe(0x0b);
    await h.send(buildCancel());
    expect(parseContactResponse(await h.next(2))).toMatchObject({
      ok: true,
      resultCode: EMV_RESULT.cancelled,
    });
    expect(await h.next(3)).toMatchObject({ cmd: 0x05, subOrStatus: 0 });
    expect(sim.busy).toBe(false);
  });
});

describe('NGA reader simulator: contactless and contact on one link', () => {
  let link: Link | undefined;
  let reader: NgaReaderSimulator | undefined;
  afterEach(async () => {
    await reader?.stop();
    await link?.close();
    link = undefined;
  });

  it('routes 02-01 to the contactless side and 60-1x to the chip side; cancel to whichever is open', async () => {
    link = await openLink('memory');
    reader = new NgaReaderSimulator(link.device, { contactless: { autoTap: false } });
    const h = host(link);
    await h.send(buildPing());
    expect(await h.next(1)).toMatchObject({ cmd: 0x18, subOrStatus: 0 });
    await h.send(buildActivateTransaction({ amountCents: 700 }));
    await waitFor(() => reader?.contactless.waitingForCard === true, 3000, 'contactless waiting');
    expect(reader.chip.busy).toBe(false);
    expect(reader.contactless.tap(TEST_CARDS[0])).toBe(true);
    const tapped = parseActivateTransactionResponse(await h.next(2));
    expect(tapped.ok && bytesToHex(findTlv(tapped.tlv, '9F39')?.value ?? new Uint8Array(0))).toBe('07');
    await h.send(start(900));
    await waitFor(() => reader?.chip.waitingForCard === true, 3000, 'chip waiting');
    expect(reader.contactless.waitingForCard).toBe(false);
    await h.send(buildCancel());
    expect(parseContactResponse(await h.next(3))).toMatchObject({
      ok: true,
      resultCode: EMV_RESULT.cancelled,
    });
    expect(await h.next(4)).toMatchObject({ cmd: 0x05, subOrStatus: 0 });
    // Nothing open: the contactless side answers the cancel, as before chip support.
    await h.send(buildCancel());
    expect(await h.next(5)).toMatchObject({ cmd: 0x05, subOrStatus: 0 });
    await new Promise((r) => setTimeout(r, 50));
    expect(h.frames).toHaveLength(5);
  });

  it('a corrupted frame is answered 04 once, not by both interfaces', async () => {
    link = await openLink('memory');
    reader = new NgaReaderSimulator(link.device);
    const h = host(link);
    const broken = start();
    broken[20] = (broken[20] ?? 0) ^ 0x01;
    await h.send(broken);
    expect((await h.next(1)).subOrStatus).toBe(0x04);
    await new Promise((r) => setTimeout(r, 50));
    expect(h.frames).toHaveLength(1);
  });
});

describe('chip ATC stores', () => {
  it('count up per card; the file store keeps counting after a restart and holds no card number', () => {
    const m = memoryAtcStore();
    expect([
      m.next('4012888888881881', '01'),
      m.next('4012888888881881', '01'),
      m.next('5100000000000016', '01'),
    ]).toEqual([1, 2, 1]);
    const dir = mkdtempSync(join(tmpdir(), 'tillpoint-atc-'));
    try {
      const path = join(dir, 'atc.json');
      expect(fileAtcStore(path).next('4012888888881881', '01')).toBe(1);
      expect(fileAtcStore(path).next('4012888888881881', '01')).toBe(2);
      expect(readFileSync(path, 'utf8')).not.toContain('4012888888881881');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('chip test cards', () => {
  it('service code 201, a chip profile, and distinct numbers from the stripe cards', () => {
    expect(CHIP_TEST_CARDS.length).toBeGreaterThan(0);
    for (const c of CHIP_TEST_CARDS) {
      expect(c.serviceCode).toBe('201');
      expect(c.chip).toBeDefined();
      expect(TEST_CARDS.some((t) => t.pan === c.pan)).toBe(false);
    }
    expect(TEST_CARDS.every((t) => t.serviceCode === '101' && t.chip === undefined)).toBe(true);
  });
});
