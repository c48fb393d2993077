import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanView } from '../../../common/bridge/contract';
import { eventually, startLane, value, type Lane } from '../helpers';

describe('scanner and pole display through the bridge (sandbox lane)', () => {
  let lane: Lane;
  beforeAll(async () => {
    lane = await startLane();
  });
  afterAll(async () => {
    await lane.close();
  });

  it('delivers every scan to the screens as scanner.scanned, whatever scanner kind it came through', async () => {
    const scans: ScanView[] = [];
    const off = lane.bridge.on('scanner.scanned', (s) => scans.push(s));
    try {
      value(
        await lane.bridge.send('simulator.scan', { symbology: 'upc-a', data: '036000241457', via: 'serial' }),
      );
      value(await lane.bridge.send('simulator.scan', { symbology: 'ean-8', data: '96385074', via: 'hid' }));
      value(
        await lane.bridge.send('simulator.scan', { symbology: 'upc-a', data: '212345928752', via: 'wedge' }),
      );
      value(
        await lane.bridge.send('simulator.scan', { symbology: 'upc-a', data: '036000241458', via: 'serial' }),
      );
      await eventually(() => scans.length >= 4, 3000);
    } finally {
      off();
    }
    expect(scans.map((s) => [s.source, s.symbology, s.data, s.validated])).toEqual([
      ['serial', 'upc-a', '036000241457', true],
      ['hid', 'ean-8', '96385074', true],
      ['wedge', 'upc-a', '212345928752', true],
      ['serial', 'upc-a', '036000241458', false],
    ]);
    expect(scans[0]).toMatchObject({ aimId: ']E0', checkedBy: 'check-digit', gtin: '00036000241457' });
    expect(scans[2]?.priceEmbedded).toEqual({ itemCode: '12345', priceCents: 2875 });
    expect(scans[3]?.problem).toMatch(/check digit does not match/);
    expect(scans[0]).not.toHaveProperty('kind');
  });

  it('takes a screen’s wedge scan, answers it as read, and tells every screen', async () => {
    const settings = value(await lane.bridge.send('scanner.wedgeSettings', {}));
    expect(settings).toEqual({ prefix: '', suffix: 'Enter', minLength: 6, maxGapMs: 50, maxMeanGapMs: 20 });
    const other = lane.core.connect();
    const seen: ScanView[] = [];
    other.on('scanner.scanned', (s) => seen.push(s));
    const scan = value(await lane.bridge.send('scanner.wedgeScan', { data: '6291041500213' }));
    expect(scan).toMatchObject({ source: 'wedge', symbology: 'ean-13', validated: true });
    expect(seen).toEqual([scan]);
    other.close();
  });

  it('never turns a scan into an amount: the open ticket is unchanged by scans', async () => {
    const t = value(await lane.bridge.send('sale.open', { subtotalCents: 1000 }));
    value(await lane.bridge.send('scanner.wedgeScan', { data: '212345928752' }));
    value(await lane.bridge.send('simulator.scan', { symbology: 'upc-a', data: '036000241457', via: 'hid' }));
    const after = value(await lane.bridge.send('sale.get', { ticketId: t.ticketId }));
    expect(after).toEqual(t);
    value(await lane.bridge.send('sale.abandon', { ticketId: t.ticketId }));
  });

  it('refuses a bad wedge scan payload and a caller who is not signed in, changing nothing', async () => {
    const empty = await lane.bridge.send('scanner.wedgeScan', { data: '' });
    expect(empty.ok ? 'ok' : empty.error.code).toBe('invalid');
    const stranger = lane.core.connect();
    const r = await stranger.send('scanner.wedgeScan', { data: '036000241457' });
    expect(r.ok ? 'ok' : r.error.code).toBe('unauthorized');
    stranger.close();
  });

  it('lets the tech test both devices and see the pole display in the simulator', async () => {
    const tech = lane.core.connect();
    value(await tech.send('session.signIn', { pin: '7777' }));
    const read = tech.send('devices.test', { role: 'scanner', action: 'read-barcode', timeoutMs: 3000 });
    await new Promise((r) => setTimeout(r, 50));
    value(
      await lane.bridge.send('simulator.scan', {
        symbology: 'code-128',
        data: 'TP-LOYALTY-00042',
        via: 'serial',
      }),
    );
    expect(value(await read)).toEqual({
      ok: true,
      detail: 'code-128 TP-LOYALTY-00042: valid (checked by the scanner)',
    });
    expect(value(await tech.send('devices.test', { role: 'poleDisplay', action: 'display-test' })).ok).toBe(
      true,
    );
    await eventually(async () => {
      const sim = value(await tech.send('simulator.state', {}));
      return sim.poleDisplay?.lines[0].includes('TILLPOINT TEST') ?? false;
    }, 3000);
    const sim = value(await tech.send('simulator.state', {}));
    expect(sim.poleDisplay?.lines).toEqual(['   TILLPOINT TEST   ', '12345678901234567890']);
    expect(sim.testBarcodes?.length).toBeGreaterThan(5);
    tech.close();
  });

  it('keeps the scanner and pole display when a screen saves a configuration without them; a wedge’s settings reach the screens', async () => {
    const tech = lane.core.connect();
    value(await tech.send('session.signIn', { pin: '7777' }));
    const { scanner: _s, poleDisplay: _p, ...older } = value(await tech.send('devices.config.get', {}));
    const saved = value(await tech.send('devices.config.set', { config: older }));
    expect(saved.scanner).toEqual({ kind: 'simulated' });
    expect(saved.poleDisplay).toEqual({ kind: 'simulated' });
    try {
      value(
        await tech.send('devices.config.set', {
          config: { ...saved, scanner: { kind: 'wedge', prefix: '~', suffix: 'Tab' } },
        }),
      );
      expect(value(await tech.send('scanner.wedgeSettings', {}))).toMatchObject({
        prefix: '~',
        suffix: 'Tab',
        minLength: 6,
      });
      value(await tech.send('devices.config.set', { config: { ...saved, scanner: { kind: 'none' } } }));
      expect(value(await tech.send('scanner.wedgeSettings', {}))).toBeNull();
      const r = await tech.send('scanner.wedgeScan', { data: '036000241457' });
      expect(r.ok ? 'ok' : r.error.code).toBe('device');
    } finally {
      value(await tech.send('devices.config.set', { config: saved }));
      tech.close();
    }
  });
});
