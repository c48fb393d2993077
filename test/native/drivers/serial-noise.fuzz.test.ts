import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkChipCryptogram } from '../../../gateway/sandbox/emv-issuer';
import { CardReaderDriver } from '../../../native/drivers/card-reader';
import { NgaReaderDriver } from '../../../native/drivers/nga-reader';
import { PinPadDriver } from '../../../native/drivers/pin-pad';
import { ReceiptPrinterDriver } from '../../../native/drivers/receipt-printer';
import type { CardReaderEvent, ChipHostResponse, Receipt } from '../../../native/drivers/roles';
import { SignaturePadDriver } from '../../../native/drivers/signature-pad';
import { decryptTdesDukptPinBlock } from '../../../native/protocols/dukpt-tdes';
import { readIssuerResponse } from '../../../native/protocols/emv-issuer-response';
import { encodeTopazPacket } from '../../../native/protocols/topaz-signature';
import {
  encodeControl,
  encodeMessage,
  encodeTransactionPacket,
} from '../../../native/protocols/verifone-packet';
import { VIVO2_HEADER, encodeVivo2Response } from '../../../native/protocols/vivotech2';
import { NgaReaderSimulator } from '../../../native/simulators/nga-reader-simulator';
import { PinPadSimulator, SANDBOX_BDK } from '../../../native/simulators/pinpad-simulator';
import { PrinterSimulator } from '../../../native/simulators/printer-simulator';
import {
  SCRIPTED_SIGNATURE,
  SignaturePadSimulator,
} from '../../../native/simulators/signature-pad-simulator';
import { SwipeReaderSimulator } from '../../../native/simulators/swipe-reader-simulator';
import {
  CHIP_TEST_CARDS,
  SANDBOX_PIN,
  TEST_CARDS,
  track1For,
  track2For,
} from '../../../native/simulators/test-cards';
import type { SerialSettings } from '../../../native/transports/serial-transport';
import { checkAsyncProperty } from '../../support/fuzz';
import { openPtyStreams, sleep, until, type PtyStreams } from '../support/pty-streams';

/**
 * Each serial driver over a real socat pty pair, its device's end first fed noise — random bytes biased to
 * the protocol's framing characters, its own frames truncated, corrupted, or far over any length it
 * accepts — and then a real operation with the device's simulator, which must succeed as if nothing had
 * happened. Property-based (fast-check); seeds printed, bounded in time (test/support/fuzz.ts).
 */

const visa = TEST_CARDS[0]!;
const amex = TEST_CARDS.find((c) => c.brand === 'Amex')!;
const chipCard = CHIP_TEST_CARDS.find((c) => c.pan === '4012888888881881')!;
const bytes = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** One piece of line noise: random bytes, or one of the protocol's frames cut short, corrupted, or bloated. */
function noise(frames: readonly Uint8Array[], framing: readonly number[], oversized: Uint8Array) {
  const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(...framing));
  const frame = fc.constantFrom(...frames);
  return fc.oneof(
    fc.array(byte, { minLength: 1, maxLength: 96 }).map((a) => Uint8Array.from(a)),
    fc.tuple(frame, fc.nat()).map(([f, cut]) => f.slice(0, cut % f.length)),
    fc.tuple(frame, fc.nat(), fc.integer({ min: 1, max: 255 })).map(([f, at, x]) => {
      const c = f.slice();
      c[at % c.length] = (c[at % c.length] ?? 0) ^ x;
      return c;
    }),
    fc.constant(oversized),
  );
}
const pieces = (one: fc.Arbitrary<Uint8Array>) => fc.array(one, { minLength: 1, maxLength: 5 });

/**
 * Opens the pty pair, writes the noise from the device's end, and resolves once the host's end has read
 * every byte of it (the driver has seen all of it before the operation starts).
 */
async function noisyLine(
  settings: Partial<Omit<SerialSettings, 'path'>>,
  noiseChunks: readonly Uint8Array[],
  attach: (pty: PtyStreams) => void,
): Promise<PtyStreams> {
  const pty = await openPtyStreams(settings);
  let received = 0;
  pty.host.onData((c) => (received += c.length));
  attach(pty);
  const total = noiseChunks.reduce((n, c) => n + c.length, 0);
  for (const c of noiseChunks) if (c.length > 0) await pty.device.write(c);
  await until(() => received >= total, 5000, 'the noise at the host end');
  return pty;
}

const bounds = { numRuns: 12, minRuns: 3, timeLimitMs: 6_000, caseTimeoutMs: 20_000 };

describe('serial drivers fed noise over a socat pty, then a real operation', () => {
  it('card reader (MagTek serial ASCII): a swipe after the noise reads that card', async () => {
    const line = bytes(`${track1For(visa)}${track2For(visa)}\r`);
    await checkAsyncProperty(
      'serial noise: card reader',
      [
        pieces(
          noise(
            [line, bytes(';E?\r')],
            [0x25, 0x3b, 0x3f, 0x5e, 0x3d, 0x0d, 0x0a],
            bytes(`%B${'4'.repeat(3000)}`),
          ),
        ),
      ],
      async (chunks) => {
        let driver: CardReaderDriver | undefined;
        const events: CardReaderEvent[] = [];
        const pty = await noisyLine({ baudRate: 9600 }, chunks, (p) => {
          driver = new CardReaderDriver({ kind: 'serial', stream: p.host });
          driver.onCard((e) => events.push(e));
        });
        try {
          // A line without its CR ends when the line goes quiet (the reader's own framing): a customer
          // swipes after that.
          await sleep(400);
          const before = events.length;
          await new SwipeReaderSimulator(pty.device).swipe(amex);
          await until(() => events.length > before, 5000, 'the swipe');
          await sleep(100);
          expect(events.slice(before).map((e) => (e.kind === 'swipe' ? e.maskedPan : e.kind))).toEqual([
            '378282*****0005',
          ]);
        } finally {
          await driver?.close();
          await pty.close();
        }
      },
      bounds,
    );
  }, 60_000);

  it('PIN pad (VeriFone packet): the next PIN request gets a PIN block that verifies', async () => {
    const frames = [
      encodeMessage({ type: '73', ksn: 'FFFF0000000000E00005', pinBlock: '0123456789ABCDEF' }),
      encodeMessage({ type: '71-error', code: 'A', meaning: '' }),
      encodeTransactionPacket('Z2HELLO'),
      encodeControl('EOT'),
      encodeControl('ACK'),
      encodeControl('NAK'),
    ];
    const oversized = Uint8Array.of(0x02, ...bytes('73.'.padEnd(3000, '7')), 0x03, 0x00);
    await checkAsyncProperty(
      'serial noise: PIN pad',
      [pieces(noise(frames, [0x02, 0x03, 0x04, 0x06, 0x0e, 0x0f, 0x15, 0x1c], oversized))],
      async (chunks) => {
        let driver: PinPadDriver | undefined;
        const pty = await noisyLine({ baudRate: 19200 }, chunks, (p) => {
          driver = new PinPadDriver(p.host, { ackTimeoutMs: 250 });
        });
        const sim = new PinPadSimulator(pty.device, { pin: SANDBOX_PIN, pinDelayMs: 20, ackTimeoutMs: 250 });
        try {
          const r = await driver!.requestPin({ pan: visa.pan, amountCents: 1234, timeoutMs: 5000 });
          expect(r.kind).toBe('pin');
          const pin =
            r.kind === 'pin' ? decryptTdesDukptPinBlock({ bdk: SANDBOX_BDK, ...r, pan: visa.pan }) : '';
          expect(pin).toBe(SANDBOX_PIN);
        } finally {
          sim.stop();
          await driver?.close();
          await pty.close();
        }
      },
      bounds,
    );
  }, 60_000);

  it('NGA reader (ID TECH Protocol 2): a tap, then a chip sale to the card’s TC', async () => {
    const frames = [
      encodeVivo2Response(0x02, 0x00, Uint8Array.of(0x9f, 0x39, 0x01, 0x07)),
      encodeVivo2Response(0x60, 0x00, Uint8Array.of(0x00, 0x10)),
      encodeVivo2Response(0x18, 0x00),
      encodeVivo2Response(0x05, 0x00),
    ];
    // A header claiming the longest length there is, and then too little of it.
    const oversized = Uint8Array.of(
      ...VIVO2_HEADER,
      0x02,
      0x00,
      0xff,
      0xff,
      ...new Uint8Array(600).fill(0x9f),
    );
    await checkAsyncProperty(
      'serial noise: NGA reader',
      [pieces(noise(frames, [...VIVO2_HEADER, 0x00, 0x02, 0x60, 0xff], oversized))],
      async (chunks) => {
        let driver: NgaReaderDriver | undefined;
        const pty = await noisyLine({ baudRate: 19200 }, chunks, (p) => {
          driver = new NgaReaderDriver(p.host, {
            contactless: { commandTimeoutMs: 500, activateGraceMs: 500 },
            chip: { commandTimeoutMs: 500, graceMs: 500, cardStepTimeoutMs: 3000 },
          });
        });
        const sim = new NgaReaderSimulator(pty.device, {
          contactless: { card: visa, tapDelayMs: 20 },
          chip: { card: chipCard, autoInsert: true, insertDelayMs: 20 },
        });
        try {
          const tap = await driver!.contactless.activateTransaction({ amountCents: 700, timeoutMs: 5000 });
          expect(tap).toMatchObject({ kind: 'emv', maskedPan: '411111******1111' });
          const started = await driver!.chip.start({ amountCents: 2500, timeoutMs: 5000 });
          expect(started.kind).toBe('online');
          const done = await driver!.chip.complete(issuerApproval(started, 2500));
          expect(done).toMatchObject({ kind: 'completed', decision: 'TC' });
        } finally {
          await sim.stop();
          await driver?.close();
          await pty.close();
        }
      },
      bounds,
    );
  }, 60_000);

  it('signature pad (Topaz pen packets): the signature after the noise, stroke for stroke', async () => {
    const pen = encodeTopazPacket({ x: 1000, y: 800, penDown: true });
    const frames = [pen, encodeTopazPacket({ x: 0, y: 0, penDown: false }), Uint8Array.of(0xc1, 0x68, 0x07)];
    await checkAsyncProperty(
      'serial noise: signature pad',
      [pieces(noise(frames, [0x80, 0xc0, 0xc1, 0xff, 0x7f], new Uint8Array(3000).fill(0xc1)))],
      async (chunks) => {
        let driver: SignaturePadDriver | undefined;
        const pty = await noisyLine({ baudRate: 19200, parity: 'odd' }, chunks, (p) => {
          driver = new SignaturePadDriver(p.host);
        });
        try {
          const sim = new SignaturePadSimulator(pty.device);
          driver!.startCapture();
          await sim.sign();
          const drawn = SCRIPTED_SIGNATURE.reduce((n, s) => n + s.length + 1, 0);
          await until(
            () => ((driver!.health().detail?.packets ?? 0) as number) >= drawn,
            5000,
            'the pen packets',
          );
          const sig = await driver!.finishCapture();
          expect(sig?.strokes.map((s) => s.length)).toEqual(SCRIPTED_SIGNATURE.map((s) => s.length));
        } finally {
          await driver?.close();
          await pty.close();
        }
      },
      bounds,
    );
  }, 60_000);

  it('receipt printer (ESC/POS status): the receipt prints and cuts', async () => {
    const receipt: Receipt = {
      lines: [
        { kind: 'text', text: 'TILLPOINT', align: 'center' },
        { kind: 'pair', left: 'TOTAL', right: '3.50', bold: true },
      ],
    };
    // DLE EOT answers (paper out, cover open, offline among them) nobody asked for.
    const statuses = [0x12, 0x16, 0x1e, 0x72, 0x7e, 0x32, 0x1a];
    await checkAsyncProperty(
      'serial noise: receipt printer',
      [
        pieces(
          noise(
            statuses.map((s) => Uint8Array.of(s)),
            statuses,
            new Uint8Array(3000).fill(0x72),
          ),
        ),
      ],
      async (chunks) => {
        let driver: ReceiptPrinterDriver | undefined;
        const pty = await noisyLine({ baudRate: 38400 }, chunks, (p) => {
          driver = new ReceiptPrinterDriver(p.host, { statusTimeoutMs: 500 });
        });
        try {
          const sim = new PrinterSimulator(pty.device);
          expect(await driver!.print(receipt)).toEqual({ ok: true });
          await until(() => sim.receipts.length === 1, 3000, 'the cut');
          expect(sim.receipts[0]?.lines.map((l) => l.text.trim())).toContain('TILLPOINT');
        } finally {
          await driver?.close();
          await pty.close();
        }
      },
      bounds,
    );
  }, 60_000);
});

/** The sandbox issuer's approval of this ARQC (the gateway's own check). */
function issuerApproval(
  r: Awaited<ReturnType<NgaReaderDriver['chip']['start']>>,
  amountCents: number,
): ChipHostResponse {
  if (r.kind !== 'online') throw new Error(`expected an online request, got ${r.kind}`);
  const check = checkChipCryptogram(r.emvTlvHex, chipCard.pan, { totalCents: amountCents, cashbackCents: 0 });
  if (check.kind !== 'verified') throw new Error(`the issuer did not verify the ARQC: ${check.kind}`);
  const answer = readIssuerResponse(check.arqc.answer('00', { scripts: false }));
  if (!answer) throw new Error('no issuer answer');
  return answer;
}
