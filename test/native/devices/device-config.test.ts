import { describe, expect, it } from 'vitest';
import {
  serialConnection,
  simulatedLaneConfig,
  validateLaneDeviceConfig,
} from '../../../native/devices/device-config';

describe('lane device configuration', () => {
  it('accepts a full configuration and fills missing roles with none', () => {
    const v = validateLaneDeviceConfig({
      pinPad: serialConnection('pinPad', '/dev/ttyUSB0', { dataBits: 7, parity: 'even' }),
      cardReader: { kind: 'hid', vendorId: 0x0801, productId: 0x0002, extra: 'dropped' },
    });
    expect(v).toEqual({
      ok: true,
      value: {
        cardReader: { kind: 'hid', vendorId: 0x0801, productId: 0x0002 },
        pinPad: {
          kind: 'serial',
          path: '/dev/ttyUSB0',
          baudRate: 19200,
          dataBits: 7,
          parity: 'even',
          stopBits: 1,
        },
        contactless: { kind: 'none' },
        signaturePad: { kind: 'none' },
        receiptPrinter: { kind: 'none' },
        scanner: { kind: 'none' },
        poleDisplay: { kind: 'none' },
      },
    });
    expect(validateLaneDeviceConfig(simulatedLaneConfig()).ok).toBe(true);
  });

  it('uses each role’s documented line defaults (8N1 pad, 8O1 Topaz)', () => {
    expect(serialConnection('pinPad', '/dev/x')).toMatchObject({
      baudRate: 19200,
      dataBits: 8,
      parity: 'none',
    });
    expect(serialConnection('signaturePad', '/dev/x')).toMatchObject({ baudRate: 19200, parity: 'odd' });
  });

  it('names every wrong field a tech typed', () => {
    const v = validateLaneDeviceConfig({
      pinPad: { kind: 'serial', path: '', baudRate: 12, dataBits: 9, parity: 'mark', stopBits: 1 },
      cardReader: { kind: 'usb' },
      contactless: { kind: 'hid', vendorId: 0x0acd, productId: 1 },
      receiptPrinter: serialConnection('receiptPrinter', '/dev/ttyS0', { dataBits: 7 }),
    });
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^cardReader: kind must be one of/),
        expect.stringMatching(/^pinPad\.path:/),
        expect.stringMatching(/^pinPad\.baudRate:/),
        expect.stringMatching(/^pinPad\.dataBits:/),
        expect.stringMatching(/^pinPad\.parity:/),
        'contactless: a hid connection is not supported for this role',
        "receiptPrinter: this device's protocol is binary and needs 8 data bits",
      ]) as string[],
    );
  });

  it('refuses two roles on one port or one HID device', () => {
    const v = validateLaneDeviceConfig({
      pinPad: serialConnection('pinPad', '/dev/ttyUSB0'),
      receiptPrinter: serialConnection('receiptPrinter', '/dev/ttyUSB0'),
    });
    expect(v).toEqual({ ok: false, errors: ['receiptPrinter: /dev/ttyUSB0 is already used by pinPad'] });
    expect(validateLaneDeviceConfig('nope')).toEqual({
      ok: false,
      errors: ['device configuration must be an object'],
    });
  });
});
