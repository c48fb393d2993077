import type { DeviceRole } from '../drivers/roles';
import type { PrinterCondition } from '../protocols/escpos';
import { type ChipAtcStore, fileAtcStore, memoryAtcStore } from '../simulators/chip-atc';
import type { ChipFaults, ChipSimulator } from '../simulators/chip-simulator';
import type { ContactlessFaults, ContactlessSimulator } from '../simulators/contactless-simulator';
import { HidPosScannerSimulator } from '../simulators/hid-pos-scanner-simulator';
import { NgaReaderSimulator } from '../simulators/nga-reader-simulator';
import { PinPadSimulator, type PinPadFaults } from '../simulators/pinpad-simulator';
import { PoleDisplaySimulator, type PoleDisplayFaults } from '../simulators/pole-display-simulator';
import { PrinterSimulator, type PrinterFaults } from '../simulators/printer-simulator';
import {
  SignaturePadSimulator,
  type LogicalPoint,
  type SignaturePadFaults,
} from '../simulators/signature-pad-simulator';
import { SerialScannerSimulator, type SerialScannerFaults } from '../simulators/serial-scanner-simulator';
import { SwipeReaderSimulator, type SwipeReaderFaults } from '../simulators/swipe-reader-simulator';
import type { TestBarcode } from '../simulators/test-barcodes';
import { WedgeScannerSimulator, type SimulatedKeystroke } from '../simulators/wedge-scanner-simulator';
import {
  DEFAULT_CHIP_TEST_CARD,
  DEFAULT_TEST_CARD,
  findTestCard,
  type TestCard,
} from '../simulators/test-cards';
import { createMemoryPair, type ByteStream } from '../transports/byte-stream';
import type { HidDevicePort } from '../transports/hid-transport';
import type { SimulatedDeviceSource } from './driver-factory';

/**
 * The sandbox's devices: helper simulators that speak the real protocols, each connected to the real
 * driver through an in-memory ByteStream pair, so a sale in the sandbox runs the same driver code as at a
 * counter. The controls are what the UI's simulator panel and the e2e tests press.
 */

export type SimulatorFaults = {
  cardReader?: SwipeReaderFaults;
  pinPad?: PinPadFaults;
  contactless?: ContactlessFaults;
  /** The contact chip interface of the same reader (chip-simulator.ts). */
  chip?: ChipFaults;
  signaturePad?: SignaturePadFaults;
  receiptPrinter?: PrinterFaults;
  /** The serial side of the simulated scanner. */
  scanner?: SerialScannerFaults;
  poleDisplay?: PoleDisplayFaults;
};

/** How a simulated scan reaches the terminal: the three scanner kinds the simulated scanner plays. */
export type ScanVia = 'serial' | 'hid' | 'wedge';

/** What the simulator panel shows. Never holds a PIN; PANs appear masked only. */
export type SimulatorState = {
  /** Roles the tech "unplugged" in the panel. */
  unplugged: DeviceRole[];
  pinPad: { display: string; awaitingPin: boolean };
  contactless: { waitingForCard: boolean; beeps: number };
  /** The reader's contact slot: a chip start waits for a card, or a card is in a transaction. */
  chip: { waitingForCard: boolean; cardInserted: boolean };
  receiptPrinter: {
    paper: 'ok' | 'near-end' | 'out';
    coverOpen: boolean;
    drawerKicks: number;
    /** The last printed receipts, newest last, as text lines. */
    receipts: string[][];
  };
  /** What the customer reads on the pole display (two rows of 20), as the simulated display shows it. */
  poleDisplay: { lines: [string, string] };
  scanner: { scans: number };
};

export type SimulatorControls = {
  /** Swipes a sandbox test card (default 4111…1111) on the magstripe reader; `badRead` sends `E` tracks. */
  swipe(pan?: string, options?: { badRead?: boolean }): Promise<void>;
  /**
   * Taps a test card on the reader's contactless interface while a transaction listens there (a
   * contactless activation, or a contact + contactless 02-40); false otherwise.
   */
  tap(pan?: string): boolean;
  /**
   * Inserts a test card (default: the Visa chip card) into the reader's contact slot while a chip start
   * waits for one; false otherwise. A card without a chip (service code 1xx) answers nothing in the slot:
   * the reader reports a chip it cannot read (fallback).
   */
  insert(pan?: string): boolean;
  /** Pulls the inserted card out of the contact slot; false when none is in a transaction. */
  removeCard(): boolean;
  /** Types the PIN on the simulated pad and presses Enter; false when the pad is not asking. */
  typePin(pin: string): boolean;
  /** The cardholder's Cancel key on the pad. */
  cancelOnPad(): void;
  /** Draws strokes (logical 2150 x 1400 units; default a scripted signature) on the signature pad. */
  sign(strokes?: readonly (readonly LogicalPoint[])[]): Promise<void>;
  setPaper(state: 'ok' | 'near-end' | 'out'): void;
  setCoverOpen(open: boolean): void;
  /** Pulls the device's cable: the manager sees the disconnect and retries until `replug`. */
  unplug(role: DeviceRole): Promise<void>;
  replug(role: DeviceRole): void;
  setFaults(faults: SimulatorFaults): void;
  /**
   * Scans a label through one of the scanner kinds: serial bytes (AIM identifier, data, CR), HID POS
   * reports, or keyboard-wedge keystrokes (handed to `onWedgeKeys`: where a wedge's keys go is the
   * keyboard focus, which the core stands in for in the sandbox).
   */
  scan(barcode: Pick<TestBarcode, 'symbology' | 'data'>, via: ScanVia): Promise<void>;
  /** The simulated wedge scanner's keystrokes, as it types them. */
  onWedgeKeys(listener: (keys: SimulatedKeystroke[]) => void): () => void;
  state(): SimulatorState;
  /** Fires whenever something the panel shows changed. */
  onChange(listener: () => void): () => void;
};

export type SimulatedDevices = SimulatedDeviceSource & {
  readonly controls: SimulatorControls;
  /** Detaches every simulator and closes their streams. */
  stop(): Promise<void>;
};

export type SimulatedDevicesOptions = {
  /** Card for swipes/taps when none is named. Default: the sandbox Visa 4111…1111. */
  card?: TestCard;
  /** A PIN typed automatically after each request (e2e tests); default none: the panel types it. */
  autoPin?: string;
  /** Tap the card automatically after each contactless activation; default false (the panel taps). */
  autoTap?: boolean;
  /** Card for inserts when none is named. Default: the sandbox Visa chip card 4012…1881. */
  chipCard?: TestCard;
  /** Insert the chip card automatically after each chip start; default false (the panel inserts). */
  autoInsert?: boolean;
  /**
   * Where the simulated chip cards keep their transaction counters (ATC) across restarts: a JSON file,
   * best in the terminal's data folder. Without it they count from 1 in memory, which a gateway that
   * remembers higher counters (a reused sandbox data folder) declines as replays.
   */
  chipAtcFile?: string;
  faults?: SimulatorFaults;
};

type Attached = {
  device: ByteStream;
  detach: () => void;
};

export function createSimulatedDevices(options: SimulatedDevicesOptions = {}): SimulatedDevices {
  const defaultCard = options.card ?? DEFAULT_TEST_CARD;
  const defaultChipCard = options.chipCard ?? DEFAULT_CHIP_TEST_CARD;
  // One store for every (re)connection: a replugged reader's cards keep counting.
  const atcStore: ChipAtcStore =
    options.chipAtcFile !== undefined ? fileAtcStore(options.chipAtcFile) : memoryAtcStore();
  let faults: SimulatorFaults = { ...options.faults };
  const unplugged = new Set<DeviceRole>();
  const attached = new Map<DeviceRole, Attached>();
  const changeListeners = new Set<() => void>();
  const changed = (): void => {
    for (const l of changeListeners) l();
  };

  // The simulators of the current connection; replaced on every (re)connect, with their state carried over.
  let swipeReader: SwipeReaderSimulator | undefined;
  let pinPad: PinPadSimulator | undefined;
  let reader: NgaReaderSimulator | undefined;
  let contactless: ContactlessSimulator | undefined;
  let chip: ChipSimulator | undefined;
  let signaturePad: SignaturePadSimulator | undefined;
  let printer: PrinterSimulator | undefined;
  let serialScanner: SerialScannerSimulator | undefined;
  let hidScanner: HidPosScannerSimulator | undefined;
  let pole: PoleDisplaySimulator | undefined;
  let poleLines: [string, string] = [' '.repeat(20), ' '.repeat(20)];
  let scans = 0;
  const wedgeScanner = new WedgeScannerSimulator();
  let pinPadKsn: string | undefined;
  let printerCondition: PrinterCondition = {};
  const receipts: string[][] = [];
  let drawerKicks = 0;

  const cardFor = (pan: string | undefined): TestCard => {
    if (pan === undefined) return defaultCard;
    const card = findTestCard(pan);
    // Simulators take only published test PANs: a real card number must never be typed in here.
    if (!card) throw new Error('not a sandbox test card');
    return card;
  };

  function attach(role: DeviceRole, device: ByteStream): () => void {
    switch (role) {
      case 'cardReader': {
        const sim = new SwipeReaderSimulator(device, { card: defaultCard, faults: { ...faults.cardReader } });
        swipeReader = sim;
        return () => sim.stop();
      }
      case 'pinPad': {
        const sim = new PinPadSimulator(device, {
          faults: { ...faults.pinPad },
          ...(options.autoPin !== undefined ? { pin: options.autoPin, pinDelayMs: 50 } : {}),
          // A replugged pad keeps its key set: the KSN counter never goes back (X9.24-1).
          ...(pinPadKsn !== undefined ? { initialKsn: pinPadKsn } : {}),
        });
        pinPad = sim;
        const off = sim.on((e) => {
          if (e.type === 'pin-sent') pinPadKsn = sim.ksn;
          changed();
        });
        return () => {
          pinPadKsn = sim.ksn;
          off();
          sim.stop();
        };
      }
      case 'contactless': {
        // One NGA reader: contactless as before, and the contact chip slot beside it.
        const nga = new NgaReaderSimulator(device, {
          contactless: {
            card: defaultCard,
            autoTap: options.autoTap ?? false,
            faults: { ...faults.contactless },
            // One counter per card across both interfaces, as a dual-interface card keeps one ATC.
            atcStore,
          },
          chip: {
            card: defaultChipCard,
            autoInsert: options.autoInsert ?? false,
            faults: { ...faults.chip },
            atcStore,
          },
        });
        reader = nga;
        contactless = nga.contactless;
        chip = nga.chip;
        const offs = [nga.contactless.on(() => changed()), nga.chip.on(() => changed())];
        return () => {
          for (const off of offs) off();
          void nga.stop();
        };
      }
      case 'signaturePad': {
        const sim = new SignaturePadSimulator(device, { faults: { ...faults.signaturePad } });
        signaturePad = sim;
        return () => sim.stop();
      }
      case 'receiptPrinter': {
        const sim = new PrinterSimulator(device, {
          condition: printerCondition,
          faults: { ...faults.receiptPrinter },
        });
        printer = sim;
        const off = sim.on((e) => {
          if (e.type === 'cut') {
            const last = sim.receipts.at(-1);
            if (last) receipts.push(last.lines.map((l) => l.text));
            if (receipts.length > 20) receipts.shift();
            changed();
          } else if (e.type === 'drawer') {
            drawerKicks += 1;
            changed();
          }
        });
        return () => {
          off();
          sim.stop();
        };
      }
      case 'scanner': {
        const sim = new SerialScannerSimulator(device, { faults: { ...faults.scanner } });
        serialScanner = sim;
        // The same scanner's HID POS side, handed to the driver by openHid.
        const hid = new HidPosScannerSimulator();
        hidScanner = hid;
        return () => {
          sim.stop();
          hid.unplug();
        };
      }
      case 'poleDisplay': {
        const sim = new PoleDisplaySimulator(device, { faults: { ...faults.poleDisplay } });
        pole = sim;
        poleLines = sim.lines;
        const off = sim.onChange((lines) => {
          poleLines = lines;
          changed();
        });
        return () => {
          off();
          sim.stop();
        };
      }
    }
  }

  const open: SimulatedDeviceSource['open'] = (role) => {
    if (unplugged.has(role)) return Promise.reject(new Error(`simulated ${role} is unplugged`));
    attached.get(role)?.detach();
    const [host, device] = createMemoryPair(`simulated-${role}`, `simulator-${role}`);
    const detach = attach(role, device);
    attached.set(role, { device, detach });
    device.onClose(() => {
      if (attached.get(role)?.device === device) {
        attached.delete(role);
        detach();
      }
    });
    changed();
    return Promise.resolve(host);
  };

  const openHid = (role: DeviceRole): Promise<HidDevicePort> => {
    if (unplugged.has(role)) return Promise.reject(new Error(`simulated ${role} is unplugged`));
    if (role !== 'scanner' || !hidScanner || !attached.has(role))
      return Promise.reject(new Error(`the simulated ${role} has no HID side`));
    return Promise.resolve(hidScanner.port);
  };

  const need = <T>(sim: T | undefined, role: DeviceRole): T => {
    if (!sim || !attached.has(role)) throw new Error(`simulated ${role} is not connected`);
    return sim;
  };

  const paperState = (): 'ok' | 'near-end' | 'out' =>
    printerCondition.paperEnd ? 'out' : printerCondition.paperNearEnd ? 'near-end' : 'ok';

  const controls: SimulatorControls = {
    async swipe(pan, opts = {}) {
      const sim = need(swipeReader, 'cardReader');
      const card = cardFor(pan);
      await (opts.badRead ? sim.swipe(card, { track1: 'error', track2: 'error' }) : sim.swipe(card));
    },
    tap(pan) {
      return need(reader, 'contactless').tap(cardFor(pan));
    },
    insert(pan) {
      return need(chip, 'contactless').insert(pan === undefined ? defaultChipCard : cardFor(pan));
    },
    removeCard() {
      return need(chip, 'contactless').removeCard();
    },
    typePin(pin) {
      return need(pinPad, 'pinPad').enterPin(pin);
    },
    cancelOnPad() {
      need(pinPad, 'pinPad').pressCancel();
    },
    async sign(strokes) {
      await need(signaturePad, 'signaturePad').sign(strokes);
    },
    setPaper(state) {
      printerCondition = {
        ...printerCondition,
        paperEnd: state === 'out',
        paperNearEnd: state === 'near-end',
      };
      printer?.setCondition(printerCondition);
      changed();
    },
    setCoverOpen(open) {
      printerCondition = { ...printerCondition, coverOpen: open };
      printer?.setCondition(printerCondition);
      changed();
    },
    async unplug(role) {
      unplugged.add(role);
      const a = attached.get(role);
      changed();
      if (a) await a.device.close();
    },
    replug(role) {
      unplugged.delete(role);
      changed();
    },
    setFaults(next) {
      faults = { ...next };
      swipeReader?.setFaults({ ...faults.cardReader });
      pinPad?.setFaults({ ...faults.pinPad });
      contactless?.setFaults({ ...faults.contactless });
      chip?.setFaults({ ...faults.chip });
      signaturePad?.setFaults({ ...faults.signaturePad });
      printer?.setFaults({ ...faults.receiptPrinter });
      serialScanner?.setFaults({ ...faults.scanner });
      pole?.setFaults({ ...faults.poleDisplay });
    },
    async scan(barcode, via) {
      if (unplugged.has('scanner')) throw new Error('simulated scanner is unplugged');
      if (via === 'serial') await need(serialScanner, 'scanner').scan(barcode);
      else if (via === 'hid') {
        need(hidScanner, 'scanner').scan(barcode);
        // The reports arrive a tick later, as node-hid delivers them.
        await new Promise((resolve) => setImmediate(resolve));
      } else {
        need(serialScanner, 'scanner');
        wedgeScanner.scan(barcode);
      }
      scans += 1;
      changed();
    },
    onWedgeKeys(listener) {
      return wedgeScanner.onKeys(listener);
    },
    state() {
      return {
        unplugged: [...unplugged],
        pinPad: {
          display: attached.has('pinPad') ? (pinPad?.display ?? '') : '',
          awaitingPin: attached.has('pinPad') && pinPad?.state === 'awaiting-pin',
        },
        contactless: {
          waitingForCard: attached.has('contactless') && (reader?.waitingForTap ?? false),
          beeps: contactless?.beeps ?? 0,
        },
        chip: {
          waitingForCard: attached.has('contactless') && (chip?.waitingForCard ?? false),
          cardInserted: attached.has('contactless') && (chip?.cardInserted ?? false),
        },
        receiptPrinter: {
          paper: paperState(),
          coverOpen: printerCondition.coverOpen ?? false,
          drawerKicks,
          receipts: receipts.map((r) => [...r]),
        },
        // A pole display's power comes with its cable: unplugged, it shows nothing.
        poleDisplay: {
          lines: attached.has('poleDisplay') ? [...poleLines] : [' '.repeat(20), ' '.repeat(20)],
        },
        scanner: { scans },
      };
    },
    onChange(listener) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
  };

  return {
    open,
    openHid,
    controls,
    async stop() {
      const all = [...attached.values()];
      attached.clear();
      for (const a of all) a.detach();
      await Promise.all(all.map((a) => a.device.close()));
      changeListeners.clear();
    },
  };
}
