import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import { eventually, startLane, value, type Lane } from '../helpers';

/**
 * A signature owed on the signature pad survives what the screen cannot see: a confirmation pressed before
 * the customer signed, and a restart of the terminal. The pad keeps (or resumes) capturing, so the
 * customer's signature on it completes the sale.
 */

const VISA_CHIP = '4012888888881881'; // its CVM list asks for a signature

/** The customer signs on the simulated pad; resolves once the pad has taken every pen packet. */
async function signOnPad(lane: Lane): Promise<void> {
  const pad = lane.core.devices.devices?.signaturePad;
  const packets = (): number => Number(pad?.health().detail?.['packets'] ?? 0);
  const before = packets();
  await lane.core.devices.simulated?.controls.sign();
  await eventually(() => packets() > before);
  // The pen packets arrive over the pad's serial link: wait until they stop coming.
  let last = -1;
  await eventually(async () => {
    const now = packets();
    const still = now === last;
    last = now;
    await new Promise((r) => setTimeout(r, 25));
    return still;
  });
}

describe('the signature pad keeps capturing a signature that is owed', () => {
  let gw: TestGateway;
  const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-signature-'));
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a confirmation before the signature, then a restart: the pad’s signature completes the sale', async () => {
    const first = await startLane({ gateway: gw, dataDir });
    const t = value(await first.bridge.send('sale.open', { subtotalCents: 1300, taxCents: 0 }));
    const paying = first.bridge.send('sale.pay', {
      ticketId: t.ticketId,
      tender: { kind: 'credit', entry: 'chip' },
    });
    const controls = first.core.devices.simulated?.controls;
    await eventually(() => controls?.state().chip.waitingForCard === true);
    expect(controls?.insert(VISA_CHIP)).toBe(true);
    const out = value(await paying);
    expect(out.signatureRequired).toBe(true);
    const tenderId = out.tender.tenderId;
    // Confirmed before the customer signed: refused, and the pad goes on capturing.
    const early = await first.bridge.send('sale.signature', {
      ticketId: t.ticketId,
      tenderId,
      signature: { source: 'pad' },
    });
    expect(early.ok ? 'signed' : early.error.message).toMatch(/Nothing was signed on the pad/);
    await signOnPad(first);
    const signed = value(
      await first.bridge.send('sale.signature', {
        ticketId: t.ticketId,
        tenderId,
        signature: { source: 'pad' },
      }),
    );
    expect(signed.signature?.captured).toBe(true);
    expect(value(await first.bridge.send('sale.get', { ticketId: t.ticketId })).status).toBe('paid');

    // A second sale whose signature is still owed when the terminal stops.
    const t2 = value(await first.bridge.send('sale.open', { subtotalCents: 1400, taxCents: 0 }));
    const paying2 = first.bridge.send('sale.pay', {
      ticketId: t2.ticketId,
      tender: { kind: 'credit', entry: 'chip' },
    });
    await eventually(() => controls?.state().chip.waitingForCard === true);
    expect(controls?.insert(VISA_CHIP)).toBe(true);
    const out2 = value(await paying2);
    expect(out2.signatureRequired).toBe(true);
    await first.core.stop();

    const second = await startLane({ gateway: gw, dataDir });
    try {
      expect(value(await second.bridge.send('terminal.status', {})).openTicketId).toBe(t2.ticketId);
      await eventually(async () =>
        value(await second.bridge.send('devices.list', {})).some(
          (d) => d.role === 'signaturePad' && d.state === 'connected',
        ),
      );
      await signOnPad(second);
      const after = value(
        await second.bridge.send('sale.signature', {
          ticketId: t2.ticketId,
          tenderId: out2.tender.tenderId,
          signature: { source: 'pad' },
        }),
      );
      expect(after.signature?.captured).toBe(true);
      expect(value(await second.bridge.send('sale.get', { ticketId: t2.ticketId })).status).toBe('paid');
    } finally {
      await second.close();
    }
  }, 60_000);
});
