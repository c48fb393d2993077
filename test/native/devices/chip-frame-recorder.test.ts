import { describe, expect, it } from 'vitest';
import { memorySink, parseRecording, recordStream } from '../../../native/devices/frame-recorder';
import { ChipReaderDriver } from '../../../native/drivers/chip-reader';
import { decodeTlv, findTlv } from '../../../native/protocols/ber-tlv';
import { bytesToHex } from '../../../native/protocols/hex';
import { Vivo2Decoder } from '../../../native/protocols/vivotech2';
import { ChipSimulator } from '../../../native/simulators/chip-simulator';
import { DEFAULT_CHIP_TEST_CARD } from '../../../native/simulators/test-cards';
import { createMemoryPair } from '../../../native/transports/byte-stream';

describe('support recordings of a contact chip session', () => {
  it('mask the card tags behind the 60-1x RC/Attribution prefix, keep valid CRCs, and hold no PAN', async () => {
    const card = DEFAULT_CHIP_TEST_CARD;
    const [host, device] = createMemoryPair();
    const sink = memorySink();
    const sim = new ChipSimulator(device, { card, autoInsert: true });
    const driver = new ChipReaderDriver(recordStream(host, sink));
    const r = await driver.start({ amountCents: 4200, timeoutMs: 5000 });
    expect(r).toMatchObject({ kind: 'online', card: { maskedPan: '401288******1881' } });
    expect(await driver.complete('unable-to-go-online')).toMatchObject({ decision: 'AAC' });
    await driver.close();
    sim.stop();
    const text = sink.lines.join('\n');
    expect(text).not.toContain(card.pan);
    expect(text.toUpperCase()).not.toContain(bytesToHex(new TextEncoder().encode(card.pan)));
    const rec = parseRecording(text);
    const inbound = Uint8Array.from(
      Buffer.from(
        rec.frames
          .filter((f) => f.dir === 'in')
          .map((f) => f.hex)
          .join(''),
        'hex',
      ),
    );
    const frames = new Vivo2Decoder({ direction: 'response' }).feed(inbound);
    expect(frames.length).toBeGreaterThanOrEqual(3);
    expect(frames.every((f) => f.crcOk)).toBe(true);
    // The authenticate answer: RC 0004 and Attribution kept, the PAN masked first six / last four.
    const auth = frames[1];
    if (!auth) throw new Error('no authenticate answer recorded');
    expect(bytesToHex(auth.data.subarray(0, 3))).toBe('000400');
    const tlv = decodeTlv(auth.data.subarray(3));
    expect(bytesToHex(findTlv(tlv, '5A')?.value ?? new Uint8Array(0))).toBe('4012880000001881');
    // The cryptogram and the issuer application data keep their lengths (a replay still parses) and lose
    // their values: the recording is support data, and a cryptogram is never kept (emv-sanitize.ts).
    expect(findTlv(tlv, '9F26')?.value).toEqual(new Uint8Array(8));
    const iad = findTlv(tlv, '9F10')?.value;
    expect(iad?.length).toBeGreaterThan(0);
    expect(iad?.every((b) => b === 0)).toBe(true);
    if (r.kind !== 'online') throw new Error('the sale did not go online');
    const real = decodeTlv(Buffer.from(r.emvTlvHex, 'hex'));
    const cryptogram = bytesToHex(findTlv(real, '9F26')?.value ?? new Uint8Array(0));
    const realIad = bytesToHex(findTlv(real, '9F10')?.value ?? new Uint8Array(0));
    expect(cryptogram).toMatch(/^[0-9A-F]{16}$/);
    expect(text.toUpperCase()).not.toContain(cryptogram);
    expect(text.toUpperCase()).not.toContain(realIad);
  });
});
