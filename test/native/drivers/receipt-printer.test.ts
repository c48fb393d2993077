import { afterEach, describe, expect, it } from 'vitest';
import { ReceiptPrinterDriver, toEscPosLines } from '../../../native/drivers/receipt-printer';
import type { Receipt } from '../../../native/drivers/roles';
import { PrinterSimulator } from '../../../native/simulators/printer-simulator';
import { openPtyStreams, until, type PtyStreams } from '../support/pty-streams';

const receipt: Receipt = {
  lines: [
    { kind: 'text', text: 'TILLPOINT', align: 'center', bold: true },
    { kind: 'pair', left: 'Coffee', right: '3.50' },
    { kind: 'rule' },
    { kind: 'pair', left: 'TOTAL', right: '3.50', bold: true },
    { kind: 'text', text: 'VISA 411111******1111' },
    { kind: 'barcode', data: 'T-mb1x2y3z-1a2b3c4d' },
  ],
  openDrawer: true,
};

describe('toEscPosLines', () => {
  it('lays a pair out to the column width, truncating the left side first', () => {
    expect(toEscPosLines([{ kind: 'pair', left: 'Coffee', right: '3.50' }], 20)).toEqual([
      { text: 'Coffee          3.50' },
    ]);
    expect(toEscPosLines([{ kind: 'pair', left: 'A very long item name', right: '10.00' }], 20)).toEqual([
      { text: 'A very long it 10.00' },
    ]);
  });
  it('prints a barcode line as a Code 128 symbol, not as its text', () => {
    expect(toEscPosLines([{ kind: 'barcode', data: 'T-1' }], 42)).toEqual([{ code128: 'T-1' }]);
  });
});

describe('ReceiptPrinterDriver against the ESC/POS simulator over a socat pty', () => {
  let pty: PtyStreams | undefined;
  afterEach(async () => {
    await pty?.close();
    pty = undefined;
  });

  async function setup(): Promise<{ sim: PrinterSimulator; driver: ReceiptPrinterDriver }> {
    pty = await openPtyStreams({ baudRate: 9600 });
    const sim = new PrinterSimulator(pty.device);
    return { sim, driver: new ReceiptPrinterDriver(pty.host, { statusTimeoutMs: 500 }) };
  }

  it('prints a receipt, kicks the drawer and cuts', async () => {
    const { sim, driver } = await setup();
    expect(await driver.print(receipt)).toEqual({ ok: true });
    await until(() => sim.receipts.length === 1, 3000, 'the cut');
    const printed = sim.receipts[0]?.lines.map((l) => l.text.trim()) ?? [];
    expect(printed).toContain('TILLPOINT');
    expect(printed.some((t) => /^TOTAL\s+3\.50$/.test(t))).toBe(true);
    // The simulated paper shows the symbol it received: its symbology and the text it encodes.
    expect(printed).toContain('[CODE 128] T-mb1x2y3z-1a2b3c4d');
    expect(sim.receipts[0]?.lines.find((l) => l.code)?.code).toEqual({
      symbology: 'code128',
      data: 'T-mb1x2y3z-1a2b3c4d',
    });
    expect(sim.drawerKicks).toBe(1);
    expect(await driver.status()).toEqual({ online: true, paper: 'ok', coverOpen: false, drawerOpen: false });
  });

  it('refuses to print when out of paper or with the cover open, and says why', async () => {
    const { sim, driver } = await setup();
    sim.setCondition({ paperEnd: true });
    expect(await driver.print(receipt)).toMatchObject({ ok: false, reason: 'paper-out' });
    sim.setCondition({ coverOpen: true });
    expect(await driver.print(receipt)).toMatchObject({ ok: false, reason: 'cover-open' });
    sim.setCondition({ paperNearEnd: true });
    expect(await driver.print(receipt)).toEqual({ ok: true });
    expect(driver.health().detail).toMatchObject({ paper: 'near-end' });
    expect(sim.receipts).toHaveLength(1);
  });

  it('its health says what keeps it from printing, from the last status it read', async () => {
    const { sim, driver } = await setup();
    await driver.status();
    expect(driver.health().problem).toBeUndefined();
    sim.setCondition({ paperEnd: true });
    await driver.status();
    expect(driver.health()).toMatchObject({ state: 'connected', problem: 'out of paper' });
    sim.setCondition({ paperEnd: false, coverOpen: true });
    await driver.status();
    expect(driver.health().problem).toBe('cover open');
    // Paper running low still prints: not a problem.
    sim.setCondition({ coverOpen: false, paperNearEnd: true });
    await driver.status();
    expect(driver.health().problem).toBeUndefined();
  });

  it('slow status answers within the wait still work; silence fails the heartbeat', async () => {
    const { sim, driver } = await setup();
    sim.setFaults({ slowMs: 100 });
    await driver.heartbeat();
    expect(driver.health().state).toBe('connected');
    sim.stop();
    await expect(driver.heartbeat()).rejects.toThrow(/did not answer/);
    expect(driver.health().state).toBe('error');
  });

  it('unplug mid-receipt: the print fails cleanly and the disconnect is signalled', async () => {
    const { sim, driver } = await setup();
    const disconnected = new Promise<Error | undefined>((resolve) => driver.onDisconnect(resolve));
    sim.setFaults({ unplugAfterBytes: 40 });
    sim.on((e) => {
      if (e.type === 'init') setTimeout(() => void pty!.pair.close(), 20);
    });
    const r = await driver.print(receipt);
    expect(r.ok).toBe(false);
    await disconnected;
    expect(driver.health().state).toBe('missing');
  });
});
