import { afterEach, describe, expect, it } from 'vitest';
import { buildReceipt, parseDleEotStatus, statusRequest } from '../../../native/protocols/escpos';
import { PrinterSimulator, type PrinterSimulatorOptions } from '../../../native/simulators/printer-simulator';
import { type Link, type Transport, openLink, waitFor } from './harness';

function host(link: Link) {
  const replies: number[] = [];
  link.host.onData((c) => replies.push(...c));
  return {
    replies,
    async status(n: 1 | 2 | 3 | 4): Promise<number> {
      const before = replies.length;
      await link.host.write(statusRequest(n));
      await waitFor(() => replies.length > before, 3000, `DLE EOT ${n}`);
      return replies[before] ?? -1;
    },
  };
}

describe.each<Transport>(['memory', 'pty'])('printer simulator over %s', (transport) => {
  let link: Link | undefined;
  afterEach(async () => {
    await link?.close();
    link = undefined;
  });
  async function setup(opts: PrinterSimulatorOptions = {}) {
    link = await openLink(transport, { baudRate: 38400 });
    return { sim: new PrinterSimulator(link.device, opts), h: host(link), link };
  }

  it('prints a receipt: lines, cut and drawer kick', async () => {
    const { sim, link: l } = await setup();
    await l.host.write(
      buildReceipt(
        [{ text: 'TILLPOINT', align: 'center', bold: true }, 'Coffee   3.50', '---', 'TOTAL    3.50'],
        {
          columns: 32,
          openDrawer: true,
        },
      ),
    );
    await waitFor(() => sim.cuts === 1);
    expect(sim.drawerKicks).toBe(1);
    expect(sim.inits).toBe(1);
    const text = sim.receipts[0]?.lines.map((x) => x.text.trim()).filter((t) => t !== '');
    expect(text).toEqual(['TILLPOINT', 'Coffee   3.50', '─'.repeat(32), 'TOTAL    3.50']);
    expect(sim.receipts[0]?.partialCut).toBe(true);
  });

  it('answers DLE EOT at once, also mid-receipt, with the configured condition', async () => {
    const { sim, h, link: l } = await setup();
    expect(parseDleEotStatus(1, await h.status(1))).toMatchObject({ valid: true, offline: false });
    await l.host.write(Uint8Array.from([0x1b, 0x40, 0x41, 0x42]));
    sim.setCondition({ paperEnd: true, coverOpen: true });
    expect(parseDleEotStatus(2, await h.status(2))).toMatchObject({
      coverOpen: true,
      stoppedAtPaperEnd: true,
    });
    expect(parseDleEotStatus(4, await h.status(4))).toMatchObject({ paperEnd: true });
    expect(parseDleEotStatus(1, await h.status(1)).offline).toBe(true);
    sim.setCondition({});
    await l.host.write(Uint8Array.of(0x0a));
    await waitFor(() => sim.lines.length === 1);
    expect(sim.lines[0]?.text).toBe('AB');
  });

  it('slow status answers and an unplug after N bytes', async () => {
    const { sim, h, link: l } = await setup({ faults: { slowMs: 120 } });
    const t0 = Date.now();
    await h.status(1);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
    sim.setFaults({ unplugAfterBytes: 10 });
    let closed = false;
    l.host.onClose(() => (closed = true));
    await l.host.write(buildReceipt(['one', 'two', 'three']));
    await waitFor(() => !l.device.isOpen, 3000, 'device closed');
    if (transport === 'pty') await l.pty?.close();
    await waitFor(() => closed, 3000, 'host closed');
    expect(sim.cuts).toBe(0);
  });
});
