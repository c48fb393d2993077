/**
 * `npm run sim -- <device> [--port PATH | --pty] [--card PAN] [--pin DIGITS] [--fault KIND] [--baud N]`
 *
 * Runs one simulated device on a real serial port, or on one end of a fresh socat pty pair whose other
 * end it prints as JSON (`{"device":"pinpad","connect":"/tmp/…/B"}`) for a driver or the terminal to
 * open. Runs until SIGINT/SIGTERM. Lines on stdin act on the device (`swipe`, `bad`, `tap`, `sign`,
 * `pin 1234`, `cancel`, `paper-out`, `paper-in`, `cover-open`, `cover-closed`); what the device does is
 * printed as one JSON object per line. Card numbers are only ever printed masked.
 *
 * Devices: pinpad, swipe, contactless, chip, signature, printer, scanner (serial barcode scanner: `scan
 * DATA [SYMBOLOGY]`, `label N` for the Nth sample label, `labels`), pole (2 x 20 pole display: prints its
 * two rows whenever they change).
 * Faults:  nak-storm (pinpad, contactless, chip), bad-lrc (pinpad; bad CRC on contactless and chip),
 *          unplug (every device, at its most awkward moment), slow:MS (every device); chip only:
 *          chip-unreadable, card-mute:authenticate|complete, card-removed:authenticate|complete,
 *          declines-after-approval.
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { maskCardData, maskPan } from '../protocols/pan-mask';
import type { ByteStream } from '../transports/byte-stream';
import { type SerialSettings, openSerialStream } from '../transports/serial-transport';
import { ChipSimulator } from './chip-simulator';
import { ContactlessSimulator } from './contactless-simulator';
import { PinPadSimulator } from './pinpad-simulator';
import { PrinterSimulator } from './printer-simulator';
import { PoleDisplaySimulator } from './pole-display-simulator';
import { type PtyPair, createPtyPair } from './pty-pair';
import { SerialScannerSimulator } from './serial-scanner-simulator';
import { SignaturePadSimulator } from './signature-pad-simulator';
import { SwipeReaderSimulator } from './swipe-reader-simulator';
import { TEST_BARCODES } from './test-barcodes';
import {
  DEFAULT_CHIP_TEST_CARD,
  DEFAULT_TEST_CARD,
  SANDBOX_PIN,
  type TestCard,
  findTestCard,
} from './test-cards';

const DEVICES = [
  'pinpad',
  'swipe',
  'contactless',
  'chip',
  'signature',
  'printer',
  'scanner',
  'pole',
] as const;
type Device = (typeof DEVICES)[number];

type ChipStep = 'authenticate' | 'complete';
type Fault =
  | { kind: 'nak-storm' }
  | { kind: 'bad-lrc' }
  | { kind: 'unplug' }
  | { kind: 'slow'; ms: number }
  | { kind: 'chip-unreadable' }
  | { kind: 'declines-after-approval' }
  | { kind: 'card-mute'; step: ChipStep }
  | { kind: 'card-removed'; step: ChipStep };

/** Each device's usual line settings (docs/devices.md §4.2: PIN pads 8N1; §5.1: SigLite 19200 8O1). */
const LINE: Record<Device, Omit<SerialSettings, 'path'>> = {
  pinpad: { baudRate: 19200, dataBits: 8, parity: 'none', stopBits: 1 },
  swipe: { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 },
  contactless: { baudRate: 19200, dataBits: 8, parity: 'none', stopBits: 1 },
  chip: { baudRate: 19200, dataBits: 8, parity: 'none', stopBits: 1 },
  signature: { baudRate: 19200, dataBits: 8, parity: 'odd', stopBits: 1 },
  printer: { baudRate: 38400, dataBits: 8, parity: 'none', stopBits: 1 },
  scanner: { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 },
  pole: { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 },
};

/** Which faults each simulator can play. */
const FAULTS: Record<Device, readonly Fault['kind'][]> = {
  pinpad: ['nak-storm', 'bad-lrc', 'unplug', 'slow'],
  swipe: ['unplug', 'slow'],
  contactless: ['nak-storm', 'bad-lrc', 'unplug', 'slow'],
  chip: [
    'nak-storm',
    'bad-lrc',
    'unplug',
    'slow',
    'chip-unreadable',
    'declines-after-approval',
    'card-mute',
    'card-removed',
  ],
  signature: ['unplug', 'slow'],
  printer: ['unplug', 'slow'],
  scanner: ['unplug', 'slow'],
  pole: ['unplug'],
};

class UsageError extends Error {}

function out(obj: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(obj)}\n`);
}

function parseFault(value: string | undefined): Fault | undefined {
  if (value === undefined) return undefined;
  if (
    value === 'nak-storm' ||
    value === 'bad-lrc' ||
    value === 'unplug' ||
    value === 'chip-unreadable' ||
    value === 'declines-after-approval'
  )
    return { kind: value };
  const slow = /^slow:(\d{1,6})$/.exec(value);
  if (slow) return { kind: 'slow', ms: Number(slow[1]) };
  const step = /^(card-mute|card-removed):(authenticate|complete)$/.exec(value);
  if (step) return { kind: step[1] as 'card-mute' | 'card-removed', step: step[2] as ChipStep };
  throw new UsageError(
    `unknown fault "${value}": use nak-storm, bad-lrc, unplug, slow:MS, chip-unreadable, ` +
      'declines-after-approval, card-mute:STEP or card-removed:STEP (STEP = authenticate|complete)',
  );
}

function parseCard(pan: string | undefined, device: Device): TestCard {
  if (pan === undefined) return device === 'chip' ? DEFAULT_CHIP_TEST_CARD : DEFAULT_TEST_CARD;
  const card = findTestCard(pan.replace(/[ -]/g, ''));
  // Refuse anything but the sandbox's published test cards, and never echo the number in clear.
  if (!card)
    throw new UsageError(`${maskPan(pan)} is not a sandbox test card (docs/decisions.md#sandbox-data)`);
  return card;
}

type Running = { stop(): void; command(words: string[]): void };

const SYMBOLOGY_WORDS = [
  'upc-a',
  'upc-e',
  'ean-13',
  'ean-8',
  'code-128',
  'gs1-128',
  'qr',
  'unknown',
] as const;

function start(
  device: Device,
  stream: ByteStream,
  card: TestCard,
  pin: string,
  fault: Fault | undefined,
): Running {
  const slowMs = fault?.kind === 'slow' ? fault.ms : undefined;
  switch (device) {
    case 'pinpad': {
      const sim = new PinPadSimulator(stream, {
        pin,
        pinDelayMs: 500,
        faults: {
          nakStorm: fault?.kind === 'nak-storm',
          badLrc: fault?.kind === 'bad-lrc',
          unplugOnPinRequest: fault?.kind === 'unplug',
          ...(slowMs !== undefined ? { slowMs } : {}),
        },
      });
      sim.on((e) => out({ device, ...e }));
      return {
        stop: () => sim.stop(),
        command: ([verb, arg]) => {
          if (verb === 'pin') out({ device, accepted: sim.enterPin(arg ?? '') });
          else if (verb === 'cancel') sim.pressCancel();
          else out({ device, error: 'commands: pin DIGITS, cancel' });
        },
      };
    }
    case 'swipe': {
      const sim = new SwipeReaderSimulator(stream, {
        card,
        faults: { unplugMidSwipe: fault?.kind === 'unplug', ...(slowMs !== undefined ? { slowMs } : {}) },
      });
      return {
        stop: () => sim.stop(),
        command: ([verb]) => {
          const done = (): void =>
            out({ device, event: verb === 'bad' ? 'bad-swipe' : 'swiped', card: maskPan(card.pan) });
          if (verb === 'swipe') void sim.swipe().then(done);
          else if (verb === 'bad') void sim.badSwipe().then(done);
          else out({ device, error: 'commands: swipe, bad' });
        },
      };
    }
    case 'contactless': {
      const sim = new ContactlessSimulator(stream, {
        card,
        autoTap: true,
        tapDelayMs: 1000,
        faults: {
          nakStorm: fault?.kind === 'nak-storm',
          badCrc: fault?.kind === 'bad-lrc',
          unplugOnActivate: fault?.kind === 'unplug',
          ...(slowMs !== undefined ? { slowMs } : {}),
        },
      });
      sim.on((e) => out({ device, ...e }));
      return {
        stop: () => sim.stop(),
        command: ([verb]) => {
          if (verb === 'tap') out({ device, tapped: sim.tap(card) });
          else out({ device, error: 'commands: tap' });
        },
      };
    }
    case 'chip': {
      const sim = new ChipSimulator(stream, {
        card,
        autoInsert: true,
        insertDelayMs: 1000,
        faults: {
          nakStorm: fault?.kind === 'nak-storm',
          badCrc: fault?.kind === 'bad-lrc',
          unplugOnStart: fault?.kind === 'unplug',
          chipUnreadable: fault?.kind === 'chip-unreadable',
          declineAfterApproval: fault?.kind === 'declines-after-approval',
          ...(fault?.kind === 'card-mute' ? { cardNotAnswering: fault.step } : {}),
          ...(fault?.kind === 'card-removed' ? { removeCardBefore: fault.step } : {}),
          ...(slowMs !== undefined ? { slowMs } : {}),
        },
      });
      sim.on((e) => out({ device, ...e }));
      return {
        stop: () => sim.stop(),
        command: ([verb]) => {
          if (verb === 'insert') out({ device, inserted: sim.insert(card) });
          else if (verb === 'remove') out({ device, removed: sim.removeCard() });
          else out({ device, error: 'commands: insert, remove' });
        },
      };
    }
    case 'signature': {
      const sim = new SignaturePadSimulator(stream, {
        faults: { unplugMidSignature: fault?.kind === 'unplug', ...(slowMs !== undefined ? { slowMs } : {}) },
      });
      return {
        stop: () => sim.stop(),
        command: ([verb]) => {
          if (verb === 'sign') void sim.sign().then(() => out({ device, event: 'signed' }));
          else out({ device, error: 'commands: sign' });
        },
      };
    }
    case 'printer': {
      const sim = new PrinterSimulator(stream, {
        faults: {
          ...(fault?.kind === 'unplug' ? { unplugAfterBytes: 64 } : {}),
          ...(slowMs !== undefined ? { slowMs } : {}),
        },
      });
      sim.on((e) => {
        // Receipts carry masked card numbers by the terminal's rules; mask again in case one slipped.
        if (e.type === 'line') out({ device, type: 'line', text: maskCardData(e.line.text) });
        else out({ device, ...e });
      });
      return {
        stop: () => sim.stop(),
        command: ([verb]) => {
          const c = sim.condition;
          if (verb === 'paper-out') sim.setCondition({ ...c, paperEnd: true });
          else if (verb === 'paper-in') sim.setCondition({ ...c, paperEnd: false, paperNearEnd: false });
          else if (verb === 'cover-open') sim.setCondition({ ...c, coverOpen: true });
          else if (verb === 'cover-closed') sim.setCondition({ ...c, coverOpen: false });
          else out({ device, error: 'commands: paper-out, paper-in, cover-open, cover-closed' });
        },
      };
    }
    case 'scanner': {
      const sim = new SerialScannerSimulator(stream, {
        faults: { unplugMidScan: fault?.kind === 'unplug', ...(slowMs !== undefined ? { slowMs } : {}) },
      });
      return {
        stop: () => sim.stop(),
        command: ([verb, arg, kind]) => {
          const symbologies: readonly string[] = SYMBOLOGY_WORDS;
          if (verb === 'labels') out({ device, labels: TEST_BARCODES.map((b, i) => ({ n: i + 1, ...b })) });
          else if (verb === 'label') {
            const b = TEST_BARCODES[Number(arg) - 1];
            if (!b) out({ device, error: `label 1 to ${TEST_BARCODES.length}` });
            else void sim.scan(b).then(() => out({ device, event: 'scanned', ...b }));
          } else if (verb === 'scan' && arg !== undefined) {
            const symbology = (kind ??
              (/^\d{12,13}$/.test(arg) ? 'upc-a' : 'code-128')) as (typeof SYMBOLOGY_WORDS)[number];
            if (!symbologies.includes(symbology))
              out({ device, error: `symbology: ${SYMBOLOGY_WORDS.join(', ')}` });
            else
              void sim
                .scan({ symbology, data: arg })
                .then(() => out({ device, event: 'scanned', symbology, data: arg }));
          } else out({ device, error: 'commands: scan DATA [SYMBOLOGY], label N, labels' });
        },
      };
    }
    case 'pole': {
      const sim = new PoleDisplaySimulator(stream, {
        faults: fault?.kind === 'unplug' ? { unplugAfterBytes: 64 } : {},
      });
      sim.onChange((lines) => out({ device, lines }));
      return {
        stop: () => sim.stop(),
        command: ([verb]) => {
          if (verb === 'show') out({ device, lines: sim.lines });
          else out({ device, error: 'commands: show' });
        },
      };
    }
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      pty: { type: 'boolean' },
      card: { type: 'string' },
      pin: { type: 'string' },
      fault: { type: 'string' },
      baud: { type: 'string' },
      '7e1': { type: 'boolean' },
    },
  });
  const device = positionals[0];
  if (!DEVICES.includes(device as Device)) {
    throw new UsageError(
      `usage: npm run sim -- <${DEVICES.join('|')}> [--port PATH | --pty] [--card PAN] [--pin DIGITS] [--fault nak-storm|bad-lrc|unplug|slow:MS|chip-unreadable|declines-after-approval|card-mute:STEP|card-removed:STEP]`,
    );
  }
  const dev = device as Device;
  if (values.port !== undefined && values.pty) throw new UsageError('give --port or --pty, not both');
  const card = parseCard(values.card, dev);
  const pin = values.pin ?? SANDBOX_PIN;
  if (!/^\d{4,12}$/.test(pin)) throw new UsageError('--pin must be 4 to 12 digits');
  const fault = parseFault(values.fault);
  if (fault && !FAULTS[dev].includes(fault.kind)) {
    throw new UsageError(`fault ${fault.kind} is not available on the ${dev} simulator`);
  }
  const line = { ...LINE[dev] };
  if (values.baud !== undefined) {
    if (!/^\d{3,7}$/.test(values.baud)) throw new UsageError('--baud must be a number');
    line.baudRate = Number(values.baud);
  }
  if (values['7e1']) {
    line.dataBits = 7;
    line.parity = 'even';
  }

  let pty: PtyPair | undefined;
  let path = values.port;
  if (path === undefined) {
    pty = await createPtyPair();
    path = pty.a;
  }
  let stream: ByteStream;
  try {
    stream = await openSerialStream({ ...line, path });
  } catch (e) {
    await pty?.close();
    throw e;
  }
  const running = start(dev, stream, card, pin, fault);
  out(pty ? { device: dev, connect: pty.b } : { device: dev, port: path });

  return await new Promise<number>((resolve) => {
    let stopping = false;
    const shutdown = (code: number): void => {
      if (stopping) return;
      stopping = true;
      running.stop();
      void stream
        .close()
        .then(() => pty?.close())
        .then(() => resolve(code));
    };
    process.once('SIGINT', () => shutdown(0));
    process.once('SIGTERM', () => shutdown(0));
    stream.onClose(() => {
      // The device side went away (fault "unplug", or the port vanished): say so and end.
      if (!stopping) out({ device: dev, event: 'closed' });
      shutdown(0);
    });
    const rl = createInterface({ input: process.stdin });
    rl.on('line', (text) => {
      const words = text.trim().split(/\s+/).filter(Boolean);
      if (words.length > 0) running.command(words);
    });
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`${JSON.stringify({ error: maskCardData(message) })}\n`);
    process.exit(e instanceof UsageError ? 2 : 1);
  },
);
