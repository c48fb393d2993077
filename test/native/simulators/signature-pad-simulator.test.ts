import { afterEach, describe, expect, it } from 'vitest';
import { StrokeAssembler, TopazDecoder } from '../../../native/protocols/topaz-signature';
import { encodeVectorSignature } from '../../../native/protocols/signature-render';
import {
  SCRIPTED_SIGNATURE,
  SignaturePadSimulator,
  type SignaturePadSimulatorOptions,
} from '../../../native/simulators/signature-pad-simulator';
import { type Link, type Transport, openLink, waitFor } from './harness';

const totalPoints = SCRIPTED_SIGNATURE.reduce((n, s) => n + s.length, 0);

function host(link: Link) {
  const decoder = new TopazDecoder();
  const strokes = new StrokeAssembler();
  let packets = 0;
  link.host.onData((c) =>
    decoder.push(c, (p) => {
      packets += 1;
      strokes.add(p, Date.now());
    }),
  );
  return { decoder, strokes, packets: () => packets };
}

describe.each<Transport>(['memory', 'pty'])('signature pad simulator over %s', (transport) => {
  let link: Link | undefined;
  afterEach(async () => {
    await link?.close();
    link = undefined;
  });
  async function setup(opts: SignaturePadSimulatorOptions = {}) {
    // SigLite 1x5: 19200 baud, 8 data bits, odd parity (docs/devices.md §5.1).
    link = await openLink(transport, { baudRate: 19200, parity: 'odd' });
    return { sim: new SignaturePadSimulator(link.device, opts), h: host(link), link };
  }

  it('the scripted signature arrives as its strokes', async () => {
    const { sim, h } = await setup();
    await sim.sign();
    await waitFor(() => h.strokes.strokes.length === SCRIPTED_SIGNATURE.length);
    expect(h.strokes.strokes.map((s) => s.map(({ x, y }) => ({ x, y })))).toEqual(SCRIPTED_SIGNATURE);
    expect(encodeVectorSignature(h.strokes.strokes, { width: 2150, height: 1400 }).length).toBeGreaterThan(0);
  });

  it('live pen samples from the UI', async () => {
    const { sim, h } = await setup();
    sim.pen(100, 100, true);
    sim.pen(200, 120, true);
    sim.pen(200, 120, false);
    await waitFor(() => h.strokes.strokes.length === 1);
    expect(h.strokes.strokes[0]?.map(({ x, y }) => [x, y])).toEqual([
      [100, 100],
      [200, 120],
    ]);
  });

  it('split, slow writes still decode', async () => {
    const { sim, h } = await setup({ faults: { chunkSize: 3, chunkGapMs: 1, slowMs: 50 } });
    await sim.sign();
    await waitFor(() => h.strokes.strokes.length === SCRIPTED_SIGNATURE.length);
    expect(h.decoder.droppedBytes).toBe(0);
  });

  it('a lost byte costs one packet: the decoder resynchronises on the next status byte', async () => {
    const { sim, h } = await setup({ faults: { dropByteEvery: 4 } });
    await sim.sign();
    const sent = totalPoints + SCRIPTED_SIGNATURE.length;
    const lost = Math.floor(sent / 4);
    await waitFor(() => h.packets() === sent - lost);
    expect(h.decoder.droppedBytes).toBe(lost * 4);
  });

  it('unplugged mid-signature: half the packets, then the stream closes', async () => {
    const { sim, h, link: l } = await setup({ faults: { unplugMidSignature: true } });
    let closed = false;
    l.host.onClose(() => (closed = true));
    await sim.sign();
    if (transport === 'pty') await l.pty?.close();
    await waitFor(() => closed, 3000, 'host closed');
    expect(h.packets()).toBe(Math.floor((totalPoints + SCRIPTED_SIGNATURE.length) / 2));
  });
});
