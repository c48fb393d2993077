import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestCard } from '../../../native/simulators/test-cards';
import { futureExpiryYYMM } from '../../../native/simulators/test-cards';
import { merchant1, startGateway, type TestGateway } from '../../support/gateway-harness';
import { eventually, openTill, startLane, value } from '../helpers';

/** A card the simulators present by default (the gateway's tender test cards are not in their list). */
function simCard(pan: string, name: string): TestCard {
  return {
    pan,
    brand: 'Unknown',
    name,
    expiryYYMM: futureExpiryYYMM(),
    serviceCode: '101',
    outcome: 'approve',
  };
}

describe('tenders', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ sandboxSlowMs: 400 });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('gift card: keyed sale, partial approval split onto cash, balance and reload', async () => {
    const lane = await startLane({ gateway: gw });
    const { bridge } = lane;
    try {
      await openTill(bridge);
      const t = value(await bridge.send('sale.open', { subtotalCents: 4000 }));
      const gift = value(
        await bridge.send('sale.pay', {
          ticketId: t.ticketId,
          tender: { kind: 'gift', entry: 'keyed', keyed: { cardNumber: '6035710000000026' } },
        }),
      );
      expect(gift.tender.status).toBe('partial');
      expect(gift.tender.approvedCents).toBe(2500);
      expect(gift.needsAnotherTender).toBe(true);
      expect(gift.ticket.remainingCents).toBe(1500);
      const cash = value(
        await bridge.send('sale.pay', {
          ticketId: t.ticketId,
          tender: { kind: 'cash', tenderedCents: 2000 },
        }),
      );
      expect(cash.ticket.status).toBe('paid');
      expect(cash.tender.changeCents).toBe(500);

      const balance = value(
        await bridge.send('gift.balance', { entry: 'keyed', keyed: { cardNumber: '6035710000000026' } }),
      );
      expect(balance.balanceCents).toBe(0);
      // A load is paid first: a ticket opened for it, paid in cash.
      const load = value(await bridge.send('sale.open', { subtotalCents: 1000, purpose: 'gift-reload' }));
      value(
        await bridge.send('sale.pay', {
          ticketId: load.ticketId,
          tender: { kind: 'cash', tenderedCents: 1000 },
        }),
      );
      const reload = value(
        await bridge.send('gift.reload', {
          amountCents: 1000,
          ticketId: load.ticketId,
          entry: 'keyed',
          keyed: { cardNumber: '6035710000000026' },
        }),
      );
      expect(reload.state).toBe('approved');
      expect(
        value(
          await bridge.send('gift.balance', { entry: 'keyed', keyed: { cardNumber: '6035710000000026' } }),
        ).balanceCents,
      ).toBe(1000);
    } finally {
      await lane.close();
    }
  });

  it('gift balances of 1,000.00 and more read in full (the gateway sends en-US text: "1,234.56")', async () => {
    const lane = await startLane({ gateway: gw, signIn: '9999' });
    const { bridge } = lane;
    const card = { entry: 'keyed' as const, keyed: { cardNumber: '6035710000000018' } };
    try {
      expect(value(await bridge.send('gift.balance', card)).balanceCents).toBe(10_000);
      value(await bridge.send('gift.reload', { amountCents: 113_456, ...card }));
      expect(value(await bridge.send('gift.balance', card)).balanceCents).toBe(123_456);
      // A gift sale's answer carries the balance left on the card, read by the same rule.
      const t = value(await bridge.send('sale.open', { subtotalCents: 100, taxCents: 0 }));
      const paid = value(
        await bridge.send('sale.pay', { ticketId: t.ticketId, tender: { kind: 'gift', ...card } }),
      );
      expect(paid.tender.balanceCents).toBe(123_356);
    } finally {
      await lane.close();
    }
  });

  it('EBT food: balance and sale with the PIN from the pad', async () => {
    const lane = await startLane({
      gateway: gw,
      core: {
        devices: {
          kind: 'simulated',
          options: { card: simCard('5077010000000014', 'EBT/TEST'), autoPin: '1234' },
        },
      },
    });
    const { bridge } = lane;
    try {
      const prompts: string[] = [];
      bridge.on('sale.progress', (p) => prompts.push(p.prompt));
      const balance = bridge.send('ebt.balance', { program: 'food' });
      await eventually(() => prompts.includes('Insert, tap or swipe'));
      value(await bridge.send('simulator.swipe', {}));
      expect(value(await balance).balanceCents).toBe(15000);

      const t = value(await bridge.send('sale.open', { subtotalCents: 2000, taxCents: 0 }));
      prompts.length = 0;
      const pay = bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: { kind: 'ebt', program: 'food', entry: 'swipe' },
      });
      await eventually(() => prompts.includes('Swipe card'));
      value(await bridge.send('simulator.swipe', {}));
      const out = value(await pay);
      expect(prompts).toContain('Customer entering PIN');
      expect(out.tender.status).toBe('approved');
      expect(out.tender.signature).toBeUndefined();
    } finally {
      await lane.close();
    }
  });

  it('credit partial approval on a card-present sale forces a split', async () => {
    const lane = await startLane({
      gateway: gw,
      core: {
        devices: { kind: 'simulated', options: { card: simCard('4000000000000341', 'PARTIAL/TEST') } },
      },
    });
    const { bridge } = lane;
    try {
      await openTill(bridge);
      // Swipe only once the sale is waiting for the card (a fixed pause raced it on a loaded machine).
      const steps: string[] = [];
      const off = bridge.on('sale.progress', (p) => steps.push(p.step));
      const t = value(await bridge.send('sale.open', { subtotalCents: 3000, taxCents: 0 }));
      const pay = bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: { kind: 'credit', entry: 'swipe' },
      });
      await eventually(() => steps.includes('waiting-for-card'));
      off();
      value(await bridge.send('simulator.swipe', {}));
      const out = value(await pay);
      expect(out.tender.status, out.tender.message).toBe('partial');
      expect(out.tender.approvedCents).toBe(2000);
      expect(out.needsAnotherTender).toBe(true);
      const rest = value(
        await bridge.send('sale.pay', {
          ticketId: t.ticketId,
          tender: { kind: 'cash', tenderedCents: 1000 },
        }),
      );
      expect(rest.ticket.status).toBe('paid');
      const rows = value(await bridge.send('transactions.list', {}));
      expect(rows.find((r) => r.userTransactionNumber === out.tender.userTransactionNumber)?.state).toBe(
        'partial',
      );
    } finally {
      await lane.close();
    }
  });

  it('check, card on file, and a pre-authorization completed with a tip', async () => {
    const lane = await startLane({ gateway: gw });
    const { bridge } = lane;
    try {
      const t = value(await bridge.send('sale.open', { subtotalCents: 5025, taxCents: 0 }));
      const check = value(
        await bridge.send('sale.pay', {
          ticketId: t.ticketId,
          tender: {
            kind: 'check',
            check: {
              routingNumber: '021000021',
              accountNumber: '123456789',
              checkNumber: '1001',
              accountType: 'CHECKING',
              firstName: 'Ann',
              lastName: 'Lee',
            },
          },
        }),
      );
      expect(check.tender.status).toBe('approved');
      expect(check.tender.card?.last4).toBe('6789');

      const token = await gw.post('/api/GatewayAdmin/GetTokenForCard', {
        ...merchant1,
        Account: '4111111111111111',
        expDate: '1230',
      });
      expect(token.body.ResponseCode).toBe(200);
      const t2 = value(await bridge.send('sale.open', { subtotalCents: 1999, taxCents: 0 }));
      const onFile = value(
        await bridge.send('sale.pay', {
          ticketId: t2.ticketId,
          tender: { kind: 'token', token: token.body.Token as string },
          allowDuplicate: true,
        }),
      );
      expect(onFile.tender.status).toBe('approved');

      const t3 = value(await bridge.send('sale.open', { subtotalCents: 4000, taxCents: 0 }));
      const hold = value(
        await bridge.send('sale.pay', {
          ticketId: t3.ticketId,
          tender: {
            kind: 'preauth',
            entry: 'keyed',
            keyed: { cardNumber: '5555555555554444', expiry: '1230' },
          },
        }),
      );
      expect(hold.tender.status).toBe('approved');
      const done = value(
        await bridge.send('preauth.complete', {
          serviceReferenceNumber: hold.tender.serviceReferenceNumber as string,
          amountCents: 3800,
          tipCents: 500,
        }),
      );
      expect(done.state).toBe('approved');
      expect(done.operation).toBe('preauth-complete');
    } finally {
      await lane.close();
    }
  });
});
