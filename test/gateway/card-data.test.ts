import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { keyedSale, merchant1, startGateway, utn } from '../support/gateway-harness';
import { emvData, pinBlock, swipe } from '../support/cards';
import { storedText } from '../support/test-database';
import { SANDBOX_ISSUER_KEYS } from '../../gateway/sandbox/emv-issuer';
import { CRYPTOGRAM_VERSIONS, deriveIccMasterKeys } from '../../native/protocols/emv-cryptogram-versions';
import { bytesToHex } from '../../native/protocols/hex';
import { readIssuerResponse } from '../../native/protocols/emv-issuer-response';
import { chipTerminal, tagOf } from '../support/chip-terminal';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('card data at rest and in logs', () => {
  it('no PAN, CVN, track or PIN block in clear anywhere in the data folder or the log', async () => {
    const log = new PassThrough();
    const chunks: Buffer[] = [];
    log.on('data', (c: Buffer) => chunks.push(c));
    const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-pan-'));
    const gw = await startGateway({ dataDir, logger: { level: 'debug', stream: log } });
    const pans = [
      '4111111111111111',
      '5555555555554444',
      '378282246310005',
      '4242424242424242',
      '6011111111111117',
    ];
    const cvn = '987';
    const pin = pinBlock('5555555555554444');
    const secrets = [...pans, swipe('4111111111111111').slice(1, 30), pin.PinBlock];
    // A contact chip sale (the script trigger card): its ARQC, the issuer's ARPC and script MACs, the
    // card's final TC, and every key of the chain must appear nowhere either.
    const chipPan = '4000000000000424';
    const chip = chipTerminal(chipPan);
    const icc = deriveIccMasterKeys(CRYPTOGRAM_VERSIONS['visa-18'], SANDBOX_ISSUER_KEYS.visa, chipPan, '01');
    secrets.push(
      chipPan,
      ...[SANDBOX_ISSUER_KEYS.visa.ac, SANDBOX_ISSUER_KEYS.visa.smi, SANDBOX_ISSUER_KEYS.visa.smc].map(
        bytesToHex,
      ),
      ...[icc.ac, icc.smi, icc.smc].map(bytesToHex),
    );
    try {
      const read = await chip.read(1234);
      secrets.push(tagOf(read.emvTlvHex, '9F26') ?? 'no ARQC read');
      const chipSale = await gw.post(
        '/api/Transactions/Sale',
        keyedSale({
          CardNumber: undefined,
          ExpDate: undefined,
          CVN: undefined,
          Amount: 12.34,
          EmvData: read.emvTlvHex,
        }),
      );
      const answer = readIssuerResponse(String(chipSale.body.EmvData));
      if (!answer?.issuerAuthData || !answer.scripts)
        throw new Error('the chip sale got no ARPC and scripts');
      secrets.push(answer.issuerAuthData, answer.scripts.slice(-16));
      const done = await chip.complete(answer);
      if (done.kind !== 'completed') throw new Error('the card did not complete');
      secrets.push(tagOf(done.emvTlvHex, '9F26') ?? 'no TC');
    } finally {
      await chip.close();
    }
    try {
      await gw.post(
        '/api/Transactions/Sale',
        keyedSale({ CardNumber: pans[0], CVN: cvn, SaveToken: true, SaveCustomer: true }),
      );
      await gw.post(
        '/api/Transactions/Sale',
        keyedSale({ CardNumber: undefined, Track2: swipe(pans[0] as string), SaveToken: true }),
      );
      await gw.post('/api/Transactions/SaleDebit', {
        ...merchant1,
        Amount: 5,
        TransactionType: 5,
        UserTransactionNumber: utn(),
        Track2: swipe(pans[1] as string),
        ...pin,
      });
      await gw.post(
        '/api/Transactions/Sale',
        keyedSale({ CardNumber: undefined, EmvData: emvData(pans[2] as string, 500) }),
      );
      await gw.post('/api/GatewayAdmin/GetTokenForCard', {
        ...merchant1,
        Account: pans[3],
        expDate: '1230',
        cv: cvn,
      });
      await gw.post('/api/Transactions/Sale', keyedSale({ CardNumber: pans[4], CVN: cvn, ExpDate: 'bad' }));
      await gw.post('/api/Transactions/Sale', null, {
        raw: `{"CardNumber":"${pans[4]}",`,
        contentType: 'application/json',
      });
    } catch (error) {
      await gw.close();
      throw error;
    }
    // Read the files while the gateway runs (the WAL holds the latest pages) and again after close.
    const read = () => filesUnder(dataDir).map((f) => ({ f, text: readFileSync(f).toString('latin1') }));
    // And every row of the database (on PostgreSQL it is not in the folder).
    const texts = [...read(), ...(await storedText(dataDir)).map(({ name, text }) => ({ f: name, text }))];
    await gw.close();
    texts.push(...read());
    rmSync(dataDir, { recursive: true, force: true });
    texts.push({ f: 'log', text: Buffer.concat(chunks).toString('utf8') });
    expect(texts.length).toBeGreaterThan(2);
    // Positive control: what may be kept (first six, last four) is there, so the search does read the data.
    expect(texts.some(({ text }) => text.includes('411111') && text.includes('1111'))).toBe(true);
    for (const { f, text } of texts) {
      for (const s of secrets) expect(text.includes(s), `${s.slice(0, 6)}… found in ${f}`).toBe(false);
      // A CVN is three digits: look for it as a JSON/field value rather than anywhere in binary pages.
      expect(/"CVN"\s*:\s*"987"|cvn=987/i.test(text), `CVN found in ${f}`).toBe(false);
    }
  });
});
