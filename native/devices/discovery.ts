import type { DeviceRole } from '../drivers/roles';
import { HID_POS_USAGE_PAGE } from '../protocols/hid-pos-scanner';
import {
  hex4,
  listHidDevices,
  type HidDeviceInfo,
  type HidFilter,
  type HidListing,
} from '../transports/hid-transport';
import { listSerialPorts, type SerialPortInfo, type SerialPortList } from '../transports/serial-transport';
import { serialConnection, type DeviceConnection } from './device-config';

/**
 * What is plugged in, with a guess of what each thing is. The guess only pre-fills the tech's form: USB ids
 * identify the USB chip, not the device (an FTDI 0x0403/0x6001 bridge sits in Topaz pads and in many other
 * things), so a guess carries its confidence.
 */

export type RoleGuess = { role: DeviceRole; model: string; confidence: 'high' | 'low' };

export type DiscoveredDevice = {
  transport: 'serial' | 'hid';
  /** Serial path, or the HID path hidapi gave. */
  path: string;
  vendorId?: number;
  productId?: number;
  manufacturer?: string;
  product?: string;
  guess?: RoleGuess;
  /** A ready-made configuration entry for the guessed role (serial with that role's line defaults). */
  suggestion?: DeviceConnection;
};

export type DiscoveryResult = {
  devices: DiscoveredDevice[];
  serial: { method: SerialPortList['method']; note?: string };
  hid: { available: true } | { available: false; reason: string };
};

type KnownId = { vendorId: number; productId?: number; guess: RoleGuess };

/**
 * USB ids we recognise (docs/devices.md §2.1, §3.2, §5.1; VeriFone and Epson from their USB registrations;
 * the scanner makers Honeywell, Zebra/Symbol and Datalogic likewise). A scanner's vendor alone does not say
 * whether it is in HID POS or keyboard mode: its interfaces' usage pages do (fromHid below).
 */
export const knownUsbIds: readonly KnownId[] = [
  {
    vendorId: 0x0801,
    productId: 0x0002,
    guess: { role: 'cardReader', model: 'MagTek USB HID swipe reader', confidence: 'high' },
  },
  // PID 0x0001 is the same reader in keyboard-emulation mode: it types, so the OS owns it (§2.4).
  {
    vendorId: 0x0801,
    productId: 0x0001,
    guess: { role: 'cardReader', model: 'MagTek USB keyboard-wedge reader', confidence: 'high' },
  },
  { vendorId: 0x0801, guess: { role: 'cardReader', model: 'MagTek reader', confidence: 'low' } },
  // An NGA reader (VP3300 class) is contactless and contact chip on one link: configured as `contactless`.
  {
    vendorId: 0x0acd,
    guess: {
      role: 'contactless',
      model: 'ID TECH reader (ViVOpay / NGA: contactless and chip?)',
      confidence: 'low',
    },
  },
  {
    vendorId: 0x0403,
    productId: 0x6001,
    guess: { role: 'signaturePad', model: 'FTDI serial bridge (Topaz pad?)', confidence: 'low' },
  },
  { vendorId: 0x11ca, guess: { role: 'pinPad', model: 'VeriFone PIN pad', confidence: 'low' } },
  { vendorId: 0x04b8, guess: { role: 'receiptPrinter', model: 'Epson receipt printer', confidence: 'low' } },
  { vendorId: 0x0c2e, guess: { role: 'scanner', model: 'Honeywell barcode scanner', confidence: 'low' } },
  {
    vendorId: 0x05e0,
    guess: { role: 'scanner', model: 'Zebra (Symbol) barcode scanner', confidence: 'low' },
  },
  { vendorId: 0x05f9, guess: { role: 'scanner', model: 'Datalogic barcode scanner', confidence: 'low' } },
];

/** Scanner makers: a HID interface of theirs that is not HID POS is a keyboard (wedge mode). */
const scannerVendors = new Set([0x0c2e, 0x05e0, 0x05f9]);

/**
 * What the manager enumerates: MagTek, ID TECH, FTDI (some Topaz pads are HID), the scanner makers, and
 * every HID POS scanner (usage page 0x8C) whatever its maker.
 */
export const hidDiscoveryFilters: readonly HidFilter[] = [
  { vendorId: 0x0801 },
  { vendorId: 0x0acd },
  { vendorId: 0x0403, productId: 0x6001 },
  ...[...scannerVendors].map((vendorId) => ({ vendorId })),
  { usagePage: HID_POS_USAGE_PAGE },
];

export function guessRole(
  vendorId: number | undefined,
  productId: number | undefined,
): RoleGuess | undefined {
  if (vendorId === undefined) return undefined;
  const exact = knownUsbIds.find((k) => k.vendorId === vendorId && k.productId === productId);
  return (exact ?? knownUsbIds.find((k) => k.vendorId === vendorId && k.productId === undefined))?.guess;
}

function parseHexId(id: string | undefined): number | undefined {
  if (id === undefined || !/^[0-9a-fA-F]{1,4}$/.test(id)) return undefined;
  return parseInt(id, 16);
}

function fromSerial(p: SerialPortInfo): DiscoveredDevice {
  const vendorId = parseHexId(p.vendorId);
  const productId = parseHexId(p.productId);
  const guess = guessRole(vendorId, productId);
  const d: DiscoveredDevice = { transport: 'serial', path: p.path };
  if (vendorId !== undefined) d.vendorId = vendorId;
  if (productId !== undefined) d.productId = productId;
  if (p.manufacturer !== undefined) d.manufacturer = p.manufacturer;
  if (guess) {
    d.guess = guess;
    d.suggestion = serialConnection(guess.role, p.path);
  }
  return d;
}

function fromHid(h: HidDeviceInfo): DiscoveredDevice {
  // HID POS usage page: a barcode scanner of any maker, in the mode the terminal reads directly.
  const hidPos = h.usagePage === HID_POS_USAGE_PAGE;
  const guess: RoleGuess | undefined = hidPos
    ? { role: 'scanner', model: 'HID POS barcode scanner (usage page 0x8C)', confidence: 'high' }
    : guessRole(h.vendorId, h.productId);
  const d: DiscoveredDevice = {
    transport: 'hid',
    path: h.path ?? `${hex4(h.vendorId)}:${hex4(h.productId)}`,
    vendorId: h.vendorId,
    productId: h.productId,
  };
  if (h.manufacturer !== undefined) d.manufacturer = h.manufacturer;
  if (h.product !== undefined) d.product = h.product;
  if (guess) {
    d.guess = guess;
    // A keyboard-mode MagTek cannot be opened as HID (the OS owns keyboards, §2.4): it is a wedge.
    if (h.vendorId === 0x0801 && h.productId === 0x0001) d.suggestion = { kind: 'wedge' };
    else if (guess.role === 'cardReader' || hidPos)
      d.suggestion = { kind: 'hid', vendorId: h.vendorId, productId: h.productId };
    // A scanner maker's keyboard interface: the scanner types (wedge) unless switched to HID POS mode.
    else if (guess.role === 'scanner' && scannerVendors.has(h.vendorId)) d.suggestion = { kind: 'wedge' };
  }
  return d;
}

export type DiscoveryOptions = {
  /** Serial paths from the lane config (socat links, by-id links) that a /dev scan would not find by name. */
  configuredPaths?: readonly string[];
  listSerial?: typeof listSerialPorts;
  listHid?: (filters: readonly HidFilter[]) => Promise<HidListing>;
};

/** Never throws: with no udev, no libusb and no device it returns an empty list and says why. */
export async function discoverDevices(options: DiscoveryOptions = {}): Promise<DiscoveryResult> {
  const listSerial = options.listSerial ?? listSerialPorts;
  const listHid = options.listHid ?? listHidDevices;
  const [serial, hid] = await Promise.all([
    listSerial({ configuredPaths: options.configuredPaths ?? [] }).catch((err: unknown): SerialPortList => ({
      method: 'scan',
      ports: [],
      note: `serial listing failed: ${err instanceof Error ? err.message : String(err)}`,
    })),
    listHid(hidDiscoveryFilters).catch((err: unknown): HidListing => ({
      available: false,
      reason: `HID listing failed: ${err instanceof Error ? err.message : String(err)}`,
      devices: [],
    })),
  ]);
  return {
    devices: [...serial.ports.map(fromSerial), ...hid.devices.map(fromHid)],
    serial:
      serial.note === undefined ? { method: serial.method } : { method: serial.method, note: serial.note },
    hid: hid.available ? { available: true } : { available: false, reason: hid.reason },
  };
}
