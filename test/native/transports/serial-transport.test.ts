import { afterEach, describe, expect, it } from 'vitest';
import { createPtyPair, type PtyPair } from '../../../native/simulators/pty-pair';
import { openSerialStream, SerialDisconnectedError } from '../../../native/transports/serial-transport';
import { sleep, waitFor } from '../support/pty-streams';

const line = { baudRate: 19200, dataBits: 8, parity: 'none', stopBits: 1 } as const;

describe('serial transport over a socat pty', () => {
  let pair: PtyPair | undefined;
  afterEach(async () => {
    await pair?.close();
    pair = undefined;
  });

  it('moves bytes both ways, all 256 values, on 8N1 and 7E1 settings', async () => {
    pair = await createPtyPair();
    const a = await openSerialStream({ path: pair.a, ...line });
    const b = await openSerialStream({ path: pair.b, ...line, dataBits: 7, parity: 'even' });
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const received: number[] = [];
    const done = waitFor<void>(
      (resolve) =>
        b.onData((c) => {
          received.push(...c);
          if (received.length >= 256) resolve();
        }),
      3000,
      '256 bytes',
    );
    await a.write(all);
    await done;
    // A pty carries whatever it is given: parity is the UART's business, not the pty's.
    expect(received).toEqual([...all]);
    const back = waitFor<Uint8Array>((resolve) => a.onData(resolve), 3000, 'reply');
    await b.write(Uint8Array.of(0x06));
    expect([...(await back)]).toEqual([0x06]);
    expect(a.label).toBe(`serial:${pair.a}`);
    await a.close();
    await b.close();
    expect(a.isOpen).toBe(false);
  });

  it('refuses a path that does not exist, without card data or a crash', async () => {
    await expect(openSerialStream({ path: '/dev/ttyUSB-none', ...line })).rejects.toThrow(
      /cannot open \/dev\/ttyUSB-none/,
    );
  });

  it('ends the stream with a disconnect reason when the other side goes away, and fails later writes', async () => {
    pair = await createPtyPair();
    const host = await openSerialStream({ path: pair.b, ...line });
    const closed = waitFor<Error | undefined>((resolve) => host.onClose(resolve), 3000, 'close');
    // Let serialport arm its first read: a hang-up is noticed by the read (or the next write) failing.
    await sleep(100);
    await pair.close();
    const reason = await closed;
    expect(reason).toBeInstanceOf(SerialDisconnectedError);
    expect(host.isOpen).toBe(false);
    await expect(host.write(Uint8Array.of(1))).rejects.toThrow(/closed/);
    // Closing an already-ended stream is harmless.
    await host.close();
  });

  it('notices a hang-up right after open through the device node vanishing', async () => {
    pair = await createPtyPair();
    const host = await openSerialStream({ path: pair.b, ...line }, { watchPathMs: 100 });
    const closed = waitFor<Error | undefined>((resolve) => host.onClose(resolve), 3000, 'close');
    await pair.close();
    expect((await closed)?.message).toMatch(/disconnected/);
  });

  it('close() by us ends the stream with no reason', async () => {
    pair = await createPtyPair();
    const host = await openSerialStream({ path: pair.b, ...line });
    const closed = waitFor<Error | undefined>((resolve) => host.onClose(resolve), 3000, 'close');
    await host.close();
    expect(await closed).toBeUndefined();
  });
});
