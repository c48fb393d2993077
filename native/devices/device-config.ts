import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import type { DeviceRole } from '../drivers/roles';

/**
 * The per-lane device configuration a field tech edits: for each role, how the device is attached. The
 * protocol follows from role + connection kind (a serial card reader speaks MagTek ASCII, a HID one the
 * MagTek 337-byte report, a serial PIN pad the VeriFone packet protocol, …), so a tech picks ports and line
 * settings, never protocols.
 */

export const deviceRoles: readonly DeviceRole[] = [
  'cardReader',
  'pinPad',
  'contactless',
  'signaturePad',
  'receiptPrinter',
  'scanner',
  'poleDisplay',
];

const SerialConnection = Type.Object({
  kind: Type.Literal('serial'),
  path: Type.String({ minLength: 1 }),
  baudRate: Type.Integer({ minimum: 300, maximum: 921_600 }),
  dataBits: Type.Union([Type.Literal(7), Type.Literal(8)]),
  parity: Type.Union([Type.Literal('none'), Type.Literal('even'), Type.Literal('odd')]),
  stopBits: Type.Union([Type.Literal(1), Type.Literal(2)]),
});

const HidConnection = Type.Object({
  kind: Type.Literal('hid'),
  vendorId: Type.Integer({ minimum: 0, maximum: 0xffff }),
  productId: Type.Integer({ minimum: 0, maximum: 0xffff }),
});

/**
 * A keyboard wedge. For the scanner, how its scans are told from typing (the shared wedge-scan rule's
 * settings; each one left out takes that rule's default): the prefix and suffix the scanner is set to
 * send, the shortest code, the pace. A card reader's wedge is found by its track sentinels and takes none.
 */
const WedgeConnection = Type.Object({
  kind: Type.Literal('wedge'),
  prefix: Type.Optional(Type.String({ maxLength: 8, pattern: '^[\\x20-\\x7e]*$' })),
  suffix: Type.Optional(Type.Union([Type.Literal('Enter'), Type.Literal('Tab'), Type.Literal('none')])),
  minLength: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
  maxGapMs: Type.Optional(Type.Integer({ minimum: 5, maximum: 500 })),
  maxMeanGapMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
});
const SimulatedConnection = Type.Object({ kind: Type.Literal('simulated') });
const NoConnection = Type.Object({ kind: Type.Literal('none') });

const connectionSchemas = {
  serial: SerialConnection,
  hid: HidConnection,
  wedge: WedgeConnection,
  simulated: SimulatedConnection,
  none: NoConnection,
} as const;

export type SerialConnection = Static<typeof SerialConnection>;
export type HidConnection = Static<typeof HidConnection>;
export type WedgeConnection = Static<typeof WedgeConnection>;
export type DeviceConnection =
  | SerialConnection
  | HidConnection
  | WedgeConnection
  | Static<typeof SimulatedConnection>
  | Static<typeof NoConnection>;
export type ConnectionKind = DeviceConnection['kind'];

export type LaneDeviceConfig = {
  cardReader: DeviceConnection;
  pinPad: DeviceConnection;
  /** The EMV reader (ID TECH NGA Protocol 2): contactless, and its contact chip slot on the same link. */
  contactless: DeviceConnection;
  signaturePad: DeviceConnection;
  receiptPrinter: DeviceConnection;
  /** The barcode scanner: serial, USB HID POS, or a keyboard wedge. */
  scanner: DeviceConnection;
  /** The customer's 2 x 20 pole display (ESC/POS customer display commands, serial). */
  poleDisplay: DeviceConnection;
  /** Write every frame (card data masked) to JSON-lines files in this folder, for support. */
  recordFramesTo?: string;
};

/** Which connection kinds each role has a driver for. */
export const supportedKinds: Readonly<Record<DeviceRole, readonly ConnectionKind[]>> = {
  cardReader: ['serial', 'hid', 'wedge', 'simulated', 'none'],
  pinPad: ['serial', 'simulated', 'none'],
  contactless: ['serial', 'simulated', 'none'],
  signaturePad: ['serial', 'simulated', 'none'],
  receiptPrinter: ['serial', 'simulated', 'none'],
  scanner: ['serial', 'hid', 'wedge', 'simulated', 'none'],
  poleDisplay: ['serial', 'simulated', 'none'],
};

/**
 * Line settings a role starts with when a tech picks a port. PIN pad: 8N1 per the USB VeriFone note
 * (docs/devices.md §4.2; no public source states the factory baud, 19200 is the documented USB pad setting).
 * Topaz SigLite: 19200 8O1 (§5.1). ViVOpay readers ship at 19200; ESC/POS and MagTek serial readers at 9600
 * 8N1. Serial barcode scanners and Epson-mode pole displays commonly ship at 9600 8N1 too (some scanners at
 * 115200: the tech changes the rate, the format stays).
 */
export const defaultLineSettings: Readonly<Record<DeviceRole, Omit<SerialConnection, 'kind' | 'path'>>> = {
  cardReader: { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 },
  pinPad: { baudRate: 19200, dataBits: 8, parity: 'none', stopBits: 1 },
  contactless: { baudRate: 19200, dataBits: 8, parity: 'none', stopBits: 1 },
  signaturePad: { baudRate: 19200, dataBits: 8, parity: 'odd', stopBits: 1 },
  receiptPrinter: { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 },
  scanner: { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 },
  poleDisplay: { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 },
};

/** A serial connection for `role` on `path`, with the role's default line settings overridden by `line`. */
export function serialConnection(
  role: DeviceRole,
  path: string,
  line: Partial<Omit<SerialConnection, 'kind' | 'path'>> = {},
): SerialConnection {
  return { kind: 'serial', path, ...defaultLineSettings[role], ...line };
}

/** Every role simulated: the sandbox default (docs/decisions.md#running). */
export function simulatedLaneConfig(): LaneDeviceConfig {
  return {
    cardReader: { kind: 'simulated' },
    pinPad: { kind: 'simulated' },
    contactless: { kind: 'simulated' },
    signaturePad: { kind: 'simulated' },
    receiptPrinter: { kind: 'simulated' },
    scanner: { kind: 'simulated' },
    poleDisplay: { kind: 'simulated' },
  };
}

/** Nothing attached. */
export function emptyLaneConfig(): LaneDeviceConfig {
  return {
    cardReader: { kind: 'none' },
    pinPad: { kind: 'none' },
    contactless: { kind: 'none' },
    signaturePad: { kind: 'none' },
    receiptPrinter: { kind: 'none' },
    scanner: { kind: 'none' },
    poleDisplay: { kind: 'none' },
  };
}

export type ConfigValidation = { ok: true; value: LaneDeviceConfig } | { ok: false; errors: string[] };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function validateConnection(role: DeviceRole, raw: unknown, errors: string[]): DeviceConnection | undefined {
  if (raw === undefined) return { kind: 'none' };
  if (!isRecord(raw) || typeof raw.kind !== 'string' || !(raw.kind in connectionSchemas)) {
    errors.push(`${role}: kind must be one of ${Object.keys(connectionSchemas).join(', ')}`);
    return undefined;
  }
  const kind = raw.kind as ConnectionKind;
  // Validate against the chosen variant only, so the messages name the field the tech got wrong
  // instead of a union's "must match a schema in anyOf".
  const schema = connectionSchemas[kind];
  const cleaned = Value.Clean(schema, Value.Clone(raw));
  const before = errors.length;
  for (const e of Value.Errors(schema, cleaned)) {
    errors.push(`${role}${e.instancePath.replace(/\//g, '.')}: ${e.message}`);
  }
  if (errors.length > before) return undefined;
  if (!supportedKinds[role].includes(kind)) {
    errors.push(`${role}: a ${kind} connection is not supported for this role`);
    return undefined;
  }
  const conn = cleaned as DeviceConnection;
  // The wedge settings tell a scan from typing; a card reader's wedge goes by its track sentinels.
  if (conn.kind === 'wedge' && role !== 'scanner') return { kind: 'wedge' };
  // 7-bit lines carry ASCII protocols only; the binary ones would lose bit 7 of every byte (§4.2, §3.3).
  if (
    conn.kind === 'serial' &&
    conn.dataBits === 7 &&
    (role === 'contactless' || role === 'receiptPrinter')
  ) {
    errors.push(`${role}: this device's protocol is binary and needs 8 data bits`);
    return undefined;
  }
  return conn;
}

/**
 * Validates what a tech (or a settings file) supplies. Missing roles default to `none`; unknown fields are
 * dropped. Two roles on one serial port is refused: both drivers would read each other's bytes.
 */
export function validateLaneDeviceConfig(input: unknown): ConfigValidation {
  if (!isRecord(input)) return { ok: false, errors: ['device configuration must be an object'] };
  const errors: string[] = [];
  const value = emptyLaneConfig();
  for (const role of deviceRoles) {
    const conn = validateConnection(role, input[role], errors);
    if (conn) value[role] = conn;
  }
  if (input.recordFramesTo !== undefined) {
    if (typeof input.recordFramesTo === 'string' && input.recordFramesTo.length > 0) {
      value.recordFramesTo = input.recordFramesTo;
    } else errors.push('recordFramesTo must be a folder path');
  }
  const byPath = new Map<string, DeviceRole>();
  const byHid = new Map<string, DeviceRole>();
  for (const role of deviceRoles) {
    const c = value[role];
    if (c.kind === 'serial') {
      const other = byPath.get(c.path);
      if (other) errors.push(`${role}: ${c.path} is already used by ${other}`);
      else byPath.set(c.path, role);
    } else if (c.kind === 'hid') {
      const key = `${c.vendorId}:${c.productId}`;
      const other = byHid.get(key);
      if (other) errors.push(`${role}: that HID device is already used by ${other}`);
      else byHid.set(key, role);
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value };
}
