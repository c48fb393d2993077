import { afterEach, describe, expect, it } from 'vitest';
import type { CustomerDisplayView, CustomerTicketView } from '../../../common/bridge/contract';
import type { StoreLocaleView } from '../../../common/bridge/store-profile';
import { createPoleDisplayFeed } from '../../../electron/customer/pole-display-feed';
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
    expect(sim.lines[0]).toBe('Crème brûlée   $6.49');
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

describe('the lane’s pole display feed over a socat pty, in the store’s language', () => {
  let pty: PtyStreams | undefined;
  afterEach(async () => {
    await pty?.close();
    pty = undefined;
  });

  const ticket = (over: Partial<CustomerTicketView> = {}): CustomerTicketView => ({
    ticketId: 'T1',
    status: 'open',
    lines: [{ lineId: 'l1', description: 'Sale', wording: 'sale', amountCents: 1234 }],
    subtotalCents: 1234,
    taxCents: 0,
    tipCents: 0,
    totalCents: 1234,
    paidCents: 0,
    remainingCents: 1234,
    ...over,
  });

  async function feedIn(locale: StoreLocaleView['locale']) {
    pty = await openPtyStreams({ baudRate: 9600 });
    const sim = new PoleDisplaySimulator(pty.device);
    const driver = new PoleDisplayDriver(pty.host);
    const feed = createPoleDisplayFeed({ display: () => driver, connected: () => true });
    let version = 0;
    const show = async (v: Omit<CustomerDisplayView, 'storeName' | 'locale' | 'displays' | 'version'>) => {
      // Each view here is a new screen: the driver's count of screens follows the views' version.
      feed.show({
        storeName: 'Tienda Ñandú',
        locale: { locale, currency: 'USD' },
        displays: 0,
        version: ++version,
        ...v,
      });
      // The simulator's screen, once the driver has written the new one and its bytes are through the pty.
      await until(
        () => {
          const written = driver.lines();
          return (
            Number(driver.health().detail?.['screens']) === version &&
            written !== undefined &&
            sim.lines.join('\n') === written.join('\n')
          );
        },
        3000,
        'the screen',
      );
      return sim.lines;
    };
    return show;
  }

  it('greets, rings, totals, gives change and thanks in Spanish, each row 20 columns of PC437', async () => {
    const show = await feedIn('es-MX');
    expect(await show({ phase: 'idle' })).toEqual(['   ¡Bienvenidos!    ', '    Tienda Ñandú    ']);
    expect(await show({ phase: 'ticket', ticket: ticket() })).toEqual([
      'Venta         $12.34',
      'Total         $12.34',
    ]);
    expect(
      await show({
        phase: 'ticket',
        ticket: ticket({ totalCents: 5000, paidCents: 2000, remainingCents: 3000 }),
        prompt: { step: 'present-card' },
      }),
    ).toEqual(['Total         $50.00', 'Por pagar     $30.00']);
    expect(
      await show({
        phase: 'thanks',
        ticket: ticket({ paidCents: 2000, remainingCents: 0 }),
        outcome: { kind: 'cash', amountCents: 2000, changeCents: 766 },
      }),
    ).toEqual(['Cambio         $7.66', ' '.repeat(20)]);
    expect(await show({ phase: 'thanks', ticket: ticket({ paidCents: 1234, remainingCents: 0 }) })).toEqual([
      '     ¡Gracias!      ',
      '   Vuelva pronto    ',
    ]);
  });

  it('says it in English in an English store', async () => {
    const show = await feedIn('en-US');
    expect((await show({ phase: 'idle' }))[0].trim()).toBe('Welcome');
    expect(await show({ phase: 'ticket', ticket: ticket() })).toEqual([
      'Sale          $12.34',
      'Total         $12.34',
    ]);
    expect(await show({ phase: 'thanks', ticket: ticket({ paidCents: 1234, remainingCents: 0 }) })).toEqual([
      '     Thank you      ',
      ' Please come again  ',
    ]);
  });
});
