import { type PtyPair, createPtyPair } from '../../../native/simulators/pty-pair';
import { type ByteStream, createMemoryPair } from '../../../native/transports/byte-stream';
import { type SerialSettings, openSerialStream } from '../../../native/transports/serial-transport';

/** The two ends a simulator test needs: the device's stream and the host's, plus cleanup. */
export type Link = { device: ByteStream; host: ByteStream; pty?: PtyPair; close(): Promise<void> };

export type Transport = 'memory' | 'pty';

const line: Omit<SerialSettings, 'path'> = { baudRate: 19200, dataBits: 8, parity: 'none', stopBits: 1 };

/** A memory pair, or a real socat pty pair opened through serialport on both ends. */
export async function openLink(
  kind: Transport,
  settings: Partial<Omit<SerialSettings, 'path'>> = {},
): Promise<Link> {
  if (kind === 'memory') {
    const [device, host] = createMemoryPair('device', 'host');
    return {
      device,
      host,
      close: async () => {
        await device.close();
        await host.close();
      },
    };
  }
  const pty = await createPtyPair();
  const device = await openSerialStream({ ...line, ...settings, path: pty.a });
  const host = await openSerialStream({ ...line, ...settings, path: pty.b });
  return {
    device,
    host,
    pty,
    close: async () => {
      await device.close();
      await host.close();
      await pty.close();
    },
  };
}

/** Collects everything the host end receives. */
export function recorder(stream: ByteStream): { bytes: () => Uint8Array; clear: () => void } {
  let chunks: number[] = [];
  stream.onData((c) => chunks.push(...c));
  return { bytes: () => Uint8Array.from(chunks), clear: () => (chunks = []) };
}

/** Polls `predicate` until it holds or `timeoutMs` passes. */
export async function waitFor(predicate: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
