import { afterEach, describe, expect, it } from 'vitest';
import { PoleDisplayDriver } from '../../../native/drivers/pole-display';
import { PoleDisplaySimulator } from '../../../native/simulators/pole-display-simulator';
import { openPtyStreams, until, type PtyStreams } from '../support/pty-streams';

const usd = (cents: number): string => `$${(cents / 100).toFixed(2)}`;

describe('PoleDisplayDriver over a socat pty (ESC/POS customer display)', () => {
  let pty: PtyStreams | undefined;
  afterEach(async () => {
    await pty?.close();
    pty = undefined;
  });

  async function setup() {
    pty = await openPtyStreams({ baudRate: 9600 });
    const sim = new PoleDisplaySimulator(pty.device);
    const driver = new PoleDisplayDriver(pty.host);
    return { sim, driver };
  }

  it('shows an item with its price, then the total, in the order asked', async () => {
    const { sim, driver } = await setup();
    const item = driver.showItem({ name: 'Organic bananas bunch', priceCents: 199 }, usd, {
      label: 'Subtotal',
      cents: 1287,
    });
    const total = driver.showTotal({ label: 'TOTAL', cents: 1287 }, usd);
    await Promise.all([item, total]);
    await until(() => sim.lines[0].startsWith('TOTAL'), 3000, 'the total on the display');
    expect(sim.lines).toEqual(['TOTAL         $12.87', ' '.repeat(20)]);
    expect(sim.cursorVisible).toBe(false);
    expect(driver.lines()).toEqual(sim.lines);
    expect(driver.health()).toMatchObject({ state: 'connected', detail: { screens: 2 } });
  });

  it('shows an item line fitted to 20 columns, the way the customer reads it', async () => {
    const { sim, driver } = await setup();
    await driver.showItem({ name: 'Crème brûlée 2-pack family size', priceCents: 649 }, usd);
    await until(() => sim.lines[0].trim() !== '', 3000, 'the item');
    expect(sim.lines[0]).toBe('Creme brulee   $6.49');
  });

  it('shows a thank-you message centred, and clears', async () => {
    const { sim, driver } = await setup();
    await driver.showMessage('THANK YOU', 'Please come again');
    await until(() => sim.lines[0].includes('THANK'), 3000, 'the message');
    expect(sim.lines).toEqual(['     THANK YOU      ', ' Please come again  ']);
    await driver.clear();
    await until(() => sim.lines[0].trim() === '', 3000, 'a clear display');
    expect(sim.lines).toEqual([' '.repeat(20), ' '.repeat(20)]);
  });

  it('signals the disconnect when the port goes away, and a later write fails in words', async () => {
    const { driver } = await setup();
    const lost = new Promise<void>((resolve) => driver.onDisconnect(() => resolve()));
    await pty?.pair.close();
    await lost;
    await expect(driver.showMessage('HELLO')).rejects.toThrow(/pole display write failed/);
    expect(driver.health().state).toBe('missing');
  });
});
