import { describe, expect, it } from 'vitest';
import {
  createRecordedHidPort,
  hidAvailability,
  listHidDevices,
  normalizeFeatureReport,
  openHidDevice,
} from '../../../native/transports/hid-transport';

// No HID device can be created on the build machines: the transport is exercised through its replay double.
describe('HID transport', () => {
  it('reports availability instead of throwing, with or without libusb', async () => {
    const a = await hidAvailability();
    // Either state is honest here (libusb may or may not be installed); an unavailable one says why.
    expect(a.available ? 'available' : a.reason).toMatch(/^available$|HID unavailable/);
    const listing = await listHidDevices([{ vendorId: 0x0801 }]);
    expect(listing.devices).toEqual([]);
    await expect(openHidDevice({ vendorId: 0x0801, productId: 0x0002 })).rejects.toThrow(
      /HID unavailable|no HID device/,
    );
  });

  it('normalises the report-ID-0 quirk of feature reports (docs/devices.md §2.3)', () => {
    const body = Uint8Array.from({ length: 24 }, (_, i) => i + 1);
    const withId = Uint8Array.of(0, ...body);
    expect(normalizeFeatureReport(0, 24, withId)).toEqual(body);
    expect(normalizeFeatureReport(0, 24, body)).toEqual(body);
    // A short answer is ambiguous: it is taken as the body's start and zero-filled to the report size.
    expect(normalizeFeatureReport(0, 24, Uint8Array.of(0, 1))).toEqual(
      Uint8Array.of(0, 1, ...new Array<number>(22).fill(0)),
    );
  });

  it.each([false, true])(
    'sends 25-byte feature reports and reads 24-byte bodies (stripsReportId=%s)',
    async (strips) => {
      const { port, device } = createRecordedHidPort({
        stripsReportId: strips,
        // MagTek manual example (§2.3): get property 0x03 → `00 01 08`.
        answerFeature: (req) =>
          req[0] === 0x00 && req[2] === 0x03 ? Uint8Array.of(0x00, 0x01, 0x08) : undefined,
      });
      const cmd = new Uint8Array(24);
      cmd.set([0x00, 0x01, 0x03]);
      await port.sendFeatureReport(0, cmd);
      expect(device.sentFeatureReports[0]).toHaveLength(25);
      expect(device.sentFeatureReports[0]?.[0]).toBe(0);
      const answer = await port.getFeatureReport(0, 24);
      expect(answer).toHaveLength(24);
      expect([...answer.subarray(0, 3)]).toEqual([0x00, 0x01, 0x08]);
    },
  );

  it('delivers recorded input reports and ends on unplug', async () => {
    const { port, device } = createRecordedHidPort();
    const got: number[] = [];
    port.onReport((r) => got.push(r.length));
    const closed = new Promise<Error | undefined>((resolve) => port.onClose(resolve));
    device.emitReport(new Uint8Array(337));
    device.emitReport(new Uint8Array(338));
    device.unplug();
    const reason = await closed;
    expect(got).toEqual([337, 338]);
    expect(reason?.message).toMatch(/disconnected/);
    expect(port.isOpen).toBe(false);
    await expect(port.getFeatureReport(0, 24)).rejects.toThrow(/closed/);
  });
});
