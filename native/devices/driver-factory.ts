import { join } from 'node:path';
import {
  BarcodeScannerDriver,
  type BarcodeScannerDriverOptions,
  type ScannerSource,
} from '../drivers/barcode-scanner';
import { CardReaderDriver, type CardReaderDriverOptions } from '../drivers/card-reader';
import type { ChipReaderDriverOptions } from '../drivers/chip-reader';
import type { ContactlessReaderDriverOptions } from '../drivers/contactless-reader';
import { NgaReaderDriver } from '../drivers/nga-reader';
import { PinPadDriver, type PinPadDriverOptions } from '../drivers/pin-pad';
import { PoleDisplayDriver } from '../drivers/pole-display';
import { ReceiptPrinterDriver, type ReceiptPrinterDriverOptions } from '../drivers/receipt-printer';
import type { DeviceRole } from '../drivers/roles';
import { SignaturePadDriver, type SignaturePadDriverOptions } from '../drivers/signature-pad';
import type { Timers } from '../drivers/timers';
import { HID_POS_USAGE_PAGE } from '../protocols/hid-pos-scanner';
import type { ByteStream } from '../transports/byte-stream';
import {
  listHidDevices,
  openHidDevice,
  type HidDevicePort,
  type HidFilter,
  type HidListing,
  type HidSelector,
} from '../transports/hid-transport';
import {
  createKeyboardWedgeTransport,
  type KeyboardWedgeTransport,
} from '../transports/keyboard-wedge-transport';
import {
  listSerialPorts,
  openSerialStream,
  type SerialPortList,
  type SerialSettings,
} from '../transports/serial-transport';
import { createWedgeScanInput, type WedgeScanInput } from '../transports/wedge-scan-input';
import type { DeviceConnection, LaneDeviceConfig } from './device-config';
import { fileSink, recordHidPort, recordStream } from './frame-recorder';

/** How the manager reaches hardware; replaced in tests (pty paths, recorded HID, no HID at all). */
export type TransportFactory = {
  openSerial(settings: SerialSettings): Promise<ByteStream>;
  openHid(selector: HidSelector): Promise<HidDevicePort>;
  createWedge(): KeyboardWedgeTransport;
  listSerial(options: { configuredPaths: readonly string[] }): Promise<SerialPortList>;
  listHid(filters: readonly HidFilter[]): Promise<HidListing>;
};

export const systemTransports: TransportFactory = {
  openSerial: openSerialStream,
  openHid: openHidDevice,
  createWedge: () => createKeyboardWedgeTransport(),
  listSerial: (options) => listSerialPorts(options),
  listHid: (filters) => listHidDevices(filters),
};

/** Where `simulated` connections come from (simulated-devices.ts in the sandbox). */
export type SimulatedDeviceSource = {
  /** The driver's end of the role's simulated device, freshly connected. */
  open(role: DeviceRole): Promise<ByteStream>;
  /**
   * The HID side of a simulated device that has one: the simulated scanner is a serial, a HID POS and a
   * keyboard-wedge scanner at once, so the panel can scan through each.
   */
  openHid?(role: DeviceRole): Promise<HidDevicePort>;
};

/** Per-role driver options (timers come from the manager). */
export type DriverOptions = {
  cardReader?: Omit<CardReaderDriverOptions, 'timers'>;
  pinPad?: Omit<PinPadDriverOptions, 'timers' | 'sevenBit'>;
  contactless?: Omit<ContactlessReaderDriverOptions, 'timers'>;
  /** The contact chip interface of the reader configured as `contactless` (one NGA reader, one link). */
  chipReader?: Omit<ChipReaderDriverOptions, 'timers'>;
  signaturePad?: Omit<SignaturePadDriverOptions, 'timers'>;
  receiptPrinter?: Omit<ReceiptPrinterDriverOptions, 'timers'>;
  scanner?: Omit<BarcodeScannerDriverOptions, 'timers'>;
};

export type Driver =
  | CardReaderDriver
  | PinPadDriver
  | NgaReaderDriver
  | SignaturePadDriver
  | ReceiptPrinterDriver
  | BarcodeScannerDriver
  | PoleDisplayDriver;

export type DriverFactoryOptions = {
  transports: TransportFactory;
  simulated: SimulatedDeviceSource | undefined;
  timers: Timers;
  drivers: DriverOptions | undefined;
  /** The lane's configuration now (its `recordFramesTo` folder may change with a reconfiguration). */
  config: () => LaneDeviceConfig;
  /**
   * Wraps every opened byte stream. Default: the frame recorder when the configuration names a
   * `recordFramesTo` folder, else nothing.
   */
  wrapStream: ((role: DeviceRole, stream: ByteStream) => ByteStream) | undefined;
};

export type DriverFactory = {
  /** Opens the driver of `role` over `connection`; rejects when the device cannot be opened. */
  open(role: DeviceRole, connection: DeviceConnection): Promise<Driver>;
  /** The keyboard wedge the card reader reads from, once one was opened. */
  readonly wedge: KeyboardWedgeTransport | undefined;
  /** Closes the keyboard wedges (the manager's stop). */
  closeWedge(): Promise<void>;
  /** Where wedge (and simulated wedge) scans enter the scanner driver, once one was opened. */
  readonly scannerWedge: WedgeScanInput | undefined;
};

/** Which driver speaks each role's protocol, over which transport, with the frame recorder if asked. */
export function createDriverFactory(options: DriverFactoryOptions): DriverFactory {
  const { transports, timers } = options;
  let wedge: KeyboardWedgeTransport | undefined;
  let scannerWedge: WedgeScanInput | undefined;
  const recordingPath = (role: DeviceRole): string | undefined => {
    const folder = options.config().recordFramesTo;
    return folder === undefined
      ? undefined
      : join(folder, `${role}-${new Date(timers.now()).toISOString().replace(/[:.]/g, '-')}.jsonl`);
  };
  const wrap =
    options.wrapStream ??
    ((role: DeviceRole, s: ByteStream): ByteStream => {
      const path = recordingPath(role);
      return path === undefined ? s : recordStream(s, fileSink(path), { timers });
    });
  const wrapHid = (role: DeviceRole, port: HidDevicePort): HidDevicePort => {
    const path = recordingPath(role);
    return path === undefined ? port : recordHidPort(port, fileSink(path), { timers });
  };

  async function open(role: DeviceRole, c: DeviceConnection): Promise<Driver> {
    const t = { timers };
    const drivers = options.drivers;
    const openStream = async (): Promise<ByteStream> => {
      if (c.kind === 'serial') {
        const { kind: _kind, ...settings } = c;
        return wrap(role, await transports.openSerial(settings));
      }
      if (c.kind === 'simulated') {
        if (!options.simulated) throw new Error('no simulated devices in this build');
        return wrap(role, await options.simulated.open(role));
      }
      throw new Error(`a ${c.kind} connection cannot carry the ${role} protocol`);
    };
    switch (role) {
      case 'cardReader': {
        const o = { ...drivers?.cardReader, ...t };
        if (c.kind === 'hid') {
          const port = await transports.openHid({ vendorId: c.vendorId, productId: c.productId });
          return new CardReaderDriver({ kind: 'hid', port: wrapHid(role, port) }, o);
        }
        if (c.kind === 'wedge') {
          wedge ??= transports.createWedge();
          if (!wedge.isOpen) wedge = transports.createWedge();
          return new CardReaderDriver({ kind: 'wedge', wedge }, o);
        }
        return new CardReaderDriver({ kind: 'serial', stream: await openStream() }, o);
      }
      case 'pinPad':
        return new PinPadDriver(await openStream(), {
          ...drivers?.pinPad,
          ...t,
          // 7-bit lines (7E1/7O1) cannot carry bytes >= 0x80 (docs/devices.md §4.2).
          sevenBit: c.kind === 'serial' && c.dataBits === 7,
        });
      case 'contactless':
        // An NGA reader: contactless and contact chip on the same link.
        return new NgaReaderDriver(await openStream(), {
          ...t,
          ...(drivers?.contactless ? { contactless: drivers.contactless } : {}),
          ...(drivers?.chipReader ? { chip: drivers.chipReader } : {}),
        });
      case 'signaturePad':
        return new SignaturePadDriver(await openStream(), { ...drivers?.signaturePad, ...t });
      case 'receiptPrinter':
        return new ReceiptPrinterDriver(await openStream(), { ...drivers?.receiptPrinter, ...t });
      case 'scanner': {
        const o = { ...drivers?.scanner, ...t };
        const wedgeInput = (): WedgeScanInput => {
          if (!scannerWedge?.isOpen) scannerWedge = createWedgeScanInput();
          return scannerWedge;
        };
        if (c.kind === 'hid') {
          // A scanner may keep a keyboard interface beside its HID POS one: open the HID POS one.
          const port = await transports.openHid({
            vendorId: c.vendorId,
            productId: c.productId,
            usagePage: HID_POS_USAGE_PAGE,
          });
          return new BarcodeScannerDriver([{ kind: 'hid', port: wrapHid(role, port) }], o);
        }
        if (c.kind === 'wedge') return new BarcodeScannerDriver([{ kind: 'wedge', input: wedgeInput() }], o);
        const sources: ScannerSource[] = [{ kind: 'serial', stream: await openStream() }];
        if (c.kind === 'simulated' && options.simulated?.openHid) {
          sources.push({ kind: 'hid', port: wrapHid(role, await options.simulated.openHid(role)) });
          sources.push({ kind: 'wedge', input: wedgeInput() });
        }
        return new BarcodeScannerDriver(sources, o);
      }
      case 'poleDisplay':
        return new PoleDisplayDriver(await openStream(), t);
    }
  }

  return {
    open,
    get wedge() {
      return wedge;
    },
    async closeWedge() {
      if (wedge) await wedge.close();
      wedge = undefined;
      if (scannerWedge) await scannerWedge.close();
      scannerWedge = undefined;
    },
    get scannerWedge() {
      return scannerWedge;
    },
  };
}
