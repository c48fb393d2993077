/**
 * USB HID transport over `node-hid`, loaded lazily.
 *
 * `node-hid`'s prebuilt binding needs libusb-1.0 at load time; where it is missing, loading throws
 * (docs/decisions.md#build-machines). It is imported on first use inside try/catch, and every
 * public function here reports HID as unavailable with the reason instead of throwing, so a terminal without
 * libusb still starts.
 *
 * No HID device can be created on the build machines (no /dev/hidraw*, no uhid), so drivers program against
 * `HidDevicePort`, and tests drive them with RECORDED reports through `createRecordedHidPort`, a replay double
 * that goes through the same raw→port adapter (including the feature-report quirk below) as a real device.
 */

/** One HID interface as enumeration reports it. */
export type HidDeviceInfo = {
  vendorId: number;
  productId: number;
  path?: string;
  product?: string;
  manufacturer?: string;
  serialNumber?: string;
  usagePage?: number;
  usage?: number;
  interface?: number;
};

/** What a driver sees of an open HID device. */
export type HidDevicePort = {
  readonly label: string;
  readonly isOpen: boolean;
  readonly info: HidDeviceInfo;
  /** Input reports, without a report-ID byte when the device uses none (MagTek, docs/devices.md §2.2). */
  onReport(listener: (report: Uint8Array) => void): () => void;
  /** Fires once when the device is closed or unplugged. */
  onClose(listener: (reason: Error | undefined) => void): () => void;
  /** `data` is the report body; the transport prefixes `reportId` as hidapi requires (0 when unused). */
  sendFeatureReport(reportId: number, data: Uint8Array): Promise<void>;
  /** Returns exactly `length` body bytes, whatever the platform did with the report-ID byte (§2.3). */
  getFeatureReport(reportId: number, length: number): Promise<Uint8Array>;
  /** Output report (ViVOpay HID chunks, §3.3): `data` starts with the report ID. */
  write(data: Uint8Array): Promise<void>;
  close(): Promise<void>;
};

export type HidAvailability = { available: true } | { available: false; reason: string };

export type HidListing = { devices: HidDeviceInfo[] } & HidAvailability;

/** The subset of node-hid's HIDAsync we use: the seam between the real binding and the replay double. */
export type RawHidDevice = {
  on(event: 'data', listener: (data: Buffer) => void): unknown;
  on(event: 'error', listener: (err: unknown) => void): unknown;
  sendFeatureReport(data: number[] | Buffer): Promise<number>;
  getFeatureReport(reportId: number, length: number): Promise<Buffer>;
  write(values: number[] | Buffer): Promise<number>;
  close(): Promise<void>;
};

type NodeHidModule = {
  devicesAsync(): Promise<RawDeviceInfo[]>;
  HIDAsync: { open(path: string, options?: { nonExclusive?: boolean }): Promise<RawHidDevice> };
};

type RawDeviceInfo = {
  vendorId: number;
  productId: number;
  path?: string;
  product?: string;
  manufacturer?: string;
  serialNumber?: string;
  usagePage?: number;
  usage?: number;
  interface?: number;
};

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

let loaded: Promise<{ ok: true; hid: NodeHidModule } | { ok: false; reason: string }> | undefined;

/**
 * node-hid binds its native module on the first call, not at import: enumeration is the probe that
 * proves libusb is loadable. Cached, so a missing library is diagnosed once.
 */
function loadNodeHid(): Promise<{ ok: true; hid: NodeHidModule } | { ok: false; reason: string }> {
  loaded ??= (async () => {
    try {
      const mod = (await import('node-hid')) as unknown as NodeHidModule & { default?: NodeHidModule };
      const hid = typeof mod.devicesAsync === 'function' ? mod : mod.default;
      if (!hid) return { ok: false as const, reason: 'node-hid has no devicesAsync export' };
      await hid.devicesAsync();
      return { ok: true as const, hid };
    } catch (err) {
      return { ok: false as const, reason: `HID unavailable: ${describe(err)}` };
    }
  })();
  return loaded;
}

export async function hidAvailability(): Promise<HidAvailability> {
  const r = await loadNodeHid();
  return r.ok ? { available: true } : { available: false, reason: r.reason };
}

function toInfo(d: RawDeviceInfo): HidDeviceInfo {
  const info: HidDeviceInfo = { vendorId: d.vendorId, productId: d.productId };
  if (d.path !== undefined) info.path = d.path;
  if (d.product !== undefined) info.product = d.product;
  if (d.manufacturer !== undefined) info.manufacturer = d.manufacturer;
  if (d.serialNumber !== undefined) info.serialNumber = d.serialNumber;
  if (d.usagePage !== undefined) info.usagePage = d.usagePage;
  if (d.usage !== undefined) info.usage = d.usage;
  if (d.interface !== undefined) info.interface = d.interface;
  return info;
}

/**
 * A vendor (and product), or a usage page: HID POS scanners of any vendor declare usage page 0x8C
 * (HID Point of Sale Usage Tables), which finds them where a vendor list would not.
 */
export type HidFilter = { vendorId: number; productId?: number } | { usagePage: number };

function matchesFilter(f: HidFilter, d: HidDeviceInfo): boolean {
  if ('usagePage' in f) return d.usagePage === f.usagePage;
  return f.vendorId === d.vendorId && (f.productId === undefined || f.productId === d.productId);
}

/** Enumerates HID interfaces, optionally filtered by vendor/product; never throws. */
export async function listHidDevices(filters: readonly HidFilter[] = []): Promise<HidListing> {
  const r = await loadNodeHid();
  if (!r.ok) return { available: false, reason: r.reason, devices: [] };
  try {
    const all = (await r.hid.devicesAsync()).map(toInfo);
    const devices = filters.length === 0 ? all : all.filter((d) => filters.some((f) => matchesFilter(f, d)));
    return { available: true, devices };
  } catch (err) {
    return { available: false, reason: `HID enumeration failed: ${describe(err)}`, devices: [] };
  }
}

export type HidSelector = {
  vendorId: number;
  productId: number;
  path?: string;
  /** The interface to prefer, e.g. 0x8C for a scanner's HID POS interface. Default: a vendor page. */
  usagePage?: number;
};

/**
 * Opens the first interface matching the selector. The selector's usage page, or else a vendor usage page
 * (0xFF00 on MagTek, §2.1), is preferred when a device exposes several interfaces, because the others may
 * be keyboards the OS owns (a scanner in HID POS mode often keeps a keyboard interface beside it).
 */
export async function openHidDevice(selector: HidSelector): Promise<HidDevicePort> {
  const r = await loadNodeHid();
  if (!r.ok) throw new Error(r.reason);
  const all = (await r.hid.devicesAsync()).map(toInfo);
  const matches = all.filter(
    (d) =>
      d.vendorId === selector.vendorId &&
      d.productId === selector.productId &&
      (selector.path === undefined || d.path === selector.path),
  );
  const wanted = selector.usagePage;
  const chosen =
    (wanted !== undefined
      ? matches.find((d) => d.usagePage === wanted)
      : matches.find((d) => d.usagePage !== undefined && d.usagePage >= 0xff00)) ?? matches[0];
  if (!chosen?.path) {
    throw new Error(`no HID device ${hex4(selector.vendorId)}:${hex4(selector.productId)} present`);
  }
  const raw = await r.hid.HIDAsync.open(chosen.path);
  return wrapRawHid(raw, chosen);
}

export function hex4(n: number): string {
  return `0x${n.toString(16).padStart(4, '0')}`;
}

/**
 * hidapi returns feature reports with the report-ID byte first on Linux/macOS, but some Windows stacks
 * drop it for report ID 0 (libusb/hidapi#328, node-hid#517; docs/devices.md §2.3). Normalise to the body.
 */
export function normalizeFeatureReport(reportId: number, length: number, raw: Uint8Array): Uint8Array {
  const body = raw.length === length + 1 && raw[0] === reportId ? raw.subarray(1) : raw;
  const out = new Uint8Array(length);
  out.set(body.subarray(0, length));
  return out;
}

/** Adapts a raw node-hid device (or the replay double) to `HidDevicePort`. */
export function wrapRawHid(raw: RawHidDevice, info: HidDeviceInfo): HidDevicePort {
  const label = `hid:${hex4(info.vendorId)}:${hex4(info.productId)}`;
  const reportListeners = new Set<(report: Uint8Array) => void>();
  const closeListeners = new Set<(reason: Error | undefined) => void>();
  let open = true;
  const end = (reason: Error | undefined): void => {
    if (!open) return;
    open = false;
    for (const l of closeListeners) l(reason);
    reportListeners.clear();
    closeListeners.clear();
  };
  raw.on('data', (data: Buffer) => {
    const report = Uint8Array.from(data);
    for (const l of reportListeners) l(report);
  });
  // hidapi reports an unplug as a read error; the device is unusable after it.
  raw.on('error', (err: unknown) => {
    const reason = new Error(`${label} disconnected: ${describe(err)}`);
    raw.close().then(
      () => end(reason),
      () => end(reason),
    );
  });
  const guard = async <T>(what: string, op: () => Promise<T>): Promise<T> => {
    if (!open) throw new Error(`${label} is closed`);
    try {
      return await op();
    } catch (err) {
      throw new Error(`${label} ${what} failed: ${describe(err)}`);
    }
  };
  return {
    label,
    info,
    get isOpen() {
      return open;
    },
    onReport(listener) {
      reportListeners.add(listener);
      return () => reportListeners.delete(listener);
    },
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
    sendFeatureReport(reportId, data) {
      return guard('sendFeatureReport', async () => {
        const framed = Buffer.alloc(data.length + 1);
        framed[0] = reportId;
        framed.set(data, 1);
        await raw.sendFeatureReport(framed);
      });
    },
    getFeatureReport(reportId, length) {
      return guard('getFeatureReport', async () => {
        // Ask for body + ID byte; platforms that strip the ID simply return one byte less.
        const got = await raw.getFeatureReport(reportId, length + 1);
        return normalizeFeatureReport(reportId, length, Uint8Array.from(got));
      });
    },
    write(data) {
      return guard('write', async () => {
        await raw.write(Buffer.from(data));
      });
    },
    async close() {
      if (!open) return;
      try {
        await raw.close();
      } finally {
        end(undefined);
      }
    },
  };
}

/** How a recorded device answers feature reports and whether it shows the Windows report-ID-0 quirk. */
export type RecordedHidSession = {
  info?: Partial<HidDeviceInfo>;
  /** Given the feature request body (without report ID), the response body; undefined = echo of nothing (zeros). */
  answerFeature?: (request: Uint8Array) => Uint8Array | undefined;
  /** true: getFeatureReport returns the body without the report-ID byte (the Windows quirk, §2.3). */
  stripsReportId?: boolean;
};

/** Controls of the replay double: feed recorded input reports, unplug, inspect what the driver sent. */
export type RecordedHidDevice = {
  /** Delivers one recorded input report, as node-hid would (asynchronously). */
  emitReport(report: Uint8Array): void;
  unplug(reason?: string): void;
  readonly sentFeatureReports: readonly Uint8Array[];
  readonly writes: readonly Uint8Array[];
};

/**
 * A replay double of a HID device for tests and support replays: no HID device can be created on the
 * build machines, so recorded reports are pushed through the same adapter a real device uses.
 */
export function createRecordedHidPort(session: RecordedHidSession = {}): {
  port: HidDevicePort;
  device: RecordedHidDevice;
} {
  type Listener = (arg: never) => void;
  const listeners: { data: Set<(d: Buffer) => void>; error: Set<(e: unknown) => void> } = {
    data: new Set(),
    error: new Set(),
  };
  const sentFeatureReports: Uint8Array[] = [];
  const writes: Uint8Array[] = [];
  let lastFeature: Uint8Array = new Uint8Array(0);
  let closed = false;
  const raw: RawHidDevice = {
    on(event: 'data' | 'error', listener: Listener) {
      if (event === 'data') listeners.data.add(listener as (d: Buffer) => void);
      else listeners.error.add(listener as (e: unknown) => void);
      return raw;
    },
    sendFeatureReport(data) {
      const bytes = Uint8Array.from(data);
      sentFeatureReports.push(bytes);
      lastFeature = bytes.subarray(1);
      return Promise.resolve(bytes.length);
    },
    getFeatureReport(reportId, length) {
      const answer = session.answerFeature?.(lastFeature) ?? new Uint8Array(0);
      const body = new Uint8Array(length - 1);
      body.set(answer.subarray(0, length - 1));
      if (session.stripsReportId) return Promise.resolve(Buffer.from(body));
      const withId = Buffer.alloc(length);
      withId[0] = reportId;
      withId.set(body, 1);
      return Promise.resolve(withId);
    },
    write(values) {
      const bytes = Uint8Array.from(values);
      writes.push(bytes);
      return Promise.resolve(bytes.length);
    },
    close() {
      closed = true;
      return Promise.resolve();
    },
  };
  const info: HidDeviceInfo = { vendorId: 0x0801, productId: 0x0002, path: 'recorded', ...session.info };
  const port = wrapRawHid(raw, info);
  return {
    port,
    device: {
      emitReport(report) {
        const copy = Buffer.from(report);
        setImmediate(() => {
          if (closed) return;
          for (const l of listeners.data) l(copy);
        });
      },
      unplug(reason = 'device unplugged') {
        setImmediate(() => {
          for (const l of listeners.error) l(new Error(reason));
        });
      },
      sentFeatureReports,
      writes,
    },
  };
}
