import { describe, expect, it } from 'vitest';
import { discoverDevices, guessRole } from '../../../native/devices/discovery';

describe('discovery', () => {
  it('guesses roles from USB ids, with confidence', () => {
    expect(guessRole(0x0801, 0x0002)).toMatchObject({ role: 'cardReader', confidence: 'high' });
    expect(guessRole(0x0801, 0x0011)).toMatchObject({ role: 'cardReader', confidence: 'low' });
    expect(guessRole(0x0acd, 0x3410)).toMatchObject({ role: 'contactless' });
    expect(guessRole(0x0403, 0x6001)).toMatchObject({ role: 'signaturePad', confidence: 'low' });
    expect(guessRole(0x1234, 0x0001)).toBeUndefined();
    expect(guessRole(undefined, undefined)).toBeUndefined();
  });

  it('merges serial and HID findings into suggestions a tech can apply', async () => {
    const result = await discoverDevices({
      listSerial: () =>
        Promise.resolve({
          method: 'udev',
          ports: [
            {
              path: '/dev/ttyUSB0',
              source: 'udev',
              vendorId: '0403',
              productId: '6001',
              manufacturer: 'FTDI',
            },
            { path: '/dev/ttyS0', source: 'udev' },
          ],
        }),
      listHid: () =>
        Promise.resolve({
          available: true,
          devices: [
            { vendorId: 0x0801, productId: 0x0002, path: '/dev/hidraw0', product: 'USB Swipe Reader' },
            { vendorId: 0x0801, productId: 0x0001, path: '/dev/hidraw1' },
          ],
        }),
    });
    expect(result.serial).toEqual({ method: 'udev' });
    expect(result.hid).toEqual({ available: true });
    expect(result.devices).toEqual([
      {
        transport: 'serial',
        path: '/dev/ttyUSB0',
        vendorId: 0x0403,
        productId: 0x6001,
        manufacturer: 'FTDI',
        guess: { role: 'signaturePad', model: 'FTDI serial bridge (Topaz pad?)', confidence: 'low' },
        suggestion: {
          kind: 'serial',
          path: '/dev/ttyUSB0',
          baudRate: 19200,
          dataBits: 8,
          parity: 'odd',
          stopBits: 1,
        },
      },
      { transport: 'serial', path: '/dev/ttyS0' },
      {
        transport: 'hid',
        path: '/dev/hidraw0',
        vendorId: 0x0801,
        productId: 0x0002,
        product: 'USB Swipe Reader',
        guess: { role: 'cardReader', model: 'MagTek USB HID swipe reader', confidence: 'high' },
        suggestion: { kind: 'hid', vendorId: 0x0801, productId: 0x0002 },
      },
      {
        transport: 'hid',
        path: '/dev/hidraw1',
        vendorId: 0x0801,
        productId: 0x0001,
        guess: { role: 'cardReader', model: 'MagTek USB keyboard-wedge reader', confidence: 'high' },
        suggestion: { kind: 'wedge' },
      },
    ]);
  });

  it('never throws: failing listings become notes', async () => {
    const result = await discoverDevices({
      listSerial: () => Promise.reject(new Error('spawn udevadm ENOENT')),
      listHid: () => Promise.reject(new Error('libusb missing')),
    });
    expect(result).toEqual({
      devices: [],
      serial: { method: 'scan', note: 'serial listing failed: spawn udevadm ENOENT' },
      hid: { available: false, reason: 'HID listing failed: libusb missing' },
    });
  });
});
