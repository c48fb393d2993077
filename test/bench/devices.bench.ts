/**
 * Device benchmarks: frames/s of every device parser, and swipe-to-parsed latency over a real socat pty.
 * Each figure is paired with a reference run over the same bytes in the same process (a bare
 * `Buffer.indexOf` scan; for latency, the same bytes through the same pty with no parsing), so the ratio
 * says what the parser costs on this machine regardless of its speed.
 *
 *   npx tsx test/bench/devices.bench.ts        (or through test/bench/run.ts, which calls run())
 */
import { pathToFileURL } from 'node:url';
import { CardReaderDriver } from '../../native/drivers/card-reader';
import { decodeTlv, encodeTlv, type TlvNode } from '../../native/protocols/ber-tlv';
import { parseSwipe } from '../../native/protocols/iso7813-track';
import {
  buildMagtekSwipeReport,
  magtekSwipeText,
  parseMagtekSwipeReport,
} from '../../native/protocols/magtek-hid';
import { encodeStrokes, StrokeAssembler, TopazDecoder } from '../../native/protocols/topaz-signature';
import { encodeMessage, PacketDecoder } from '../../native/protocols/verifone-packet';
import { encodeVivo2Response, Vivo2Decoder, toBcd } from '../../native/protocols/vivotech2';
import { createPtyPair } from '../../native/simulators/pty-pair';
import { SCRIPTED_SIGNATURE } from '../../native/simulators/signature-pad-simulator';
import { swipeOutput, SwipeReaderSimulator } from '../../native/simulators/swipe-reader-simulator';
import { TEST_CARDS, track1For, track2For } from '../../native/simulators/test-cards';
import { openSerialStream } from '../../native/transports/serial-transport';

export type ParserFigure = {
  name: string;
  frames: number;
  framesPerSecond: number;
  /** The reference scan over the same bytes, in frames/s. */
  referenceFramesPerSecond: number;
  /** How many times slower the parser is than the reference scan. */
  ratio: number;
};

export type LatencyFigure = {
  name: string;
  samples: number;
  p50Ms: number;
  p99Ms: number;
  referenceP50Ms: number;
  referenceP99Ms: number;
  ratioP50: number;
};

export type DevicesBenchReport = { parsers: ParserFigure[]; latency: LatencyFigure[] };

export type DevicesBenchOptions = {
  /** Time spent per measured loop. Default 400 ms. */
  budgetMs?: number;
  /** Swipes for the latency figure. Default 200. */
  swipes?: number;
  /** Print the table (default true). */
  print?: boolean;
};

let sink = 0;

/** Runs `body` (which handles `frames` frames) repeatedly for about `budgetMs`; returns frames/s. */
function throughput(frames: number, budgetMs: number, body: () => void): number {
  for (let i = 0; i < 3; i += 1) body(); // warm-up: let the JIT see the hot path
  let rounds = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  do {
    body();
    rounds += 1;
    elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  } while (elapsed < budgetMs);
  return (rounds * frames * 1000) / elapsed;
}

/** The reference: count occurrences of a delimiter in the same bytes with Buffer.indexOf. */
function indexOfScan(buf: Buffer, needle: number | Buffer): () => void {
  return () => {
    let n = 0;
    for (let i = buf.indexOf(needle); i >= 0; i = buf.indexOf(needle, i + 1)) n += 1;
    sink += n;
  };
}

function concat(parts: readonly Uint8Array[]): Buffer {
  return Buffer.concat(parts.map((p) => Buffer.from(p)));
}

function figure(
  name: string,
  frames: number,
  budgetMs: number,
  parse: () => void,
  reference: () => void,
): ParserFigure {
  const fps = throughput(frames, budgetMs, parse);
  const ref = throughput(frames, budgetMs, reference);
  return { name, frames, framesPerSecond: fps, referenceFramesPerSecond: ref, ratio: ref / fps };
}

function parserFigures(budgetMs: number): ParserFigure[] {
  const N = 1000;
  const cards = Array.from({ length: N }, (_, i) => TEST_CARDS[i % TEST_CARDS.length]!);

  // ISO 7813 tracks, as a reader types them.
  const swipes = cards.map((c) => `${track1For(c)}${track2For(c)}`);
  const swipeBytes = Buffer.from(swipes.join('\r'), 'latin1');
  const tracks = figure(
    'ISO 7813 tracks (parseSwipe)',
    N,
    budgetMs,
    () => {
      for (const s of swipes) if (parseSwipe(s).ok) sink += 1;
    },
    indexOfScan(swipeBytes, 0x3f),
  );

  // MagTek 337-byte HID reports.
  const reports = cards.map((c) => buildMagtekSwipeReport(track1For(c), track2For(c)));
  const reportBytes = concat(reports);
  const magtek = figure(
    'MagTek HID report (parse + tracks)',
    N,
    budgetMs,
    () => {
      for (const r of reports) {
        const p = parseMagtekSwipeReport(r);
        if (p.ok && parseSwipe(magtekSwipeText(p.value)).ok) sink += 1;
      }
    },
    indexOfScan(reportBytes, 0x3f),
  );

  // EMV BER-TLV of a contactless answer.
  const emv: TlvNode[] = [
    { tag: '9F02', value: toBcd(1234, 6) },
    { tag: '5F2A', value: toBcd(840, 2) },
    { tag: '9A', value: toBcd('260101', 3) },
    { tag: '9C', value: toBcd(0, 1) },
    { tag: '9F26', value: Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8) },
    { tag: '9F27', value: Uint8Array.of(0x80) },
    { tag: '82', value: Uint8Array.of(0x20, 0) },
    { tag: '95', value: new Uint8Array(5) },
    { tag: '9F36', value: Uint8Array.of(0, 1) },
    { tag: '9F37', value: Uint8Array.of(9, 8, 7, 6) },
    { tag: '57', value: Buffer.from('4111111111111111D30121010000000000000F', 'hex') },
    { tag: '5A', value: Buffer.from('4111111111111111', 'hex') },
    { tag: '5F24', value: toBcd('301231', 3) },
    { tag: '84', value: Buffer.from('A0000000031010', 'hex') },
  ];
  const tlvOne = encodeTlv(emv);
  const tlvs = Array.from({ length: N }, () => tlvOne);
  const tlvBytes = concat(tlvs);
  const tlv = figure(
    'EMV BER-TLV (decodeTlv)',
    N,
    budgetMs,
    () => {
      for (const t of tlvs) sink += decodeTlv(t).length;
    },
    indexOfScan(tlvBytes, Buffer.from([0x9f, 0x02])),
  );

  // VeriFone packets: a 73 answer and an ACK, as a pad sends them.
  const r73 = encodeMessage({ type: '73', ksn: 'FFFF9876543210E00001', pinBlock: '1B9C1845EB993A7A' });
  const verifoneBytes = concat(Array.from({ length: N }, () => Uint8Array.of(...r73, 0x06)));
  const verifone = figure(
    'VeriFone packets (PacketDecoder)',
    N,
    budgetMs,
    () => {
      const d = new PacketDecoder();
      d.push(verifoneBytes, () => {
        sink += 1;
      });
    },
    indexOfScan(verifoneBytes, 0x03),
  );

  // ViVOtech2 responses carrying the EMV answer.
  const vivoFrame = encodeVivo2Response(0x02, 0x00, tlvOne);
  const vivoBytes = concat(Array.from({ length: N }, () => vivoFrame));
  const vivo = figure(
    'ViVOtech2 frames (Vivo2Decoder, CRC)',
    N,
    budgetMs,
    () => {
      const d = new Vivo2Decoder({ direction: 'response' });
      d.push(vivoBytes, (f) => {
        if (f.crcOk) sink += 1;
      });
    },
    indexOfScan(vivoBytes, Buffer.from('ViVOtech2\0', 'latin1')),
  );

  // Topaz pen packets of a signature, decoded and assembled into strokes.
  const pen = encodeStrokes(SCRIPTED_SIGNATURE);
  const penPackets = pen.length / 5;
  const repeats = Math.ceil(N / penPackets);
  const topazBytes = concat(Array.from({ length: repeats }, () => pen));
  const topazFrames = repeats * penPackets;
  const topaz = figure(
    'Topaz pen packets (decode + strokes)',
    topazFrames,
    budgetMs,
    () => {
      const d = new TopazDecoder();
      const a = new StrokeAssembler();
      d.push(topazBytes, (p) => {
        if (a.add(p)) sink += 1;
      });
    },
    indexOfScan(topazBytes, pen[0] ?? 0xc1),
  );

  return [tracks, magtek, tlv, verifone, vivo, topaz];
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/**
 * Swipe-to-parsed over a socat pty: from the simulator's write to the driver's card event. Reference:
 * the same bytes over the same kind of pty, timed to the CR arriving, with no parsing.
 */
async function swipeLatency(swipes: number): Promise<LatencyFigure> {
  const line = { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 } as const;
  const card = TEST_CARDS[0]!;

  const pair = await createPtyPair();
  const device = await openSerialStream({ path: pair.a, ...line });
  const host = await openSerialStream({ path: pair.b, ...line });
  const sim = new SwipeReaderSimulator(device);
  const driver = new CardReaderDriver({ kind: 'serial', stream: host });
  const parsed: number[] = [];
  let waiting: (() => void) | undefined;
  driver.onCard(() => waiting?.());
  for (let i = 0; i < swipes + 10; i += 1) {
    const got = new Promise<void>((resolve) => (waiting = resolve));
    const t0 = process.hrtime.bigint();
    await sim.swipe(card);
    await got;
    if (i >= 10) parsed.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  await driver.close();
  await device.close();
  await pair.close();

  const refPair = await createPtyPair();
  const a = await openSerialStream({ path: refPair.a, ...line });
  const b = await openSerialStream({ path: refPair.b, ...line });
  const bytes = Buffer.from(swipeOutput(card), 'latin1');
  const raw: number[] = [];
  let rawWaiting: (() => void) | undefined;
  b.onData((chunk) => {
    if (Buffer.from(chunk).indexOf(0x0d) >= 0) rawWaiting?.();
  });
  for (let i = 0; i < swipes + 10; i += 1) {
    const got = new Promise<void>((resolve) => (rawWaiting = resolve));
    const t0 = process.hrtime.bigint();
    await a.write(bytes);
    await got;
    if (i >= 10) raw.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  await a.close();
  await b.close();
  await refPair.close();

  parsed.sort((x, y) => x - y);
  raw.sort((x, y) => x - y);
  const p50 = percentile(parsed, 50);
  const refP50 = percentile(raw, 50);
  return {
    name: 'swipe → parsed card event over a socat pty',
    samples: parsed.length,
    p50Ms: p50,
    p99Ms: percentile(parsed, 99),
    referenceP50Ms: refP50,
    referenceP99Ms: percentile(raw, 99),
    ratioP50: p50 / refP50,
  };
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

function printReport(r: DevicesBenchReport): void {
  const lines: string[] = [
    '',
    'devices: parser throughput (frames/s; reference = Buffer.indexOf scan of the same bytes)',
  ];
  for (const p of r.parsers) {
    lines.push(
      `  ${p.name.padEnd(40)} ${fmt(p.framesPerSecond).padStart(12)} /s   ref ${fmt(p.referenceFramesPerSecond).padStart(12)} /s   ${fmt(p.ratio, 1)}x ref`,
    );
  }
  lines.push('devices: latency (reference = the same bytes over a pty, unparsed)');
  for (const l of r.latency) {
    lines.push(
      `  ${l.name.padEnd(40)} p50 ${fmt(l.p50Ms, 3)} ms  p99 ${fmt(l.p99Ms, 3)} ms   ref p50 ${fmt(l.referenceP50Ms, 3)} ms  p99 ${fmt(l.referenceP99Ms, 3)} ms   ${fmt(l.ratioP50, 2)}x ref (n=${l.samples})`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

export async function run(options: DevicesBenchOptions = {}): Promise<DevicesBenchReport> {
  const report: DevicesBenchReport = {
    parsers: parserFigures(options.budgetMs ?? 400),
    latency: [await swipeLatency(options.swipes ?? 200)],
  };
  if (options.print ?? true) printReport(report);
  if (sink === -1) process.stdout.write('');
  return report;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
}
