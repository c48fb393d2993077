import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CardReaderDriver } from '../../../native/drivers/card-reader';
import { ContactlessReaderDriver } from '../../../native/drivers/contactless-reader';
import { PinPadDriver } from '../../../native/drivers/pin-pad';
import { ReceiptPrinterDriver } from '../../../native/drivers/receipt-printer';
import { SignaturePadDriver } from '../../../native/drivers/signature-pad';
import type { ByteStream } from '../../../native/transports/byte-stream';
import { createRecordedHidPort } from '../../../native/transports/hid-transport';
import { createManualTimers } from '../support/manual-timers';

/** A stream whose received bytes the test pushes synchronously, so an exception surfaces here. */
function scriptedStream(): ByteStream & { feed(chunk: Uint8Array): void } {
  const data = new Set<(c: Uint8Array) => void>();
  return {
    label: 'fuzz',
    isOpen: true,
    write: () => Promise.resolve(),
    onData(l) {
      data.add(l);
      return () => data.delete(l);
    },
    onClose: () => () => undefined,
    close: () => Promise.resolve(),
    feed(chunk) {
      for (const l of data) l(chunk);
    },
  };
}

// Bytes biased towards the protocols' framing characters, so the fuzz reaches past the first check.
const interesting = fc.oneof(
  fc.integer({ min: 0, max: 255 }),
  fc.constantFrom(
    0x02,
    0x03,
    0x04,
    0x06,
    0x0d,
    0x0e,
    0x0f,
    0x15,
    0x1c,
    0x25,
    0x3b,
    0x3d,
    0x3f,
    0x5e,
    0x80,
    0xc1,
    0x12,
  ),
  fc.constantFrom(...'ViVOtech2\0'.split('').map((c) => c.charCodeAt(0))),
);
const chunks = fc.array(
  fc.array(interesting, { maxLength: 120 }).map((a) => Uint8Array.from(a)),
  { maxLength: 30 },
);
const runs = { numRuns: 300, interruptAfterTimeLimit: 4000 };

describe('drivers survive random bytes from their device (no exception escapes, no hang)', () => {
  it('card reader (serial ASCII)', () => {
    fc.assert(
      fc.property(chunks, (cs) => {
        const clock = createManualTimers();
        const s = scriptedStream();
        const d = new CardReaderDriver({ kind: 'serial', stream: s }, { timers: clock.timers });
        let events = 0;
        d.onCard(() => (events += 1));
        for (const c of cs) s.feed(c);
        clock.advance(1000);
        expect(events).toBeLessThanOrEqual(cs.reduce((n, c) => n + c.length, 0));
        expect(d.health().state).toBe('connected');
      }),
      runs,
    );
  });

  it('card reader (HID reports of any length)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 400 }), { maxLength: 10 }), async (reports) => {
        const { port, device } = createRecordedHidPort();
        const d = new CardReaderDriver({ kind: 'hid', port });
        let events = 0;
        d.onCard(() => (events += 1));
        for (const r of reports) device.emitReport(r);
        await new Promise((resolve) => setImmediate(resolve));
        expect(events).toBe(reports.length);
      }),
      { numRuns: 100, interruptAfterTimeLimit: 4000 },
    );
  });

  it('PIN pad (with a request pending)', async () => {
    await fc.assert(
      fc.asyncProperty(chunks, async (cs) => {
        const clock = createManualTimers();
        const s = scriptedStream();
        const d = new PinPadDriver(s, { timers: clock.timers });
        let settled = 0;
        const pending = d
          .requestPin({ pan: '4111111111111111', amountCents: 1, timeoutMs: 1000 })
          .then((r) => {
            settled += 1;
            return r;
          });
        for (const c of cs) s.feed(c);
        clock.advance(10_000);
        await d.cancel();
        const r = await pending;
        expect(settled).toBe(1);
        expect(['pin', 'cancelled', 'timeout', 'failed']).toContain(r.kind);
      }),
      runs,
    );
  });

  it('contactless reader, signature pad and printer', () => {
    fc.assert(
      fc.property(chunks, (cs) => {
        const clock = createManualTimers();
        const a = scriptedStream();
        const b = scriptedStream();
        const c = scriptedStream();
        const contactless = new ContactlessReaderDriver(a, { timers: clock.timers });
        const pad = new SignaturePadDriver(b, { timers: clock.timers });
        const printer = new ReceiptPrinterDriver(c, { timers: clock.timers });
        pad.startCapture();
        for (const chunk of cs) {
          a.feed(chunk);
          b.feed(chunk);
          c.feed(chunk);
        }
        clock.advance(5000);
        for (const d of [contactless, pad, printer]) expect(d.health().state).not.toBe('missing');
      }),
      runs,
    );
  });
});
