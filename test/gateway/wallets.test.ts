import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { merchant1, startGateway, utn, type TestGateway } from '../support/gateway-harness';
import { dropSchema, schemaOf } from '../support/test-database';
import { DeclineCode } from '../../gateway/contract/decline-codes';

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64');

/** The decrypted payload the sandbox convention puts (base64) in `data`. */
function paymentData(pan = '4111111111111111') {
  return {
    data: b64({
      applicationPrimaryAccountNumber: pan,
      applicationExpirationDate: '301231',
      paymentData: { onlinePaymentCryptogram: 'AgAAAAAABk4DWZ4C28yUQAAAAAA=' },
    }),
    signature: 'MIAGCSqGSIb3DQEHAqCAMIACAQE',
    version: 'EC_v1',
    header: {
      ephemeralPublicKey: 'MFkwEwYHKoZIzj0CAQY',
      publicKeyHash: 'LbsUwAT6w1JV9tFXocU813TCHks=',
      transactionId: 'aabbcc',
    },
  };
}

function walletB(pan = '5555555555554444') {
  const signedMessage = JSON.stringify({
    encryptedMessage: b64({
      paymentMethod: 'CARD',
      paymentMethodDetails: {
        pan,
        expirationMonth: 12,
        expirationYear: 2030,
        authMethod: 'CRYPTOGRAM_3DS',
        cryptogram: 'AAAAAA',
      },
    }),
    ephemeralPublicKey: 'BOdoXP+9Aq473SnGwg3J',
    tag: 'ZVwlJt7dU8Plk0+r8rPF8DmPTvDiOA1UAoNjDV+SqY=',
  });
  return JSON.stringify({ signature: 'MEYCIQCbtFh9UIf1Ty3', protocolVersion: 'ECv2', signedMessage });
}

describe('device wallet sales', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });
  const walletA = (token: string | undefined, overrides: Record<string, unknown> = {}) =>
    gw.post('/api/Transactions/SaleWithDeviceWalletA', {
      ...merchant1,
      Amount: 7.5,
      UserTransactionNumber: utn('wa'),
      Token: token,
      ForceDuplication: true,
      ...overrides,
    });

  it('accepts every token shape of wallet A', async () => {
    const pd = paymentData();
    const shapes: [string, unknown][] = [
      ['object with paymentData', { paymentData: pd }],
      ['object with token', { token: { paymentData: pd, transactionIdentifier: 'x' } }],
      ['object with token holding payment data', { token: pd }],
      ['bare payment data', pd],
      ['paymentData as a JSON string', { paymentData: JSON.stringify(pd) }],
      ['token as a JSON string', { token: JSON.stringify({ paymentData: pd }) }],
    ];
    for (const [name, shape] of shapes) {
      const r = await walletA(b64(shape));
      expect(r.body.ResponseCode, name).toBe(200);
      expect(r.body.LastFour, name).toBe('1111');
    }
  });

  it('refuses a wallet A token that is missing, not base64 JSON, or lacks its header', async () => {
    expect((await walletA(undefined)).body.ResponseCode).toBe(ResponseCode.MissingToken);
    expect((await walletA('not base64 json!')).body.ResponseCode).toBe(ResponseCode.InvalidWalletToken);
    const { header: _h, ...noHeader } = paymentData();
    expect((await walletA(b64(noHeader))).body.ResponseCode).toBe(ResponseCode.InvalidWalletToken);
    expect(
      (await walletA(b64({ paymentData: { ...paymentData(), data: b64({ nothing: true }) } }))).body
        .ResponseCode,
    ).toBe(ResponseCode.InvalidWalletToken);
  });

  it('accepts a wallet B token as JSON text or base64, and declines per the sandbox card', async () => {
    const post = (token: string | undefined) =>
      gw.post('/api/Transactions/SaleWithDeviceWalletB', {
        ...merchant1,
        Amount: 3,
        UserTransactionNumber: utn('wb'),
        Token: token,
        ForceDuplication: true,
        PosEntryMode: 'NetworkADigitalWallet',
      });
    expect((await post(walletB())).body).toMatchObject({
      ResponseCode: 200,
      LastFour: '4444',
      CardType: 'Mastercard',
    });
    expect((await post(b64(walletB()))).body.ResponseCode).toBe(200);
    expect((await post(walletB('4000000000000002'))).body).toMatchObject({
      ResponseCode: ResponseCode.Declined,
      verbiage: 'DO NOT HONOR',
      DeclineCode: DeclineCode.Declined,
    });
    // A missing token is 3 too (the interface fixes it), but no decline: no DeclineCode.
    const missing = await post(undefined);
    expect(missing.body.ResponseCode).toBe(ResponseCode.MissingToken);
    expect('DeclineCode' in missing.body).toBe(false);
    expect((await post('{"signature":"x"}')).body.ResponseCode).toBe(ResponseCode.InvalidWalletToken);
  });
});

describe('device wallet sales outside the sandbox', () => {
  let gw: TestGateway;
  const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-wallet-prod-'));
  beforeAll(async () => {
    // The folder was a sandbox once (keys, merchants); this gateway runs it without --sandbox.
    const sandbox = await startGateway({ dataDir });
    await sandbox.gateway.close();
    gw = await startGateway({ dataDir, sandbox: false });
  });
  afterAll(async () => {
    await gw.close();
    const schema = schemaOf(dataDir);
    if (schema) await dropSchema(schema);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("refuses the sandbox's test decoding of wallet tokens: real ones need the merchant's certificate", async () => {
    for (const [path, token] of [
      ['/api/Transactions/SaleWithDeviceWalletA', b64({ paymentData: paymentData() })],
      ['/api/Transactions/SaleWithDeviceWalletB', b64(walletB())],
    ] as const) {
      const r = await gw.post(path, {
        ...merchant1,
        Amount: 4,
        UserTransactionNumber: utn('wprod'),
        Token: token,
        ForceDuplication: true,
      });
      expect(r.body.ResponseCode, path).toBe(ResponseCode.OperationNotSupported);
      expect(r.body.LastFour, path).toBeUndefined();
    }
    const rows = (await gw.post('/api/Report/GetReportByMerchant', merchant1)).body.Transactions as unknown[];
    expect(rows).toEqual([]);
  });
});
