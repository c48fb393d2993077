import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeclineCode } from '../../gateway/contract/decline-codes';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { readIssuerResponse } from '../../native/protocols/emv-issuer-response';
import { chipTerminal, contactlessCard, tagOf, withTag, withoutTag } from '../support/chip-terminal';
import {
  type Json,
  type TestGateway,
  declined,
  merchant1,
  startGateway,
  utn,
} from '../support/gateway-harness';
import { pinBlock } from '../support/cards';
import { dropSchema, schemaOf } from '../support/test-database';

function chipSale(emvData: string, amount: number, overrides: Json = {}): Json {
  return {
    ...merchant1,
    Amount: amount,
    TransactionType: 1,
    UserTransactionNumber: utn('chip'),
    EmvData: emvData,
    PosEntryMode: 'Chip',
    ForceDuplication: true,
    ...overrides,
  };
}

describe('the sandbox issuer checks the chip (EmvData of a contact read, 9F39 05)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('Visa CVN 18: the ARQC verifies, the approval carries 8A 00 and an ARPC the card accepts (TC)', async () => {
    const t = chipTerminal('4012888888881881');
    try {
      const read = await t.read(2550);
      const res = await gw.post('/api/Transactions/Sale', chipSale(read.emvTlvHex, 25.5));
      expect(res.body).toMatchObject({
        ResponseCode: ResponseCode.Success,
        LastFour: '1881',
        CardType: 'Visa',
      });
      const answer = readIssuerResponse(String(res.body.EmvData));
      expect(answer?.arc).toBe('00');
      // Method 2: ARPC (4) || CSU (4) with "issuer approves".
      expect(answer?.issuerAuthData).toMatch(/^[0-9A-F]{8}00800000$/);
      expect(answer?.scripts).toBeUndefined();
      if (!answer) return;
      expect(await t.complete(answer)).toMatchObject({ kind: 'completed', decision: 'TC' });
    } finally {
      await t.close();
    }
  });

  it('Mastercard CVN 16 debit with its PIN: verified, ARPC method 1 (ARPC || ARC), TC', async () => {
    const t = chipTerminal('5200828282828210');
    try {
      const read = await t.read(1000);
      expect(read.cvm).toBe('online-pin');
      const res = await gw.post('/api/Transactions/SaleDebit', {
        ...chipSale(read.emvTlvHex, 10),
        TransactionType: 5,
        ...pinBlock('5200828282828210'),
      });
      expect(res.body.ResponseCode).toBe(ResponseCode.Success);
      const answer = readIssuerResponse(String(res.body.EmvData));
      expect(answer?.issuerAuthData).toMatch(/^[0-9A-F]{16}3030$/);
      if (!answer) return;
      expect(await t.complete(answer)).toMatchObject({ decision: 'TC' });
    } finally {
      await t.close();
    }
  });

  it('the script trigger card: the approval carries 71 and 72 with MACs the card accepts (9F5B successful)', async () => {
    const t = chipTerminal('4000000000000424');
    try {
      const read = await t.read(700);
      const res = await gw.post('/api/Transactions/Sale', chipSale(read.emvTlvHex, 7));
      const answer = readIssuerResponse(String(res.body.EmvData));
      expect(answer?.scripts).toMatch(/^71.*72/);
      if (!answer) return;
      expect(await t.complete(answer)).toMatchObject({
        kind: 'completed',
        decision: 'TC',
        scriptResults: '2000000001' + '2000000002',
      });
    } finally {
      await t.close();
    }
  });

  it('the PIN change card: the approval carries script 72 (PIN CHANGE/UNBLOCK), the card applies it and reports 9F5B', async () => {
    const t = chipTerminal('5100000000000024');
    try {
      expect(t.sim.offlinePinOf(t.card)).toBe('4321');
      const read = await t.read(1999);
      const res = await gw.post('/api/Transactions/Sale', chipSale(read.emvTlvHex, 19.99));
      expect(res.body.ResponseCode).toBe(ResponseCode.Success);
      const answer = readIssuerResponse(String(res.body.EmvData));
      // One script, 72, id 3: 84 24 00 02, Lc 16 = the enciphered format 2 PIN block (8) and the MAC (8).
      expect(answer?.scripts).toMatch(/^721E9F18040000000386158424000210[0-9A-F]{32}$/);
      // The PIN is enciphered: its format 2 block is nowhere in the clear.
      expect(String(res.body.EmvData)).not.toContain('241234FFFFFFFFFF');
      if (!answer) return;
      expect(await t.complete(answer)).toMatchObject({
        kind: 'completed',
        decision: 'TC',
        scriptResults: '2000000003',
      });
      // The card's offline PIN is now the sandbox PIN, the one the issuer holds.
      expect(t.sim.offlinePinOf(t.card)).toBe('1234');
    } finally {
      await t.close();
    }
  });

  it('a wrong cryptogram, or EmvData altered after the card signed it, is declined (EmvCryptogramInvalid)', async () => {
    const t = chipTerminal('4012888888881881');
    try {
      const read = await t.read(1200);
      const arqc = tagOf(read.emvTlvHex, '9F26') ?? '';
      const flipped = `${arqc.slice(0, -1)}${arqc.endsWith('0') ? '1' : '0'}`;
      const wrong = await gw.post(
        '/api/Transactions/Sale',
        chipSale(withTag(read.emvTlvHex, '9F26', flipped), 12),
      );
      expect(wrong.body).toMatchObject(declined(DeclineCode.EmvCryptogramInvalid));
      // The card hears a decline (8A 05) and no ARPC: there is nothing genuine to authenticate.
      expect(readIssuerResponse(String(wrong.body.EmvData))).toEqual({ arc: '05' });
      // Amount raised in 9F02 and in the request alike: the MAC no longer covers the data.
      const altered = await gw.post(
        '/api/Transactions/Sale',
        chipSale(withTag(read.emvTlvHex, '9F02', '000000120000'), 1200),
      );
      expect(altered.body).toMatchObject(declined(DeclineCode.EmvCryptogramInvalid));
    } finally {
      await t.close();
    }
  });

  it('a genuine ARQC over another amount than the one charged is declined (EmvAmountMismatch)', async () => {
    const t = chipTerminal('4012888888881881');
    try {
      const read = await t.read(1000);
      const res = await gw.post('/api/Transactions/Sale', chipSale(read.emvTlvHex, 99.99));
      expect(res.body).toMatchObject(declined(DeclineCode.EmvAmountMismatch));
      expect(readIssuerResponse(String(res.body.EmvData))?.arc).toBe('05');
    } finally {
      await t.close();
    }
  });

  it('a replayed ARQC (the same EmvData again) and a stale one (an older ATC) are declined', async () => {
    const t = chipTerminal('5100000000000016');
    try {
      const first = await t.read(500);
      const second = await t.read(500);
      expect((await gw.post('/api/Transactions/Sale', chipSale(second.emvTlvHex, 5))).body.ResponseCode).toBe(
        ResponseCode.Success,
      );
      const replay = await gw.post('/api/Transactions/Sale', chipSale(second.emvTlvHex, 5));
      expect(replay.body).toMatchObject(declined(DeclineCode.EmvTransactionCounterReplayed));
      const stale = await gw.post('/api/Transactions/Sale', chipSale(first.emvTlvHex, 5));
      expect(stale.body).toMatchObject(declined(DeclineCode.EmvTransactionCounterReplayed));
      // No ARPC for a cryptogram already used: the issuer signs nothing twice.
      expect(readIssuerResponse(String(stale.body.EmvData))).toEqual({ arc: '05' });
      const third = await t.read(500);
      expect((await gw.post('/api/Transactions/Sale', chipSale(third.emvTlvHex, 5))).body.ResponseCode).toBe(
        ResponseCode.Success,
      );
    } finally {
      await t.close();
    }
  });

  it('a contact read without its cryptogram is declined (EmvCryptogramMissing); relabelled contactless, still checked', async () => {
    const t = chipTerminal('4012888888881881');
    try {
      const read = await t.read(300);
      const stripped = withTag(read.emvTlvHex, '9F27', '40');
      expect((await gw.post('/api/Transactions/Sale', chipSale(stripped, 3))).body).toMatchObject(
        declined(DeclineCode.EmvCryptogramMissing),
      );
      // The same card's data passed off as a contactless read (9F39 07) with a made-up cryptogram.
      const contactless = withTag(withTag(read.emvTlvHex, '9F39', '07'), '9F26', '0000000000000000');
      const forged = await gw.post(
        '/api/Transactions/Sale',
        chipSale(contactless, 3, { PosEntryMode: 'Contactless' }),
      );
      expect(forged.body).toMatchObject(declined(DeclineCode.EmvCryptogramInvalid));
    } finally {
      await t.close();
    }
  });

  it('an issuer decline with a verified ARQC carries 8A and an ARPC, so the card can end in AAC', async () => {
    const t = chipTerminal('4000000000000408');
    try {
      const read = await t.read(1000);
      // Debit with a wrong PIN: declined by the issuer after the ARQC verified.
      const res = await gw.post('/api/Transactions/SaleDebit', {
        ...chipSale(read.emvTlvHex, 10),
        TransactionType: 5,
        ...pinBlock('4000000000000408', '9999'),
      });
      expect(res.body).toMatchObject(declined(DeclineCode.IncorrectPin));
      const answer = readIssuerResponse(String(res.body.EmvData));
      expect(answer?.arc).toBe('55');
      if (!answer) return;
      expect(await t.complete(answer)).toMatchObject({ decision: 'AAC' });
    } finally {
      await t.close();
    }
  });

  it('the declines-after-approval card: the gateway approves and answers with a good ARPC; the card says AAC', async () => {
    const t = chipTerminal('4000000000000416');
    try {
      const read = await t.read(1500);
      const res = await gw.post('/api/Transactions/Sale', chipSale(read.emvTlvHex, 15));
      expect(res.body.ResponseCode).toBe(ResponseCode.Success);
      const answer = readIssuerResponse(String(res.body.EmvData));
      if (!answer) throw new Error('no issuer answer');
      expect(await t.complete(answer)).toMatchObject({ decision: 'AAC' });
      // EMV Book 4 §6.3.8: the terminal reverses; the gateway's reversal voids the approval.
      const rev = await gw.post('/api/Transactions/DoReversal', {
        ...merchant1,
        UserTransactionNumber: res.body.UserTransactionNumber,
      });
      expect(rev.body.ResponseCode).toBe(ResponseCode.Success);
    } finally {
      await t.close();
    }
  });
});

/**
 * Contactless EmvData (9F39 07, or no 9F39 at all) is checked as a chip read is: its ARQC recomputed, its
 * counter checked, its amounts compared. The sandbox skipped all of it, so any made-up contactless EmvData
 * was approved, and the same tap could be replayed. The simulated reader's taps carry real ARQCs under the
 * sandbox issuer keys (a stripe test card tapped answers with its scheme's profile: Visa CVN 18,
 * Mastercard CVN 16, PAN sequence 00).
 */
describe('the sandbox issuer checks contactless EmvData too', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });
  const tapSale = (emv: string, amount: number, overrides: Json = {}) =>
    gw.post('/api/Transactions/Sale', chipSale(emv, amount, { PosEntryMode: 'Contactless', ...overrides }));

  it('a tap approves; the answer carries no issuer EmvData (the card has left the field)', async () => {
    for (const pan of ['4111111111111111', '5555555555554444', '4012888888881881']) {
      const card = contactlessCard(pan);
      try {
        const emv = card.tap(1234);
        expect(tagOf(emv, '9F39')).toBe('07');
        const res = await tapSale(emv, 12.34);
        expect(res.body).toMatchObject({ ResponseCode: ResponseCode.Success, LastFour: pan.slice(-4) });
        expect(res.body.EmvData).toBeUndefined();
      } finally {
        card.close();
      }
    }
  });

  it('a made-up or altered cryptogram is declined (EmvCryptogramInvalid), with 9F39 07 or without 9F39', async () => {
    const card = contactlessCard('4242424242424242');
    try {
      const emv = card.tap(500);
      const arqc = tagOf(emv, '9F26') ?? '';
      const flipped = `${arqc.slice(0, -1)}${arqc.endsWith('0') ? '1' : '0'}`;
      expect((await tapSale(withTag(emv, '9F26', flipped), 5)).body).toMatchObject(
        declined(DeclineCode.EmvCryptogramInvalid),
      );
      // The amount raised in 9F02 and in the request alike: the ARQC no longer covers it.
      expect((await tapSale(withTag(emv, '9F02', '000000050000'), 500)).body).toMatchObject(
        declined(DeclineCode.EmvCryptogramInvalid),
      );
      const noEntryMode = withoutTag(card.tap(500), '9F39');
      expect((await tapSale(withTag(noEntryMode, '9F26', '0123456789ABCDEF'), 5)).body).toMatchObject(
        declined(DeclineCode.EmvCryptogramInvalid),
      );
      // Genuine without 9F39: verified as any other.
      expect((await tapSale(withoutTag(card.tap(500), '9F39'), 5)).body.ResponseCode).toBe(
        ResponseCode.Success,
      );
    } finally {
      card.close();
    }
  });

  it('a replayed tap and a stale one are declined (EmvTransactionCounterReplayed)', async () => {
    const card = contactlessCard('2223003122003222');
    try {
      const first = card.tap(700);
      const second = card.tap(700);
      expect((await tapSale(second, 7)).body.ResponseCode).toBe(ResponseCode.Success);
      expect((await tapSale(second, 7)).body).toMatchObject(
        declined(DeclineCode.EmvTransactionCounterReplayed),
      );
      expect((await tapSale(first, 7)).body).toMatchObject(
        declined(DeclineCode.EmvTransactionCounterReplayed),
      );
    } finally {
      card.close();
    }
  });

  it('a genuine tap over another amount is declined (EmvAmountMismatch); one without its ARQC (EmvCryptogramMissing)', async () => {
    const card = contactlessCard('5555555555554444');
    try {
      expect((await tapSale(card.tap(900), 99)).body).toMatchObject(declined(DeclineCode.EmvAmountMismatch));
      expect((await tapSale(withoutTag(card.tap(900), '9F26'), 9)).body).toMatchObject(
        declined(DeclineCode.EmvCryptogramMissing),
      );
    } finally {
      card.close();
    }
  });

  it('a tap of a card whose scheme the sandbox issuer has no keys for is declined (EmvCryptogramVersionUnsupported)', async () => {
    const card = contactlessCard('378282246310005');
    try {
      expect((await tapSale(card.tap(300), 3)).body).toMatchObject(
        declined(DeclineCode.EmvCryptogramVersionUnsupported),
      );
    } finally {
      card.close();
    }
  });
});

describe('the ATC register holds across gateway processes (the database, not memory)', () => {
  it('an ARQC approved by one process is refused as a replay by the next one on the same data', async () => {
    const t = chipTerminal('4012888888881881');
    const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-atc-'));
    const first = await startGateway({ dataDir });
    let second: TestGateway | undefined;
    try {
      const read = await t.read(800);
      expect(
        (await first.post('/api/Transactions/Sale', chipSale(read.emvTlvHex, 8))).body.ResponseCode,
      ).toBe(ResponseCode.Success);
      await first.close();
      second = await startGateway({ dataDir });
      const replay = await second.post('/api/Transactions/Sale', chipSale(read.emvTlvHex, 8));
      expect(replay.body).toMatchObject(declined(DeclineCode.EmvTransactionCounterReplayed));
      const next = await t.read(800);
      expect(
        (await second.post('/api/Transactions/Sale', chipSale(next.emvTlvHex, 8))).body.ResponseCode,
      ).toBe(ResponseCode.Success);
    } finally {
      await t.close();
      await second?.close();
      const schema = schemaOf(dataDir);
      if (schema) await dropSchema(schema);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
