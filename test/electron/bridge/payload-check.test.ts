import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeError, BridgeResult } from '../../../common/bridge/contract';
import { commandPayloads, type CommandName } from '../../../common/bridge/commands';
import { payloadProblems } from '../../../electron/bridge/payload-check';
import { startLane, value, type Lane } from '../helpers';

function errorOf(r: BridgeResult<unknown>): BridgeError {
  if (r.ok) throw new Error('expected the call to be refused');
  return r.error;
}

/** Every payload is checked at dispatch against its schema in the contract (contract/commands.ts). */
describe('bridge payloads are checked against their schemas at dispatch', () => {
  let lane: Lane;
  beforeAll(async () => {
    lane = await startLane({ signIn: '9999' });
  });
  afterAll(async () => {
    await lane.close();
  });

  it('a wrong payload is refused `invalid` with one problem per fault, and nothing changes', async () => {
    const { bridge } = lane;
    const ticket = value(await bridge.send('sale.open', { subtotalCents: 1000 }));
    const refused = errorOf(
      await bridge.dispatch('sale.pay', {
        ticketId: ticket.ticketId,
        tender: { kind: 'cash', tenderedCents: 10.5 },
        tipCents: -1,
      }),
    );
    expect(refused.code).toBe('invalid');
    expect(refused.problems).toEqual([
      'Enter the cash the customer handed over.',
      'The tip must be zero or a positive number of cents.',
    ]);
    expect(refused.message).toBe(refused.problems?.join(' '));
    const after = value(await bridge.send('sale.get', { ticketId: ticket.ticketId }));
    expect(after.tenders).toHaveLength(0);
    expect(after.tipCents).toBe(0);
  });

  it('a union is judged by the branch the payload names; one it names none of, by its own words', async () => {
    const { bridge } = lane;
    const ticket = value(await bridge.send('sale.open', { subtotalCents: 1000 }));
    const unknownTender = errorOf(
      await bridge.dispatch('sale.pay', { ticketId: ticket.ticketId, tender: { kind: 'barter' } }),
    );
    expect(unknownTender.problems).toEqual(['Choose a tender.']);
    const device = errorOf(await bridge.dispatch('devices.reconnect', { role: 'toaster' }));
    // A manager is not a tech: access is checked before the payload.
    expect(device.code).toBe('forbidden');
  });

  it('the role comes before the payload’s shape: a wrong-role call is forbidden whatever it carries', async () => {
    const { bridge } = lane;
    // A manager is not a tech; `[]`, `null` and a string are not even objects — still `forbidden`.
    for (const payload of [[], null, 'x', 7, { role: 'toaster' }, {}]) {
      expect(errorOf(await bridge.dispatch('devices.reconnect', payload)).code).toBe('forbidden');
    }
    const stranger = lane.core.connect();
    // Nobody signed in: `unauthorized` first, whatever the payload.
    for (const payload of [[], null, 'x', {}]) {
      expect(errorOf(await stranger.dispatch('sale.open', payload)).code).toBe('unauthorized');
    }
    stranger.close();
    // The right role with a payload that is not an object: `invalid`, with the words.
    expect(errorOf(await bridge.dispatch('sale.open', [])).message).toBe('The payload must be an object.');
  });

  it('a setting of the wrong type is refused, no longer coerced (tipPrompt "yes" used to save as false)', async () => {
    const { bridge } = lane;
    const before = value(await bridge.send('business.get', {}));
    const refused = errorOf(await bridge.dispatch('business.update', { tipPrompt: 'yes' }));
    expect(refused.code).toBe('invalid');
    expect(refused.problems).toEqual(['tipPrompt must be boolean.']);
    expect(value(await bridge.send('business.get', {})).tipPrompt).toBe(before.tipPrompt);
  });

  it('never echoes a value: a keyed card number in a malformed tender stays out of the answer', async () => {
    const { bridge } = lane;
    const ticket = value(await bridge.send('sale.open', { subtotalCents: 1000 }));
    const refused = errorOf(
      await bridge.dispatch('sale.pay', {
        ticketId: ticket.ticketId,
        tender: { kind: 'credit', entry: 'keyed', keyed: { cardNumber: '4111111111111111', expiry: 1230 } },
      }),
    );
    expect(refused.problems).toEqual(['Keyed entry needs the card number and expiry (MMYY).']);
    expect(JSON.stringify(refused)).not.toContain('4111111111111111');
  });
});

describe('payloadProblems', () => {
  const names = Object.keys(commandPayloads) as CommandName[];

  it('has a schema for every command, and each accepts what the handlers were written for', () => {
    expect(names.length).toBeGreaterThan(70);
    expect(payloadProblems('session.current', {})).toEqual([]);
    expect(payloadProblems('sale.open', { subtotalCents: 1250, invoiceNumber: 'INV-1' })).toEqual([]);
    expect(
      payloadProblems('sale.pay', {
        ticketId: 'T1',
        tender: { kind: 'debit', entry: 'chip', cashBackCents: 2000 },
      }),
    ).toEqual([]);
    expect(payloadProblems('devices.test', { role: 'receiptPrinter', action: 'print-test-receipt' })).toEqual(
      [],
    );
    expect(payloadProblems('gateway.update', { timeouts: { saleMs: 30_000 } })).toEqual([]);
  });

  it('names every missing required field, in the words of its schema', () => {
    expect(payloadProblems('sale.get', {})).toEqual(['ticketId is required (at most 64 characters).']);
    expect(payloadProblems('session.changePin', { currentPin: '1234' })).toEqual(['A PIN is 4 to 8 digits.']);
    expect(payloadProblems('employees.add', { role: 'cashier' })).toEqual(['A name is 1 to 60 characters.']);
    expect(
      payloadProblems('batch.resolveOrphan', { userTransactionNumber: 'L1-x-1', action: 'drop' }),
    ).toEqual(['The action is keep or reverse.']);
    expect(payloadProblems('gateway.update', { mid: -1, timeouts: { otherMs: 10 } })).toEqual([
      'mid, cid and appType are whole numbers.',
      'Timeouts are 0.5 to 120 seconds.',
    ]);
  });

  it('checks money as integer cents everywhere', () => {
    expect(payloadProblems('sale.open', { subtotalCents: 12.5 })).toEqual([
      'The amount must be a positive number of cents.',
    ]);
    expect(payloadProblems('transactions.refund', { serviceReferenceNumber: '9', amountCents: 0 })).toEqual([
      'The refund amount must be a positive number of cents.',
    ]);
    expect(payloadProblems('gift.reload', { amountCents: Number.MAX_SAFE_INTEGER + 2 })).toEqual([
      'The reload amount must be a positive number of cents.',
    ]);
  });
});
