import { afterEach, describe, expect, it } from 'vitest';
import { parseSwipe } from '../../../native/protocols/iso7813-track';
import {
  SwipeReaderSimulator,
  type SwipeReaderSimulatorOptions,
  swipeOutput,
} from '../../../native/simulators/swipe-reader-simulator';
import { TEST_CARDS, futureExpiryYYMM, track1For, track2For } from '../../../native/simulators/test-cards';
import { type Link, type Transport, openLink, waitFor } from './harness';

/** Test-side host: collects CR-terminated swipes, as a serial card-reader driver frames them. */
function host(link: Link) {
  const swipes: string[] = [];
  const chunks: number[] = [];
  let pending = '';
  link.host.onData((c) => {
    chunks.push(c.length);
    for (const b of c) {
      if (b === 0x0d) {
        swipes.push(pending);
        pending = '';
      } else pending += String.fromCharCode(b);
    }
  });
  return { swipes, chunks, pending: () => pending };
}

describe('test cards and track strings (docs/devices.md §1)', () => {
  it('the reference swipe, byte for byte, for 4111... with expiry 2812', () => {
    const card = { ...TEST_CARDS[0]!, expiryYYMM: '2812' };
    expect(swipeOutput(card)).toBe(
      '%B4111111111111111^DOE/JOHN^2812101000000000000000000?;4111111111111111=28121010000000000000?\r',
    );
    expect(track1For(card)).toHaveLength(54);
    expect(track2For(card)).toHaveLength(39);
  });
  it('every test card makes tracks that parse back to it, with a future expiry', () => {
    for (const card of TEST_CARDS) {
      const r = parseSwipe(swipeOutput(card));
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      expect(r.value.pan).toBe(card.pan);
      expect(r.value.name).toBe(card.name);
      expect(r.value.expiryYYMM).toBe(card.expiryYYMM);
      expect(r.value.serviceCode).toBe('101');
    }
    expect(futureExpiryYYMM(new Date('2026-03-01T00:00:00Z'))).toBe('3012');
  });
  it('bad tracks carry E, blank tracks nothing', () => {
    const card = TEST_CARDS[0]!;
    expect(swipeOutput(card, { track1: 'error', track2: 'error' })).toBe('%E?;E?\r');
    expect(swipeOutput(card, { track1: 'blank' })).toBe(`${track2For(card)}\r`);
  });
});

describe.each<Transport>(['memory', 'pty'])('swipe reader simulator over %s', (transport) => {
  let link: Link | undefined;
  afterEach(async () => {
    await link?.close();
    link = undefined;
  });
  async function setup(opts: SwipeReaderSimulatorOptions = {}) {
    link = await openLink(transport, { baudRate: 9600 });
    return { sim: new SwipeReaderSimulator(link.device, opts), h: host(link), link };
  }

  it('a swipe arrives as one CR-terminated line that parses to the card', async () => {
    const { sim, h } = await setup({ card: TEST_CARDS[2] });
    await sim.swipe();
    await waitFor(() => h.swipes.length === 1);
    const r = parseSwipe(h.swipes[0] ?? '');
    expect(r.ok && r.value.pan).toBe(TEST_CARDS[2]?.pan);
  });
  it('a bad swipe parses as an E error', async () => {
    const { sim, h } = await setup();
    await sim.badSwipe();
    await waitFor(() => h.swipes.length === 1);
    expect(parseSwipe(h.swipes[0] ?? '')).toEqual({ ok: false, error: 'E' });
  });
  it('a swipe cut into 7-byte pieces with gaps reassembles', async () => {
    const { sim, h } = await setup({ faults: { chunkSize: 7, chunkGapMs: 3 } });
    await sim.swipe();
    await waitFor(() => h.swipes.length === 1);
    // A pty may merge pieces when the machine is busy; what matters is that it arrived split and was
    // put back together.
    expect(h.chunks.length).toBeGreaterThan(1);
    expect(parseSwipe(h.swipes[0] ?? '').ok).toBe(true);
  });
  it('a slow swipe comes late', async () => {
    const { sim, h } = await setup({ faults: { slowMs: 150 } });
    const started = Date.now();
    await sim.swipe();
    await waitFor(() => h.swipes.length === 1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });
  it('unplugged mid-swipe: half a swipe, no CR, then the stream closes', async () => {
    const { sim, h, link: l } = await setup({ faults: { unplugMidSwipe: true } });
    let closed = false;
    l.host.onClose(() => (closed = true));
    await sim.swipe();
    await waitFor(() => h.pending().length > 0);
    if (transport === 'pty') await l.pty?.close();
    await waitFor(() => closed, 3000, 'host end closed');
    expect(h.swipes).toEqual([]);
    expect(h.pending().startsWith('%B')).toBe(true);
  });
});
