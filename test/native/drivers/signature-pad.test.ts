import { afterEach, describe, expect, it } from 'vitest';
import type { SignaturePoint } from '../../../native/drivers/roles';
import { SignaturePadDriver } from '../../../native/drivers/signature-pad';
import {
  SCRIPTED_SIGNATURE,
  SignaturePadSimulator,
} from '../../../native/simulators/signature-pad-simulator';
import { openPtyStreams, sleep, until, type PtyStreams } from '../support/pty-streams';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64').slice(0, 4);

describe('SignaturePadDriver against the Topaz simulator over a socat pty (8O1)', () => {
  let pty: PtyStreams | undefined;
  afterEach(async () => {
    await pty?.close();
    pty = undefined;
  });

  async function setup(): Promise<{
    sim: SignaturePadSimulator;
    driver: SignaturePadDriver;
    strokes: SignaturePoint[][];
  }> {
    pty = await openPtyStreams({ parity: 'odd' });
    const sim = new SignaturePadSimulator(pty.device);
    const driver = new SignaturePadDriver(pty.host);
    const strokes: SignaturePoint[][] = [];
    driver.onStroke((s) => strokes.push(s));
    return { sim, driver, strokes };
  }

  it('collects the scripted signature as strokes and renders SVG and PNG', async () => {
    const { sim, driver, strokes } = await setup();
    driver.startCapture();
    await sim.sign();
    await until(() => strokes.length === SCRIPTED_SIGNATURE.length, 3000, 'all strokes');
    const sig = await driver.finishCapture();
    expect(sig?.strokes.map((s) => s.length)).toEqual(SCRIPTED_SIGNATURE.map((s) => s.length));
    // Logical coordinates survive the tablet round trip within a unit (docs/devices.md §5.1 scaling).
    expect(Math.abs((sig?.strokes[0]?.[0]?.x ?? 0) - 300)).toBeLessThanOrEqual(1);
    expect(sig?.svg).toMatch(/^<svg /);
    expect(sig?.pngBase64.startsWith(PNG_MAGIC)).toBe(true);
  });

  it('ignores pen packets outside a capture, and returns nothing for an empty one', async () => {
    const { sim, driver, strokes } = await setup();
    await sim.sign();
    await sleep(100);
    expect(strokes).toHaveLength(0);
    driver.startCapture();
    expect(await driver.finishCapture()).toBeUndefined();
    expect((driver.health().detail?.packets ?? 0) as number).toBeGreaterThan(0);
  });

  it('resynchronises after lost bytes and split writes, without inventing or duplicating strokes', async () => {
    const { sim, driver } = await setup();
    sim.setFaults({ dropByteEvery: 4, chunkSize: 3, chunkGapMs: 2 });
    driver.startCapture();
    await sim.sign();
    const drawnPackets = SCRIPTED_SIGNATURE.reduce((n, s) => n + s.length + 1, 0);
    const lost = Math.floor(drawnPackets / 4);
    await until(() => driver.health().detail?.packets === drawnPackets - lost, 5000, 'packets');
    const sig = await driver.finishCapture();
    // A lost pen-up packet joins two strokes; nothing splits or repeats one.
    expect(sig?.strokes.length).toBeGreaterThanOrEqual(1);
    expect(sig?.strokes.length).toBeLessThanOrEqual(SCRIPTED_SIGNATURE.length);
    // A damaged packet is dropped, not guessed: never more points than were drawn.
    const drawn = SCRIPTED_SIGNATURE.reduce((n, s) => n + s.length, 0);
    const got = sig?.strokes.reduce((n, s) => n + s.length, 0) ?? 0;
    expect(got).toBeLessThan(drawn);
    expect(got).toBeGreaterThan(drawn / 2);
    expect((driver.health().detail?.droppedBytes ?? 0) as number).toBeGreaterThan(0);
  });

  it('unplug mid-signature: no partial signature, disconnect signalled', async () => {
    const { sim, driver } = await setup();
    const disconnected = new Promise<Error | undefined>((resolve) => driver.onDisconnect(resolve));
    sim.setFaults({ unplugMidSignature: true });
    driver.startCapture();
    await sim.sign();
    await pty!.pair.close();
    await disconnected;
    expect(await driver.finishCapture()).toBeUndefined();
    expect(driver.health().state).toBe('missing');
  });
});
