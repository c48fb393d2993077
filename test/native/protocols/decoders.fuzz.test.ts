import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EscPosDecoder, type EscPosEvent, parseDleEotStatus } from '../../../native/protocols/escpos';
import { decodeVectorSignature } from '../../../native/protocols/signature-render';
import { StrokeAssembler, TopazDecoder, type TopazPacket } from '../../../native/protocols/topaz-signature';
import { VerifoneLink } from '../../../native/protocols/verifone-link';
import {
  PacketDecoder,
  type PacketDecoderEvent,
  encodeTransactionPacket,
  parseMessage,
} from '../../../native/protocols/verifone-packet';
import {
  Vivo2Decoder,
  type Vivo2Frame,
  encodeVivo2Command,
  parseActivateTransactionData,
  parseActivateTransactionResponse,
} from '../../../native/protocols/vivotech2';

/** Random bytes, biased towards each protocol's framing bytes so frames actually start and end. */
const noisy = (specials: number[]) =>
  fc
    .array(fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(...specials)), { maxLength: 600 })
    .map((a) => Uint8Array.from(a));

/** The same bytes cut at random points. */
function splits(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.subarray(prev, p));
    prev = p;
  }
  return out;
}

const RUNS = { numRuns: 300, interruptAfterTimeLimit: 4000 };
const cuts = fc.array(fc.nat(), { maxLength: 8 });

describe('fuzz: random bytes never throw, never hang, and chunking does not change the result', () => {
  it('VeriFone PacketDecoder (+ parseMessage on every packet, 8-bit and 7-bit)', () => {
    fc.assert(
      fc.property(
        noisy([0x02, 0x03, 0x0f, 0x0e, 0x06, 0x15, 0x04, 0x1c, 0x5a, 0x37]),
        cuts,
        fc.boolean(),
        (bytes, c, sevenBit) => {
          const whole: PacketDecoderEvent[] = new PacketDecoder({ sevenBit, maxBodyLength: 64 }).feed(bytes);
          const d = new PacketDecoder({ sevenBit, maxBodyLength: 64 });
          const pieces = splits(bytes, c).flatMap((p) => d.feed(p));
          expect(pieces).toEqual(whole);
          for (const e of whole) if (e.type === 'packet') parseMessage(e.kind, e.body);
        },
      ),
      RUNS,
    );
  });

  it('VerifoneLink receiving garbage answers only with ACK/NAK/EOT bytes', () => {
    fc.assert(
      fc.property(noisy([0x02, 0x03, 0x06, 0x15, 0x04]), (bytes) => {
        const written: number[] = [];
        const link = new VerifoneLink({
          write: (b) => written.push(...b),
          onPacket: () => undefined,
          timers: { setTimeout: () => 0, clearTimeout: () => undefined },
        });
        void link.send(encodeTransactionPacket('72'));
        link.receive(bytes);
        link.close();
        const frame = [...encodeTransactionPacket('72')];
        const rest = written.slice(0);
        // Strip our own (re)transmissions; what remains are single control bytes.
        for (;;) {
          const i = rest.findIndex((_, k) => frame.every((f, j) => rest[k + j] === f));
          if (i < 0) break;
          rest.splice(i, frame.length);
        }
        for (const b of rest) expect([0x04, 0x06, 0x15]).toContain(b);
      }),
      RUNS,
    );
  });

  it('ViVOtech2 decoder, both directions (+ the activate parsers on every frame)', () => {
    const header = [...'ViVOtech2\0'].map((ch) => ch.charCodeAt(0));
    const withFrames = fc
      .tuple(
        noisy([0x56, 0x69, 0x00]),
        fc.array(fc.tuple(fc.nat(255), fc.nat(255), fc.uint8Array({ maxLength: 40 })), { maxLength: 3 }),
      )
      .map(([noise, frames]) => {
        const parts = frames.map(([cmd, sub, data]) => encodeVivo2Command(cmd, sub, data));
        return Uint8Array.from([
          ...noise,
          ...header,
          ...parts.flatMap((p) => [...p]),
          ...noise.subarray(0, 20),
        ]);
      });
    fc.assert(
      fc.property(
        withFrames,
        cuts,
        fc.constantFrom('command' as const, 'response' as const),
        (bytes, c, direction) => {
          const whole: Vivo2Frame[] = new Vivo2Decoder({ direction, maxDataLength: 256 }).feed(bytes);
          const d = new Vivo2Decoder({ direction, maxDataLength: 256 });
          expect(splits(bytes, c).flatMap((p) => d.feed(p))).toEqual(whole);
          for (const f of whole) {
            parseActivateTransactionData(f.data);
            parseActivateTransactionResponse(f);
          }
        },
      ),
      RUNS,
    );
  });

  it('Topaz decoder and stroke assembler', () => {
    fc.assert(
      fc.property(noisy([0xc1, 0xc0, 0x80, 0x7f]), cuts, (bytes, c) => {
        const whole: TopazPacket[] = new TopazDecoder().feed(bytes);
        const d = new TopazDecoder();
        expect(splits(bytes, c).flatMap((p) => d.feed(p))).toEqual(whole);
        const a = new StrokeAssembler();
        for (const p of whole) a.add(p);
        a.endStroke();
        for (const s of a.strokes)
          for (const p of s) {
            expect(p.x).toBeGreaterThanOrEqual(0);
            expect(p.x).toBeLessThanOrEqual(2150);
            expect(p.y).toBeLessThanOrEqual(1400);
          }
      }),
      RUNS,
    );
  });

  it('ESC/POS decoder', () => {
    fc.assert(
      fc.property(
        noisy([0x1b, 0x1d, 0x1c, 0x10, 0x04, 0x0a, 0x56, 0x40, 0x70, 0x28, 0x76, 0x6b]),
        cuts,
        (bytes, c) => {
          const whole: EscPosEvent[] = new EscPosDecoder().feed(bytes);
          const d = new EscPosDecoder();
          expect(splits(bytes, c).flatMap((p) => d.feed(p))).toEqual(whole);
        },
      ),
      RUNS,
    );
  });

  it('text parsers: parseMessage, decodeVectorSignature, parseDleEotStatus', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.nat(255), fc.constantFrom(1, 2, 3, 4), (s, b, n) => {
        parseMessage('transaction', s);
        parseMessage('management', s);
        for (const stroke of decodeVectorSignature(s))
          for (const p of stroke) expect(p.x).toBeLessThan(28 * 28);
        expect(parseDleEotStatus(n, b).n).toBe(n);
      }),
      RUNS,
    );
  });
});
