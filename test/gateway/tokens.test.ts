import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { merchant1, merchant2, startGateway, utn, type TestGateway } from '../support/gateway-harness';

describe('GatewayAdmin token operations', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });
  const forCard = (body: Record<string, unknown>, m: Record<string, unknown> = merchant1) =>
    gw.post('/api/GatewayAdmin/GetTokenForCard', { ...m, ...body });

  it('stores a card and finds it by identifier, masked, for its user only', async () => {
    const stored = await forCard({
      Account: '4242424242424242',
      expDate: '1230',
      NameOnCard: 'Pat Smith',
      clientRef: 'C-1',
      cv: '123',
    });
    expect(stored.body).toMatchObject({
      ResponseCode: 200,
      LastFour: '4242',
      CardType: 'Visa',
      ExpirationDate: '1230',
    });
    const one = await gw.post('/api/GatewayAdmin/GetTokenByIdentifier', {
      ...merchant1,
      Identifier: stored.body.Identifier,
    });
    expect(one.body).toMatchObject({ ResponseCode: 200, Supported: true, OperationCode: 'OK' });
    const tokens = one.body.Tokens as Record<string, unknown>[];
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({
      Account: '424242******4242',
      CardHolderName: 'Pat Smith',
      ClientRef: 'C-1',
      ExpirationDate: '1230',
      Token: stored.body.Token,
    });
    expect(JSON.stringify(one.body)).not.toContain('4242424242424242');
  });

  it('repeated requests for one card create several records, all listed by GetTokensByIdentifier', async () => {
    const a = await forCard({ Account: '6011111111111117', expDate: '1129' });
    const b = await forCard({ Account: '6011111111111117', expDate: '1129' });
    await forCard({ Account: '378282246310005', expDate: '1129' });
    expect(a.body.Token).not.toBe(b.body.Token);
    const all = await gw.post('/api/GatewayAdmin/GetTokensByIdentifier', {
      ...merchant1,
      Identifier: a.body.Identifier,
    });
    const tokens = all.body.Tokens as Record<string, unknown>[];
    expect(tokens.map((t) => t.Token).sort()).toEqual([a.body.Token, b.body.Token].sort());
  });

  it('answers 404 for a missing or unknown identifier, never the vault', async () => {
    for (const Identifier of [undefined, '', 'id_unknown', '%']) {
      const r = await gw.post('/api/GatewayAdmin/GetTokensByIdentifier', { ...merchant1, Identifier });
      expect(r.body.ResponseCode).toBe(404);
      expect(r.body.Tokens).toEqual([]);
    }
  });

  it("never shows another merchant's records", async () => {
    const stored = await forCard({ Account: '5555555555554444', expDate: '1230' });
    // Merchant 1002's processor cannot look tokens up at all.
    const other = await gw.post('/api/GatewayAdmin/GetTokenByIdentifier', {
      ...merchant2,
      Identifier: stored.body.Identifier,
    });
    expect(other.body).toMatchObject({
      ResponseCode: 300,
      Supported: false,
      OperationCode: 'OPERATION_NOT_SUPPORTED',
      Tokens: [],
    });
    const sale = await gw.post('/api/Transactions/SaleWithToken', {
      ...merchant2,
      Amount: 1,
      TransactionType: 2,
      Token: stored.body.Token,
      UserTransactionNumber: utn(),
    });
    expect(sale.body.ResponseCode).toBe(404);
  });

  it("an ExistingToken is unique per merchant: another merchant's token of that value is not revealed", async () => {
    const token = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
    const theirs = await forCard(
      { Account: '5555555555554444', expDate: '1230', ExistingToken: token },
      merchant2,
    );
    expect(theirs.body.ResponseCode).toBe(ResponseCode.Success);
    // Merchant 1 learns nothing of it: the same value stores for it too, as its own.
    const ours = await forCard({ Account: '4242424242424242', expDate: '1230', ExistingToken: token });
    expect(ours.body).toMatchObject({ ResponseCode: ResponseCode.Success, Token: token, LastFour: '4242' });
    expect((await forCard({ Account: '4242424242424242', ExistingToken: token })).body.ResponseCode).toBe(
      ResponseCode.AlreadyExists,
    );
    // Each merchant's token charges its own card.
    const sale = (m: Record<string, unknown>) =>
      gw.post('/api/Transactions/SaleWithToken', {
        ...m,
        Amount: 3,
        TransactionType: 2,
        Token: token,
        UserTransactionNumber: utn(),
      });
    expect((await sale(merchant1)).body).toMatchObject({
      ResponseCode: ResponseCode.Success,
      LastFour: '4242',
    });
    expect((await sale(merchant2)).body).toMatchObject({
      ResponseCode: ResponseCode.Success,
      LastFour: '4444',
    });
  });

  it('serves the group at its older path /api/MonetraAdmin/* too, paths in any case', async () => {
    const stored = await gw.post('/api/MonetraAdmin/GetTokenForCard', {
      ...merchant1,
      Account: '4242424242424242',
      expDate: '1230',
    });
    expect(stored.body.ResponseCode).toBe(ResponseCode.Success);
    const found = await gw.post('/api/monetraadmin/gettokenbyidentifier', {
      ...merchant1,
      Identifier: stored.body.Identifier,
    });
    expect(found.body).toMatchObject({ ResponseCode: ResponseCode.Success, Supported: true });
    expect((found.body.Tokens as Record<string, unknown>[])[0]).toMatchObject({ Token: stored.body.Token });
    // Every Gateway Admin operation, not only the token ones (the alias table maps the group).
    const exists = await gw.post('/api/MonetraAdmin/DoesUserExist', merchant1);
    expect(exists.body).toMatchObject({ ResponseCode: ResponseCode.Success, UserExists: true });
    expect((await gw.post('/api/MonetraAdmin/NoSuchOperation', merchant1)).status).toBe(404);
  });

  it('keeps an ExistingToken as given, once, and validates the card', async () => {
    const existing = '11111111-2222-4333-8444-555555555555';
    const r = await forCard({ Account: '4111111111111111', expDate: '1230', ExistingToken: existing });
    expect(r.body.Token).toBe(existing);
    expect((await forCard({ Account: '4111111111111111', ExistingToken: existing })).body.ResponseCode).toBe(
      426,
    );
    // Card data that cannot be stored is the real catalog's 25 (token not generated); CardNumber is no alias.
    expect((await forCard({ Account: '4111111111111112' })).body.ResponseCode).toBe(
      ResponseCode.TokenNotGenerated,
    );
    expect((await forCard({ CardNumber: '4111111111111111' })).body.ResponseCode).toBe(
      ResponseCode.TokenNotGenerated,
    );
    const sale = await gw.post('/api/Transactions/SaleWithToken', {
      ...merchant1,
      Amount: 2,
      TransactionType: 2,
      Token: existing,
      UserTransactionNumber: utn(),
    });
    expect(sale.body.ResponseCode).toBe(200);
  });
});
