import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { futureExpiryYYMM } from '../../../native/simulators/test-cards';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import { eventually, startLane, value } from '../helpers';

/**
 * A balance inquiry or gift load waiting for a card or a PIN, outside any ticket, is stopped through the
 * bridge (`cardWait.cancel`): the call answers at once, the readers and the PIN pad stop waiting, and the
 * lane is free for the next one.
 */
describe('cancelling a card wait outside a ticket', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ sandboxSlowMs: 0 });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('stops a gift balance waiting for a swipe; nothing waits after, and the next inquiry runs', async () => {
    const lane = await startLane({ gateway: gw });
    const { bridge } = lane;
    try {
      const prompts: string[] = [];
      bridge.on('sale.progress', (p) => prompts.push(p.step));
      expect(value(await bridge.send('cardWait.cancel', {}))).toEqual({ cancelled: false });
      const balance = bridge.send('gift.balance', { entry: 'swipe' });
      await eventually(() => prompts.includes('waiting-for-card'));
      expect(value(await bridge.send('cardWait.cancel', {}))).toEqual({ cancelled: true });
      const answer = await balance;
      expect(answer.ok ? 'ok' : answer.error).toEqual({
        code: 'device',
        message: 'Cancelled.',
        messageId: 'cards.cancelled',
      });
      // The lane is free: a typed number is answered (no `busy`).
      const next = value(
        await bridge.send('gift.balance', { entry: 'keyed', keyed: { cardNumber: '6035710000000018' } }),
      );
      expect(next.kind).toBe('gift');
    } finally {
      await lane.close();
    }
  }, 30_000);

  it('stops an EBT balance waiting for the PIN: the PIN pad stops asking', async () => {
    const lane = await startLane({
      gateway: gw,
      core: {
        devices: {
          kind: 'simulated',
          options: {
            card: {
              pan: '5077010000000014',
              brand: 'Unknown',
              name: 'EBT/TEST',
              expiryYYMM: futureExpiryYYMM(),
              serviceCode: '101',
              outcome: 'approve',
            },
          },
        },
      },
    });
    const { bridge } = lane;
    try {
      const prompts: string[] = [];
      bridge.on('sale.progress', (p) => prompts.push(p.step));
      const balance = bridge.send('ebt.balance', { program: 'food' });
      await eventually(() => prompts.includes('waiting-for-card'));
      value(await bridge.send('simulator.swipe', {}));
      await eventually(async () => value(await bridge.send('simulator.state', {})).pinPad.awaitingPin);
      expect(value(await bridge.send('cardWait.cancel', {}))).toEqual({ cancelled: true });
      const answer = await balance;
      expect(answer.ok ? 'ok' : answer.error).toEqual({
        code: 'device',
        message: 'Cancelled.',
        messageId: 'cards.cancelled',
      });
      await eventually(async () => !value(await bridge.send('simulator.state', {})).pinPad.awaitingPin);
    } finally {
      await lane.close();
    }
  }, 30_000);

  it('leaves a tender alone: a sale waiting for a card is not a card wait outside a ticket', async () => {
    const lane = await startLane({ gateway: gw });
    const { bridge } = lane;
    try {
      const prompts: string[] = [];
      bridge.on('sale.progress', (p) => prompts.push(p.step));
      const t = value(await bridge.send('sale.open', { subtotalCents: 500 }));
      const pay = bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: { kind: 'credit', entry: 'swipe' },
      });
      await eventually(() => prompts.includes('waiting-for-card'));
      expect(value(await bridge.send('cardWait.cancel', {}))).toEqual({ cancelled: false });
      value(await bridge.send('simulator.swipe', {}));
      expect(value(await pay).tender.status).toBe('approved');
    } finally {
      await lane.close();
    }
  }, 30_000);
});
