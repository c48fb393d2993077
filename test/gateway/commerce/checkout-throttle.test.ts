import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { CheckoutThrottle } from '../../../gateway/domain/checkout-throttle';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import { createLink, payCheckout, payCheckoutFrom, sandboxCard } from './support';

describe('the checkout card-testing throttle (in the database)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ backgroundTasks: false });
  });
  afterAll(async () => {
    await gw.close();
  });
  const failures = async (key: string) =>
    (
      await gw.gateway.storage.read.first(
        gw.gateway.storage.read.qb
          .selectFrom('checkout_throttle')
          .select('failures')
          .where('scope_key', '=', key),
      )
    )?.failures;

  const limits = (maxFailures: number, windowMs: number) => ({
    pair: { maxFailures, windowMs },
    link: { maxFailures, windowMs },
    card: { maxFailures, windowMs },
  });

  it('a decline after the window starts a new one', async () => {
    const t = new CheckoutThrottle(gw.gateway.storage, limits(1, 1_000));
    const key = `window-${randomUUID()}`;
    await t.failed([{ scope: 'link', key }], 0);
    expect(await t.allowed('link', key, 500)).toBe(false);
    expect(await t.allowed('link', key, 1_001)).toBe(true);
    await t.failed([{ scope: 'link', key }], 1_100);
    expect(await failures(`link:${key}`)).toBe(1);
    expect(await t.allowed('link', key, 1_200)).toBe(false);
  });

  it('each scope has its own limit and window; one decline counts in every scope it names', async () => {
    const t = new CheckoutThrottle(gw.gateway.storage, {
      pair: { maxFailures: 3, windowMs: 1_000 },
      link: { maxFailures: 5, windowMs: 1_000 },
      card: { maxFailures: 2, windowMs: 60_000 },
    });
    const key = `scopes-${randomUUID()}`;
    const all = [
      { scope: 'pair' as const, key },
      { scope: 'link' as const, key },
      { scope: 'card' as const, key },
    ];
    await t.failed(all, 0);
    await t.failed(all, 1);
    expect(await t.allowed('card', key, 2)).toBe(false);
    expect(await t.allowed('pair', key, 2)).toBe(true);
    await t.failed(all, 3);
    expect(await t.allowed('pair', key, 4)).toBe(false);
    expect(await t.allowed('link', key, 4)).toBe(true);
    // Past the one-second windows, the card's day still holds.
    expect(await t.allowed('pair', key, 2_000)).toBe(true);
    expect(await t.allowed('card', key, 2_000)).toBe(false);
  });

  it('never drops a key to make room: declines on other keys leave the tester refused', async () => {
    const t = new CheckoutThrottle(gw.gateway.storage, limits(2, 60_000));
    const tester = `tester-${randomUUID()}`;
    await t.failed([{ scope: 'pair', key: tester }], 0);
    await t.failed([{ scope: 'pair', key: tester }], 1);
    for (let i = 0; i < 30; i += 1) await t.failed([{ scope: 'pair', key: `other-${randomUUID()}` }], 2 + i);
    expect(await t.allowed('pair', tester, 40)).toBe(false);
  });

  it('declines counted at the same moment are all counted', async () => {
    const t = new CheckoutThrottle(gw.gateway.storage, limits(100, 60_000));
    const key = `burst-${randomUUID()}`;
    await Promise.all(Array.from({ length: 20 }, () => t.failed([{ scope: 'link', key }], 5)));
    expect(await failures(`link:${key}`)).toBe(20);
  });
});

describe('the checkout throttle over HTTP', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ backgroundTasks: false });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('does not count posts to links that do not exist (they charge nothing and must not fill the table)', async () => {
    const unknown = { Link: `${gw.baseUrl}/pay/${randomUUID()}` };
    const codes: unknown[] = [];
    for (let i = 0; i < 12; i += 1)
      codes.push((await payCheckout(gw, unknown, sandboxCard)).body.ResponseCode);
    expect(codes).toEqual(Array.from({ length: 12 }, () => ResponseCode.NotFound));
  });

  it('still turns a card tester away on a real link', async () => {
    const link = await createLink(gw, { Amount: '1.00' });
    // Over three cards: each card has a limit of its own (5 declines a day).
    const declining = ['4000000000000002', '4000000000009995', '4000000000000069'];
    for (let i = 0; i < 10; i += 1)
      await payCheckout(gw, link, { ...sandboxCard, CardNumber: declining[i % 3] });
    expect((await payCheckout(gw, link, sandboxCard)).body.ResponseCode).toBe(ResponseCode.TooManyAttempts);
  });
});

/**
 * Card testing spread over addresses: a limit per link and a limit per card, whatever the address. The
 * per (link, address) limit alone let 8 addresses make 80 declined attempts on one link, and one card be
 * tried on every link from every address.
 */
describe('the checkout card-testing limits across addresses', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ backgroundTasks: false });
  });
  afterAll(async () => {
    await gw.close();
  });
  /** A card tester's list: valid numbers, each tried once, with an expiry that has passed (declined). */
  let tried = 0;
  const stolen = () => {
    tried += 1;
    const body = `400000009${String(tried).padStart(6, '0')}`;
    return { ...sandboxCard, CardNumber: `${body}${luhnDigit(body)}`, ExpDate: '01/21' };
  };

  it('a link takes at most 20 declines an hour from all addresses together', async () => {
    const link = await createLink(gw, { Amount: '1.00' });
    const codes: unknown[] = [];
    // Three cards from each of eight addresses: never the per-address limit (10), nor any card's.
    for (let a = 1; a <= 8; a += 1)
      for (let i = 0; i < 3; i += 1)
        codes.push((await payCheckoutFrom(gw, `127.0.3.${a}`, link, stolen())).body.ResponseCode);
    expect(codes.slice(0, 20)).toEqual(Array.from({ length: 20 }, () => ResponseCode.Declined));
    expect(codes.slice(20)).toEqual(Array.from({ length: 4 }, () => ResponseCode.TooManyAttempts));
    // A payer at a new address with a good card: the link is closed to everyone for now.
    expect((await payCheckoutFrom(gw, '127.0.3.9', link, sandboxCard)).body.ResponseCode).toBe(
      ResponseCode.TooManyAttempts,
    );
    // Another link is not affected.
    const other = await createLink(gw, { Amount: '1.00' });
    expect((await payCheckoutFrom(gw, '127.0.3.9', other, sandboxCard)).body.ResponseCode).toBe(
      ResponseCode.Success,
    );
  });

  it('a card declined 5 times on any links from any addresses is refused for a day; other cards are not', async () => {
    // The CVN-failing test card: what guessing a stolen card's CVN looks like.
    const guessed = { ...sandboxCard, CardNumber: '4000000000000127' };
    const codes: unknown[] = [];
    for (let i = 0; i < 7; i += 1) {
      const link = await createLink(gw, { Amount: '2.00' });
      codes.push(
        (await payCheckoutFrom(gw, `127.0.4.${i + 1}`, link, { ...guessed, CVN: String(100 + i) })).body
          .ResponseCode,
      );
    }
    expect(codes.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => ResponseCode.Declined));
    expect(codes.slice(5)).toEqual([ResponseCode.TooManyAttempts, ResponseCode.TooManyAttempts]);
    const link = await createLink(gw, { Amount: '2.00' });
    expect((await payCheckoutFrom(gw, '127.0.4.20', link, sandboxCard)).body.ResponseCode).toBe(
      ResponseCode.Success,
    );
  });
});

/** The Luhn check digit (ISO/IEC 7812-1 Annex B) that completes `body`. */
function luhnDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}
