import { Type, type Static } from 'typebox';
import { DEVICE_ROLES } from './constants';

export const DeviceRoleSchema = Type.Enum(DEVICE_ROLES, { problem: 'Unknown device role.' });
export type DeviceRoleName = Static<typeof DeviceRoleSchema>;

export type DeviceStateName = 'connected' | 'missing' | 'reconnecting' | 'error';

const serialLine = {
  baudRate: Type.Number(),
  dataBits: Type.Union([Type.Literal(7), Type.Literal(8)]),
  parity: Type.Enum(['none', 'even', 'odd']),
  stopBits: Type.Union([Type.Literal(1), Type.Literal(2)]),
};
export const SerialLineSchema = Type.Object(serialLine);
export type SerialLine = Static<typeof SerialLineSchema>;

export const DeviceConnectionSchema = Type.Union(
  [
    Type.Object({ kind: Type.Literal('serial'), path: Type.String(), ...serialLine }),
    Type.Object({ kind: Type.Literal('hid'), vendorId: Type.Number(), productId: Type.Number() }),
    Type.Object({
      kind: Type.Literal('wedge'),
      // A wedge scanner's settings (common/wedge-scan.ts); a card reader's wedge takes none.
      prefix: Type.Optional(Type.String()),
      suffix: Type.Optional(Type.Union([Type.Literal('Enter'), Type.Literal('Tab'), Type.Literal('none')])),
      minLength: Type.Optional(Type.Number()),
      maxGapMs: Type.Optional(Type.Number()),
      maxMeanGapMs: Type.Optional(Type.Number()),
    }),
    Type.Object({ kind: Type.Literal('simulated') }),
    Type.Object({ kind: Type.Literal('none') }),
  ],
  { problem: 'A device connection is serial, hid, wedge, simulated or none.' },
);
export type DeviceConnectionView = Static<typeof DeviceConnectionSchema>;

export const DeviceConfigSchema = Type.Object({
  cardReader: DeviceConnectionSchema,
  pinPad: DeviceConnectionSchema,
  contactless: DeviceConnectionSchema,
  signaturePad: DeviceConnectionSchema,
  receiptPrinter: DeviceConnectionSchema,
  // Optional: a screen built before these roles existed sends none (they stay as configured).
  scanner: Type.Optional(DeviceConnectionSchema),
  poleDisplay: Type.Optional(DeviceConnectionSchema),
});
export type DeviceConfigView = Static<typeof DeviceConfigSchema>;

export type DeviceStatusView = {
  role: DeviceRoleName;
  kind: DeviceConnectionView['kind'];
  attachment: string;
  state: DeviceStateName;
  lastError?: string;
  lastSeenAt?: number;
  attempts: number;
  nextAttemptAt?: number;
  detail?: Record<string, string | number | boolean>;
  /**
   * What keeps the device from its job, in a person's words: "not connected" (configured, but the link is
   * down), or what a connected device reports ("out of paper", "cover open"). Absent when it can work.
   */
  problem?: string;
};

export type DiscoveredDeviceView = {
  transport: 'serial' | 'hid';
  path: string;
  vendorId?: number;
  productId?: number;
  manufacturer?: string;
  product?: string;
  guess?: { role: DeviceRoleName; model: string; confidence: 'high' | 'low' };
  suggestion?: DeviceConnectionView;
};

export type DiscoveryView = {
  devices: DiscoveredDeviceView[];
  serialMethod: string;
  serialNote?: string;
  hid: { available: boolean; reason?: string };
};

export const DeviceTestRequestSchema = Type.Union(
  [
    Type.Object({
      role: Type.Literal('cardReader'),
      action: Type.Literal('read-card'),
      timeoutMs: Type.Optional(Type.Number()),
    }),
    Type.Object({
      role: Type.Literal('pinPad'),
      action: Type.Literal('display-text'),
      text: Type.Optional(Type.String()),
    }),
    Type.Object({ role: Type.Literal('contactless'), action: Type.Enum(['beep', 'ping']) }),
    Type.Object({
      role: Type.Literal('receiptPrinter'),
      action: Type.Enum(['print-test-receipt', 'status']),
    }),
    Type.Object({
      role: Type.Literal('scanner'),
      action: Type.Literal('read-barcode'),
      timeoutMs: Type.Optional(Type.Number()),
    }),
    Type.Object({
      role: Type.Literal('poleDisplay'),
      action: Type.Literal('display-test'),
      text: Type.Optional(Type.String({ maxLength: 20 })),
    }),
    Type.Object({ role: DeviceRoleSchema, action: Type.Literal('heartbeat') }),
  ],
  { problem: 'Unknown device role or test.' },
);
export type DeviceTestRequest = Static<typeof DeviceTestRequestSchema>;

export type DeviceTestResultView = { ok: boolean; detail: string };

/** One recorded frame, as native's frame recorder wrote it: card data masked, PIN blocks dropped. */
export type FrameView = {
  at: number;
  role: DeviceRoleName;
  direction: 'in' | 'out';
  length: number;
  /** The frame's bytes (already masked by the recorder) as hex. */
  hex?: string;
  /** The same bytes as printable ASCII, other bytes shown as `.`. */
  ascii?: string;
};

export type FrameRecorderView = { enabled: boolean; frames: FrameView[]; file?: string };
