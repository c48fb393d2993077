import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createReplayStream,
  fileSink,
  maskFrameBytes,
  maskText,
  memorySink,
  parseRecording,
  recordHidPort,
  recordStream,
  replayHidReports,
} from '../../../native/devices/frame-recorder';
import { CardReaderDriver } from '../../../native/drivers/card-reader';
import { ContactlessReaderDriver } from '../../../native/drivers/contactless-reader';
import { PinPadDriver } from '../../../native/drivers/pin-pad';
import type { CardReaderEvent } from '../../../native/drivers/roles';
import { decodeTlv, findTlv } from '../../../native/protocols/ber-tlv';
import { bytesToHex } from '../../../native/protocols/hex';
import { buildMagtekSwipeReport } from '../../../native/protocols/magtek-hid';
import { encodeMessage, PacketDecoder } from '../../../native/protocols/verifone-packet';
import { Vivo2Decoder } from '../../../native/protocols/vivotech2';
import { ContactlessSimulator } from '../../../native/simulators/contactless-simulator';
import { PinPadSimulator } from '../../../native/simulators/pinpad-simulator';
import { SwipeReaderSimulator } from '../../../native/simulators/swipe-reader-simulator';
import { SANDBOX_PIN, TEST_CARDS, track1For, track2For } from '../../../native/simulators/test-cards';
import { createMemoryPair } from '../../../native/transports/byte-stream';
import { createRecordedHidPort } from '../../../native/transports/hid-transport';
import { createManualTimers } from '../support/manual-timers';
import { openPtyStreams, until, type PtyStreams } from '../support/pty-streams';

const visa = TEST_CARDS[0]!;
const ascii = (s: string): string => bytesToHex(new TextEncoder().encode(s));

/** Every way a PAN could sit in a recording: as text, as the hex of its ASCII, as BCD hex. */
function expectNoPan(text: string, pan: string): void {
  expect(text).not.toContain(pan);
  expect(text.toUpperCase()).not.toContain(ascii(pan));
}

describe('masking', () => {
  it('masks tracks format-preserving, other digit runs with *, keeping the length', () => {
    const swipe = `${track1For(visa)}${track2For(visa)}\r`;
    const masked = maskText(swipe);
    expect(masked).toHaveLength(swipe.length);
    expect(masked).toContain('%B4111110000001111^********^');
    expect(masked).toContain(`;4111110000001111=${visa.expiryYYMM}101`);
    expect(maskText('card 4111 1111 1111 1111 ok')).toHaveLength('card 4111 1111 1111 1111 ok'.length);
    expect(maskText('order 5555555555554444')).toBe('order 555555******4444');
  });

  it('masks the account of a Z62 and drops the PIN block of a 73, with the LRC recomputed', () => {
    const z62 = encodeMessage({
      type: 'Z62',
      account: visa.pan,
      minPinLength: 4,
      maxPinLength: 12,
      allowNullPin: false,
      prompt1: 'ENTER PIN',
      prompt2: '',
      processingPrompt: 'WAIT',
    });
    const r73 = encodeMessage({ type: '73', ksn: 'FFFF9876543210E00001', pinBlock: '1B9C1845EB993A7A' });
    const masked = maskFrameBytes(Uint8Array.of(...z62, 0x06, ...r73));
    const events = new PacketDecoder().feed(masked);
    expect(events.map((e) => (e.type === 'packet' ? e.lrcOk : e.control))).toEqual([true, 'ACK', true]);
    const text = bytesToHex(masked);
    expectNoPan(text, visa.pan);
    expect(text).not.toContain(ascii('1B9C1845EB993A7A'));
    // A damaged LRC stays damaged: the fault under investigation survives masking.
    const bad = Uint8Array.from(z62);
    bad[bad.length - 1] = (bad.at(-1) ?? 0) ^ 0x55;
    expect(new PacketDecoder().feed(maskFrameBytes(bad))[0]).toMatchObject({ lrcOk: false });
  });
});

describe('recording received bytes split anywhere, however slowly', () => {
  it('never writes part of a PAN or a PIN block on its own', () => {
    const clock = createManualTimers();
    const sink = memorySink();
    const listeners = new Set<(c: Uint8Array) => void>();
    const stream = recordStream(
      {
        label: 'split',
        isOpen: true,
        write: () => Promise.resolve(),
        onData: (l) => (listeners.add(l), () => listeners.delete(l)),
        onClose: () => () => undefined,
        close: () => Promise.resolve(),
      },
      sink,
      { timers: clock.timers },
    );
    stream.onData(() => undefined);
    const r73 = encodeMessage({ type: '73', ksn: 'FFFF9876543210E00001', pinBlock: '1B9C1845EB993A7A' });
    const bytes = Uint8Array.of(
      ...new TextEncoder().encode(`${track1For(visa)}${track2For(visa)}\r`),
      ...r73,
      0x06,
    );
    // Every possible cut point, one byte a second: the worst a slow UART can do.
    for (let i = 0; i < bytes.length; i += 1) {
      for (const l of listeners) l(bytes.subarray(i, i + 1));
      clock.advance(1000);
    }
    const text = sink.lines.join('\n');
    expectNoPan(text, visa.pan);
    expect(text).not.toContain(ascii('1B9C1845EB993A7A'));
    expect(text).not.toContain(ascii('1B9C1845'));
    const inbound = parseRecording(text).frames.map((f) => f.hex);
    expect(inbound).toHaveLength(3); // the swipe line, the 73 packet, the ACK
  });
});

describe('recording sessions (card data never in clear)', () => {
  let dir: string;
  let pty: PtyStreams | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tillpoint-frames-'));
  });
  afterEach(async () => {
    await pty?.close();
    pty = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('a swipe session over a pty, split into small reads, records no PAN; the file is owner-only', async () => {
    pty = await openPtyStreams({ baudRate: 9600 });
    const path = join(dir, 'card-reader.jsonl');
    const host = recordStream(pty.host, fileSink(path));
    const sim = new SwipeReaderSimulator(pty.device);
    const driver = new CardReaderDriver({ kind: 'serial', stream: host });
    const events: CardReaderEvent[] = [];
    driver.onCard((e) => events.push(e));
    for (const card of TEST_CARDS.slice(0, 4)) await sim.swipe(card);
    sim.setFaults({ chunkSize: 5, chunkGapMs: 3 });
    await sim.swipe(visa);
    await until(() => events.length === 5, 5000, 'five swipes');
    await driver.close();
    const text = await readFile(path, 'utf8');
    for (const card of TEST_CARDS.slice(0, 4)) expectNoPan(text, card.pan);
    expect(((await stat(path)).mode & 0o777).toString(8)).toBe('600');
    const rec = parseRecording(text);
    expect(rec.header.kind).toBe('tillpoint-frames');
    // Reads are gathered into whole lines before masking: every swipe's `?CR` ends a recorded frame.
    const inbound = rec.frames.filter((f) => f.dir === 'in');
    expect(inbound.every((f) => f.hex.endsWith('3F0D'))).toBe(true);
    expect(
      inbound
        .map((f) => f.hex)
        .join('')
        .split('3F0D'),
    ).toHaveLength(6);
  });

  it('a PIN session records neither PAN nor PIN block, and replays in step', async () => {
    const [host, device] = createMemoryPair();
    const sink = memorySink();
    const sim = new PinPadSimulator(device, { pin: SANDBOX_PIN, ackTimeoutMs: 300 });
    const driver = new PinPadDriver(recordStream(host, sink), { ackTimeoutMs: 300 });
    await driver.display('HELLO');
    const r = await driver.requestPin({ pan: visa.pan, amountCents: 100, timeoutMs: 5000 });
    if (r.kind !== 'pin') throw new Error('expected a PIN');
    await driver.close();
    sim.stop();
    const text = sink.lines.join('\n');
    expectNoPan(text, visa.pan);
    expect(text).not.toContain(ascii(r.pinBlock));

    // Replay the device side into a fresh driver: the display is ACKed from the recording.
    const replay = createReplayStream(parseRecording(text));
    const again = new PinPadDriver(replay.stream, { ackTimeoutMs: 300 });
    await again.display('HELLO');
    const replayed = await again.requestPin({ pan: visa.pan, amountCents: 100, timeoutMs: 2000 });
    // The PIN block was dropped from the recording: the replay can only return zeros.
    expect(replayed).toMatchObject({ kind: 'pin', ksn: r.ksn, pinBlock: '0000000000000000' });
    expect((await replay.done).mismatches).toBe(0);
  });

  it('a contactless session masks the EMV card tags with valid CRCs, and the replay yields the masked card', async () => {
    const [host, device] = createMemoryPair();
    const sink = memorySink();
    const sim = new ContactlessSimulator(device, { card: visa });
    const driver = new ContactlessReaderDriver(recordStream(host, sink));
    const live = await driver.activateTransaction({ amountCents: 4200, timeoutMs: 5000 });
    expect(live).toMatchObject({ kind: 'emv', maskedPan: '411111******1111' });
    await driver.close();
    sim.stop();
    const text = sink.lines.join('\n');
    expectNoPan(text, visa.pan);
    const rec = parseRecording(text);
    const frames = new Vivo2Decoder({ direction: 'response' }).feed(
      Uint8Array.from(
        Buffer.from(
          rec.frames
            .filter((f) => f.dir === 'in')
            .map((f) => f.hex)
            .join(''),
          'hex',
        ),
      ),
    );
    expect(frames.every((f) => f.crcOk)).toBe(true);
    const tlv = decodeTlv(frames.at(-1)!.data);
    expect(bytesToHex(findTlv(tlv, '5A')!.value)).toBe('4111110000001111');

    const replay = createReplayStream(rec);
    const again = new ContactlessReaderDriver(replay.stream);
    expect(await again.activateTransaction({ amountCents: 4200, timeoutMs: 5000 })).toMatchObject({
      kind: 'emv',
      maskedPan: '411111******1111',
    });
  });

  it('HID reports are masked in place and replay into the HID card reader', async () => {
    const live = createRecordedHidPort();
    const sink = memorySink();
    const port = recordHidPort(live.port, sink);
    const events: CardReaderEvent[] = [];
    new CardReaderDriver({ kind: 'hid', port }).onCard((e) => events.push(e));
    live.device.emitReport(buildMagtekSwipeReport(track1For(visa), track2For(visa)));
    await until(() => events.length === 1, 2000, 'live swipe');
    const text = sink.lines.join('\n');
    expectNoPan(text, visa.pan);
    const rec = parseRecording(text);
    expect(rec.frames[0]?.hex).toHaveLength(337 * 2);

    const replay = createRecordedHidPort();
    const replayed: CardReaderEvent[] = [];
    new CardReaderDriver({ kind: 'hid', port: replay.port }).onCard((e) => replayed.push(e));
    expect(replayHidReports(rec, replay.device)).toBe(1);
    await until(() => replayed.length === 1, 2000, 'replayed swipe');
    expect(replayed[0]).toMatchObject({
      kind: 'swipe',
      maskedPan: '411111******1111',
      cardholderName: '********',
    });
  });
});
