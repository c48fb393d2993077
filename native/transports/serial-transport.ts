import { constants as fsConstants } from 'node:fs';
import { access, lstat, readFile, readdir, realpath, stat } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { SerialPort } from 'serialport';
import type { ByteStream } from './byte-stream';

/**
 * Line settings a field tech can set per port. 8N1 is the usual default; VeriFone pads can be switched to
 * 7E1 (docs/devices.md §4.2) and Topaz pads speak 8O1 or 7O1 (§5.1), so every field is explicit.
 */
export type SerialSettings = {
  path: string;
  baudRate: number;
  dataBits: 7 | 8;
  parity: 'none' | 'even' | 'odd';
  stopBits: 1 | 2;
};

export const defaultSerialSettings: Omit<SerialSettings, 'path'> = {
  baudRate: 9600,
  dataBits: 8,
  parity: 'none',
  stopBits: 1,
};

/** Error raised when the OS takes the port away (unplugged cable, socat gone). */
export class SerialDisconnectedError extends Error {
  constructor(label: string, cause: string) {
    super(`${label} disconnected: ${cause}`);
    this.name = 'SerialDisconnectedError';
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Opens a serial port (or a pty: socat pairs open like any tty) as a ByteStream. Rejects when the port
 * cannot be opened; after that, any read/write error ends the stream with that error as the close reason,
 * so the device manager sees one signal for "the device went away" whatever the cause.
 */
export type SerialStreamOptions = {
  /**
   * How often the device node is checked while open. A pulled USB-serial adapter removes its /dev node,
   * and a dead socat its pty link, but serialport does not always see the hang-up (its poller can miss
   * it before the first read is armed); the node vanishing, or pointing at another device, is
   * unambiguous. Default 1000 ms; 0 disables.
   */
  watchPathMs?: number;
};

export async function openSerialStream(
  settings: SerialSettings,
  options: SerialStreamOptions = {},
): Promise<ByteStream> {
  const port = new SerialPort({
    path: settings.path,
    baudRate: settings.baudRate,
    dataBits: settings.dataBits,
    parity: settings.parity,
    stopBits: settings.stopBits,
    autoOpen: false,
    // A pty or a USB-serial adapter may refuse the exclusive lock of a port another process holds;
    // failing loudly is what we want (two terminals on one pad would corrupt both sessions).
    lock: true,
  });
  await new Promise<void>((resolve, reject) => {
    port.open((err) => (err ? reject(new Error(`cannot open ${settings.path}: ${err.message}`)) : resolve()));
  });

  const label = `serial:${settings.path}`;
  const dataListeners = new Set<(chunk: Uint8Array) => void>();
  const closeListeners = new Set<(reason: Error | undefined) => void>();
  let open = true;
  let pendingError: Error | undefined;
  let watch: ReturnType<typeof setInterval> | undefined;

  const end = (reason: Error | undefined): void => {
    if (!open) return;
    open = false;
    if (watch !== undefined) clearInterval(watch);
    for (const l of closeListeners) l(reason);
    dataListeners.clear();
    closeListeners.clear();
  };

  const watchMs = options.watchPathMs ?? 1000;
  const opened = await stat(settings.path).catch(() => undefined);
  if (watchMs > 0 && opened) {
    let checking = false;
    watch = setInterval(() => {
      if (checking) return;
      checking = true;
      stat(settings.path)
        .then(
          (now) => (now.rdev === opened.rdev ? undefined : 'the port now leads to another device'),
          () => 'the device node disappeared',
        )
        .then((gone) => {
          checking = false;
          if (!gone || !open) return;
          pendingError = new SerialDisconnectedError(label, gone);
          if (port.isOpen) port.close(() => end(pendingError));
          else end(pendingError);
        })
        .catch(() => undefined);
    }, watchMs);
    watch.unref();
  }

  port.on('data', (chunk: Buffer) => {
    const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (const l of dataListeners) l(bytes);
  });
  // serialport emits 'error' for failures outside a callback; without a listener Node would throw.
  port.on('error', (err: Error) => {
    pendingError = new SerialDisconnectedError(label, err.message);
    if (port.isOpen) port.close(() => end(pendingError));
    else end(pendingError);
  });
  port.on('close', (err: Error | null) => {
    end(err ? new SerialDisconnectedError(label, err.message) : pendingError);
  });

  const stream: ByteStream = {
    label,
    get isOpen() {
      return open;
    },
    write(data) {
      if (!open) return Promise.reject(new Error(`${label} is closed`));
      return new Promise<void>((resolve, reject) => {
        port.write(Buffer.from(data.buffer, data.byteOffset, data.byteLength), (err) => {
          if (err) {
            reject(new Error(`${label} write failed: ${describe(err)}`));
            return;
          }
          // drain() waits until the OS has taken the bytes, so timeouts measured after write() are honest.
          port.drain((drainErr) =>
            drainErr ? reject(new Error(`${label} drain failed: ${describe(drainErr)}`)) : resolve(),
          );
        });
      });
    },
    onData(listener) {
      dataListeners.add(listener);
      return () => dataListeners.delete(listener);
    },
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
    close() {
      if (!open) return Promise.resolve();
      return new Promise<void>((resolve) => {
        if (!port.isOpen) {
          end(undefined);
          resolve();
          return;
        }
        port.close(() => {
          end(undefined);
          resolve();
        });
      });
    },
  };
  return stream;
}

/** A serial port as discovery reports it; vendor/product ids are lower-case hex without 0x, as udev gives them. */
export type SerialPortInfo = {
  path: string;
  /** Where the path came from: udev's database, a /dev + /sys scan, or a path given in config. */
  source: 'udev' | 'scan' | 'config';
  vendorId?: string;
  productId?: string;
  manufacturer?: string;
  serialNumber?: string;
};

export type SerialPortList = {
  ports: SerialPortInfo[];
  /** How the list was made, so a tech can tell why a port is or is not shown. */
  method: 'udev' | 'scan';
  /** Why udev was not used (missing udevadm, or it failed). */
  note?: string;
};

export type ListSerialPortsOptions = {
  /** Paths from the lane config (e.g. socat links to /dev/pts/N) that a scan would not find by name. */
  configuredPaths?: readonly string[];
  /** Test seams: where to look, and what PATH to search for udevadm. */
  devDir?: string;
  sysClassTty?: string;
  searchPath?: string;
  /** Skip udev entirely (the scan is what a machine without udev gets anyway). */
  useUdev?: boolean;
  udevTimeoutMs?: number;
};

async function isExecutableOnPath(name: string, searchPath: string): Promise<boolean> {
  for (const dir of searchPath.split(delimiter)) {
    if (!dir) continue;
    try {
      await access(join(dir, name), fsConstants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

async function readTrimmed(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    return undefined;
  }
}

/** USB ids from sysfs: the tty's device links into the USB interface; idVendor sits on an ancestor. */
async function usbIdsFromSysfs(
  sysTty: string,
): Promise<Pick<SerialPortInfo, 'vendorId' | 'productId' | 'manufacturer' | 'serialNumber'>> {
  let dir: string;
  try {
    dir = await realpath(join(sysTty, 'device'));
  } catch {
    return {};
  }
  for (let i = 0; i < 4 && dir !== '/'; i += 1) {
    const vendorId = await readTrimmed(join(dir, 'idVendor'));
    if (vendorId) {
      const productId = await readTrimmed(join(dir, 'idProduct'));
      const manufacturer = await readTrimmed(join(dir, 'manufacturer'));
      const serialNumber = await readTrimmed(join(dir, 'serial'));
      return {
        vendorId: vendorId.toLowerCase(),
        ...(productId ? { productId: productId.toLowerCase() } : {}),
        ...(manufacturer ? { manufacturer } : {}),
        ...(serialNumber ? { serialNumber } : {}),
      };
    }
    dir = dirname(dir);
  }
  return {};
}

/**
 * Every Linux box has /dev/ttyS0..31 whether or not a UART sits behind them; sysfs `type` 0 means
 * "no UART detected", so those are skipped. Without sysfs we keep them: better a dead entry than a hidden port.
 */
async function isRealUart(sysTty: string): Promise<boolean> {
  const type = await readTrimmed(join(sysTty, 'type'));
  return type === undefined || type !== '0';
}

async function scanDev(devDir: string, sysClassTty: string): Promise<SerialPortInfo[]> {
  let names: string[];
  try {
    names = await readdir(devDir);
  } catch {
    return [];
  }
  const found: SerialPortInfo[] = [];
  for (const name of names.filter((n) => /^tty(S|USB|ACM)\d+$/.test(n)).sort(naturalCompare)) {
    const sysTty = join(sysClassTty, name);
    if (name.startsWith('ttyS') && !(await isRealUart(sysTty))) continue;
    found.push({ path: join(devDir, name), source: 'scan', ...(await usbIdsFromSysfs(sysTty)) });
  }
  return found;
}

function naturalCompare(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

async function configuredPorts(paths: readonly string[]): Promise<SerialPortInfo[]> {
  const found: SerialPortInfo[] = [];
  for (const path of paths) {
    try {
      // Follows the link (socat's `link=` points into /dev/pts): a dangling link means the device is gone.
      const st = await stat(path);
      if (st.isCharacterDevice()) found.push({ path, source: 'config' });
      else if ((await lstat(path)).isSymbolicLink()) found.push({ path, source: 'config' });
    } catch {
      // absent: the device manager reports it as missing
    }
  }
  return found;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/**
 * Lists serial ports and never throws. On Linux `SerialPort.list()` spawns `udevadm info -e`; on a machine
 * without udevadm the child's spawn error has crashed whole processes in some serialport versions
 * (docs/decisions.md#build-machines), so udevadm is looked up on PATH first and never spawned when absent,
 * and any failure of the udev path falls back to scanning /dev and /sys ourselves.
 */
export async function listSerialPorts(options: ListSerialPortsOptions = {}): Promise<SerialPortList> {
  const devDir = options.devDir ?? '/dev';
  const sysClassTty = options.sysClassTty ?? '/sys/class/tty';
  const configured = await configuredPorts(options.configuredPaths ?? []);
  const merge = (base: SerialPortInfo[]): SerialPortInfo[] => {
    const seen = new Set(base.map((p) => p.path));
    return [...base, ...configured.filter((p) => !seen.has(p.path))];
  };

  let note: string | undefined;
  const wantUdev = options.useUdev ?? process.platform === 'linux';
  if (process.platform !== 'linux') {
    try {
      const listed = await udevList(options.udevTimeoutMs ?? 5000);
      return { method: 'udev', ports: merge(listed.map(fromPortInfo)) };
    } catch (err) {
      return { method: 'scan', ports: configured, note: `SerialPort.list failed: ${describe(err)}` };
    }
  }
  if (wantUdev) {
    if (await isExecutableOnPath('udevadm', options.searchPath ?? process.env.PATH ?? '')) {
      try {
        const listed = await udevList(options.udevTimeoutMs ?? 5000);
        return { method: 'udev', ports: merge(listed.map(fromPortInfo)) };
      } catch (err) {
        note = `udev listing failed (${describe(err)}); scanned ${devDir} instead`;
      }
    } else {
      note = `udevadm not found; scanned ${devDir} instead`;
    }
  } else {
    note = 'udev disabled; scanned /dev';
  }
  const scanned = await scanDev(devDir, sysClassTty);
  return { method: 'scan', ports: merge(scanned), note };
}

/** The fields of serialport's PortInfo we read (declared here: its type comes from a transitive package). */
type UdevPortInfo = {
  path: string;
  manufacturer?: string | undefined;
  serialNumber?: string | undefined;
  vendorId?: string | undefined;
  productId?: string | undefined;
};

async function udevList(timeoutMs: number): Promise<UdevPortInfo[]> {
  const list = SerialPort.list() as unknown as Promise<UdevPortInfo[]>;
  return withTimeout(list, timeoutMs, 'SerialPort.list');
}

function fromPortInfo(p: UdevPortInfo): SerialPortInfo {
  return {
    path: p.path,
    source: 'udev',
    ...(p.vendorId ? { vendorId: p.vendorId.toLowerCase() } : {}),
    ...(p.productId ? { productId: p.productId.toLowerCase() } : {}),
    ...(p.manufacturer ? { manufacturer: p.manufacturer } : {}),
    ...(p.serialNumber ? { serialNumber: p.serialNumber } : {}),
  };
}
