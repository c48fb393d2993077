import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listSerialPorts } from '../../../native/transports/serial-transport';

describe('listSerialPorts without udev', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'tillpoint-serial-list-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('never spawns udevadm when it is not on PATH, and scans /dev and /sys instead', async () => {
    const dev = join(root, 'dev');
    const sys = join(root, 'sys');
    await mkdir(dev);
    // Regular files stand in for device nodes: the scan goes by name.
    for (const n of ['ttyS0', 'ttyS1', 'ttyUSB0', 'ttyACM3', 'tty0', 'ttyX'])
      await writeFile(join(dev, n), '');
    // ttyS1 has no UART behind it (sysfs type 0); ttyUSB0 sits on an FTDI bridge.
    await mkdir(join(sys, 'ttyS0'), { recursive: true });
    await writeFile(join(sys, 'ttyS0', 'type'), '4\n');
    await mkdir(join(sys, 'ttyS1'), { recursive: true });
    await writeFile(join(sys, 'ttyS1', 'type'), '0\n');
    const usbDev = join(root, 'devices', 'usb1', '1-1');
    await mkdir(join(usbDev, '1-1:1.0', 'ttyUSB0'), { recursive: true });
    await writeFile(join(usbDev, 'idVendor'), '0403\n');
    await writeFile(join(usbDev, 'idProduct'), '6001\n');
    await writeFile(join(usbDev, 'manufacturer'), 'FTDI\n');
    await mkdir(join(sys, 'ttyUSB0'), { recursive: true });
    await symlink(join(usbDev, '1-1:1.0', 'ttyUSB0'), join(sys, 'ttyUSB0', 'device'));

    const list = await listSerialPorts({ devDir: dev, sysClassTty: sys, searchPath: join(root, 'no-bin') });
    expect(list.method).toBe('scan');
    expect(list.note).toMatch(/udevadm not found/);
    expect(list.ports.map((p) => p.path)).toEqual([
      join(dev, 'ttyACM3'),
      join(dev, 'ttyS0'),
      join(dev, 'ttyUSB0'),
    ]);
    expect(list.ports.find((p) => p.path.endsWith('ttyUSB0'))).toMatchObject({
      vendorId: '0403',
      productId: '6001',
      manufacturer: 'FTDI',
    });
  });

  it('adds configured paths that exist (socat links) and drops dangling ones', async () => {
    const target = join(root, 'pts-7');
    await writeFile(target, '');
    await symlink(target, join(root, 'ttyPINPAD'));
    await symlink(join(root, 'gone'), join(root, 'ttyGONE'));
    const list = await listSerialPorts({
      devDir: join(root, 'empty'),
      searchPath: '',
      configuredPaths: [join(root, 'ttyPINPAD'), join(root, 'ttyGONE'), '/nonexistent/tty'],
    });
    expect(list.ports).toEqual([{ path: join(root, 'ttyPINPAD'), source: 'config' }]);
  });

  it('resolves on this machine whatever it has (no udev here), without throwing', async () => {
    const list = await listSerialPorts();
    expect(['udev', 'scan']).toContain(list.method);
    expect(Array.isArray(list.ports)).toBe(true);
  });

  it('falls back to the scan when the udev listing fails', async () => {
    const bin = join(root, 'bin');
    await mkdir(bin);
    // An udevadm that exists but is broken: SerialPort.list() spawns the real PATH, so point PATH at it.
    await writeFile(join(bin, 'udevadm'), '#!/bin/sh\nexit 3\n', { mode: 0o755 });
    const oldPath = process.env.PATH;
    process.env.PATH = bin;
    try {
      const list = await listSerialPorts({ devDir: join(root, 'empty'), udevTimeoutMs: 2000 });
      // An udevadm that prints nothing yields an empty udev listing or a failure; both are survivable.
      expect(['udev', 'scan']).toContain(list.method);
    } finally {
      process.env.PATH = oldPath;
    }
  });
});
