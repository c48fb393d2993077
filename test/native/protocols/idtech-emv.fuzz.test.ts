import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChipReaderDriver } from '../../../native/drivers/chip-reader';
import { decodeCvmList } from '../../../native/protocols/emv-cvm';
import { readIssuerResponse } from '../../../native/protocols/emv-issuer-response';
import { decodeScriptResults, parseIssuerScript } from '../../../native/protocols/emv-issuer-script';
import {
  buildContactStart,
  decodeOutputTags,
  parseActivateResponse,
  parseActivateTransaction240Data,
  parseContactApplyHostResponseData,
  parseContactAuthenticateData,
  parseContactResponse,
  parseContactStartData,
} from '../../../native/protocols/idtech-emv';
import { Vivo2Decoder, encodeVivo2Response } from '../../../native/protocols/vivotech2';
import type { ByteStream } from '../../../native/transports/byte-stream';
import { createManualTimers } from '../support/manual-timers';

// Bytes biased towards TLV and framing structure, so the fuzz gets past the first length check.
const interesting = fc.oneof(
  fc.integer({ min: 0, max: 255 }),
  fc.constantFrom(
    0x00,
    0x01,
    0x04,
    0x10,
    0x1f,
    0x5f,
    0x60,
    0x71,
    0x72,
    0x81,
    0x82,
    0x8a,
    0x91,
    0x9f,
    0xdf,
    0xee,
    0xef,
    0xff,
  ),
  fc.constantFrom(...'ViVOtech2\0'.split('').map((c) => c.charCodeAt(0))),
);
const bytes = fc.array(interesting, { maxLength: 200 }).map((a) => Uint8Array.from(a));
const runs = { numRuns: 400, interruptAfterTimeLimit: 4000 };

describe('fuzz: the NGA contact EMV codec never throws on hostile bytes', () => {
  it('request parsers (the reader side) return a value or undefined', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        parseContactStartData(b);
        parseActivateTransaction240Data(b);
        parseContactApplyHostResponseData(b);
        parseContactAuthenticateData(b);
        decodeOutputTags(b);
        decodeCvmList(b);
        decodeScriptResults(b);
        parseIssuerScript({ tag: '72', value: b });
        readIssuerResponse(Buffer.from(b).toString('hex'));
      }),
      runs,
    );
  });

  it('response parsers read any frame (status, data) into ok or a reason', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), bytes, (status, data) => {
        const [frame] = new Vivo2Decoder({ direction: 'response' }).feed(
          encodeVivo2Response(0x60, status, data),
        );
        if (!frame) throw new Error('frame not decoded');
        const a = parseContactResponse(frame);
        const b = parseActivateResponse(frame);
        expect(typeof a.ok).toBe('boolean');
        expect(typeof b.ok).toBe('boolean');
      }),
      runs,
    );
  });

  it('60-10 round-trips any valid request', () => {
    fc.assert(
      fc.property(
        fc.record({
          allowFallback: fc.boolean(),
          cardSeatedTimeoutSeconds: fc.integer({ min: 0, max: 0xffff }),
          authenticateTimeoutSeconds: fc.integer({ min: 0, max: 0xffff }),
          amountCents: fc.integer({ min: 0, max: 999_999_999_999 }),
          otherAmountCents: fc.integer({ min: 0, max: 999_999_999_999 }),
          transactionType: fc.constantFrom(0x00, 0x01, 0x09, 0x20),
          currencyCode: fc.integer({ min: 0, max: 999 }),
          forceOnline: fc.boolean(),
        }),
        (req) => {
          const [frame] = new Vivo2Decoder({ direction: 'command' }).feed(buildContactStart(req));
          expect(parseContactStartData(frame?.data ?? new Uint8Array(0))).toMatchObject(req);
        },
      ),
      runs,
    );
  });
});

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

describe('fuzz: the chip reader driver survives random bytes mid-transaction', () => {
  it('a start settles exactly once whatever the reader sends', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(bytes, { maxLength: 20 }), async (chunks) => {
        const clock = createManualTimers();
        const s = scriptedStream();
        const d = new ChipReaderDriver(s, {
          timers: clock.timers,
          commandTimeoutMs: 100,
          graceMs: 100,
          cardStepTimeoutMs: 100,
        });
        let settled = 0;
        const pending = d.start({ amountCents: 100, timeoutMs: 1000 }).then((r) => {
          settled += 1;
          return r;
        });
        for (const c of chunks) s.feed(c);
        for (let i = 0; i < 10; i += 1) {
          clock.advance(5000);
          await new Promise((resolve) => setImmediate(resolve));
        }
        await d.cancel();
        const r = await pending;
        expect(settled).toBe(1);
        expect(['online', 'offline', 'fallback', 'cancelled', 'timeout', 'card-removed', 'failed']).toContain(
          r.kind,
        );
      }),
      { numRuns: 150, interruptAfterTimeLimit: 5000 },
    );
  });
});
