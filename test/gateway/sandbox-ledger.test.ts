import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../gateway/contract/response-codes';
import type { Processor } from '../../gateway/domain/processor-port';
import { withProcessorLedger } from '../../gateway/sandbox/processor-ledger';
import { keyedSale, merchant1, startGateway, utn, type TestGateway } from '../support/gateway-harness';

/**
 * The sandbox processor's ledger (gateway/sandbox/processor-ledger.ts, `--sandbox-ledger`): what the
 * processor itself authorized, refunded and reversed, kept apart from the gateway's books for the model
 * checker (docs/model-checker.md).
 */
describe('the sandbox processor ledger', () => {
  const slowMs = 400;
  let gw: TestGateway;
  let plain: TestGateway;
  beforeAll(async () => {
    [gw, plain] = await Promise.all([
      startGateway({ sandboxLedger: true, sandboxSlowMs: slowMs }),
      startGateway({ sandboxSlowMs: slowMs }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([gw.close(), plain.close()]);
  });

  const ledgerOf = (g: TestGateway, authCode: string) =>
    g.gateway.storage.read.all(
      g.gateway.storage.read.qb
        .selectFrom('sandbox_processor_ledger')
        .select(['mid', 'event', 'authorization_kind', 'amount_cents', 'reference', 'slow'])
        .where('auth_code', '=', authCode)
        .orderBy('id'),
    );

  it('records the authorization, each refund and the reversal, by authorization number', async () => {
    const sale = (await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 10, TaxAmount: 0.8 }))).body;
    expect(sale.ResponseCode).toBe(ResponseCode.Success);
    const code = String(sale.AuthorizationNumber);
    const refund = await gw.post('/api/Transactions/DoRefund', {
      ...merchant1,
      ServiceTransactionNumber: sale.ServiceReferenceNumber,
      Amount: 4,
      UserTransactionNumber: utn('ledger-refund'),
    });
    expect(refund.body.ResponseCode).toBe(ResponseCode.Success);
    const other = (await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 7 }))).body;
    const voided = await gw.post('/api/Transactions/DoVoid', {
      ...merchant1,
      ServiceTransactionNumber: other.ServiceReferenceNumber,
      UserTransactionNumber: utn('ledger-void'),
    });
    expect(voided.body.ResponseCode).toBe(ResponseCode.Success);

    expect(await ledgerOf(gw, code)).toEqual([
      {
        mid: 1001,
        event: 'authorize',
        authorization_kind: 'sale',
        amount_cents: 1080,
        reference: '',
        slow: 0,
      },
      {
        mid: 1001,
        event: 'refund',
        authorization_kind: '',
        amount_cents: 400,
        reference: refund.body.ServiceReferenceNumber,
        slow: 0,
      },
    ]);
    expect(await ledgerOf(gw, String(other.AuthorizationNumber))).toEqual([
      {
        mid: 1001,
        event: 'authorize',
        authorization_kind: 'sale',
        amount_cents: 700,
        reference: '',
        slow: 0,
      },
      {
        mid: 1001,
        event: 'reverse',
        authorization_kind: '',
        amount_cents: 700,
        reference: other.ServiceReferenceNumber,
        slow: 0,
      },
    ]);
  });

  it("records a completion's capture, and a refund taken back once however often it is asked", async () => {
    const pre = (
      await gw.post('/api/Transactions/PreAuthorization', keyedSale({ TransactionType: 3, Amount: 20 }))
    ).body;
    expect(pre.ResponseCode).toBe(ResponseCode.Success);
    const completion = await gw.post('/api/Transactions/ClosePreauth', {
      ...merchant1,
      ServiceReferenceNumber: pre.ServiceReferenceNumber,
      Amount: 15,
      AdditionalTip: 2,
      UserTransactionNumber: utn('ledger-close'),
    });
    expect(completion.body.ResponseCode).toBe(ResponseCode.Success);
    expect(
      (await ledgerOf(gw, String(pre.AuthorizationNumber))).map((r) => [
        r.event,
        r.amount_cents,
        r.reference,
      ]),
    ).toEqual([
      ['authorize', 2000, ''],
      ['capture', 1700, completion.body.ServiceReferenceNumber],
    ]);

    const sale = (await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 9 }))).body;
    const refund = await gw.post('/api/Transactions/DoRefund', {
      ...merchant1,
      ServiceTransactionNumber: sale.ServiceReferenceNumber,
      Amount: 3,
      UserTransactionNumber: utn('ledger-refund'),
    });
    const voided = await gw.post('/api/Transactions/DoVoid', {
      ...merchant1,
      ServiceTransactionNumber: refund.body.ServiceReferenceNumber,
      UserTransactionNumber: utn('ledger-void-refund'),
    });
    expect([refund.body.ResponseCode, voided.body.ResponseCode]).toEqual([
      ResponseCode.Success,
      ResponseCode.Success,
    ]);
    const code = String(sale.AuthorizationNumber);
    const processor = gw.gateway.services.processor;
    // A retry of the same take-back (a recovery sweep's), and one of a refund the processor never made.
    const retry = {
      mid: 1001,
      amountCents: 300,
      authCode: code,
      reference: String(refund.body.ServiceReferenceNumber),
    };
    expect(await processor.reverseRefund(retry)).toEqual({ ok: true });
    expect(await processor.reverseRefund({ ...retry, reference: 'never-refunded' })).toEqual({ ok: true });
    expect((await ledgerOf(gw, code)).map((r) => [r.event, r.amount_cents])).toEqual([
      ['authorize', 900],
      ['refund', 300],
      ['refund_reversal', 300],
    ]);
  });

  it('keeps nothing for a decline, and nothing at all unless asked to', async () => {
    const declined = await gw.post('/api/Transactions/Sale', keyedSale({ CardNumber: '4000000000000002' }));
    expect(declined.body.ResponseCode).toBe(ResponseCode.Declined);
    const sale = (await plain.post('/api/Transactions/Sale', keyedSale())).body;
    expect(sale.ResponseCode).toBe(ResponseCode.Success);
    expect(await ledgerOf(plain, String(sale.AuthorizationNumber))).toEqual([]);
  });

  it('makes the slow card slow for its refund too, so a refund can be caught at the processor', async () => {
    const sale = (
      await gw.post('/api/Transactions/Sale', keyedSale({ CardNumber: '4000000000000119', Amount: 12 }))
    ).body;
    expect(sale.ResponseCode).toBe(ResponseCode.Success);
    const started = Date.now();
    const refund = await gw.post('/api/Transactions/DoRefund', {
      ...merchant1,
      ServiceTransactionNumber: sale.ServiceReferenceNumber,
      Amount: 2,
      UserTransactionNumber: utn('ledger-slow'),
    });
    expect(refund.body.ResponseCode).toBe(ResponseCode.Success);
    expect(Date.now() - started).toBeGreaterThanOrEqual(slowMs);
    expect((await ledgerOf(gw, String(sale.AuthorizationNumber))).map((r) => [r.event, r.slow])).toEqual([
      ['authorize', 1],
      ['refund', 0],
    ]);
  });

  it('gives every authorization of a merchant its own number, drawing again on a repeat', async () => {
    const same: Processor = {
      name: 'same-number',
      supportsTokenLookup: false,
      authorize: (r) =>
        Promise.resolve({
          approved: true,
          approvedCents: r.totalCents,
          authCode: 'SAME01',
          avs: 'U',
          cvn: 'P',
          message: 'Approved',
        }),
      reverse: () => Promise.resolve(),
      refund: () => Promise.resolve({ ok: true }),
      reverseRefund: () => Promise.resolve({ ok: true }),
      capture: () => Promise.resolve({ ok: true }),
    };
    const ledgered = withProcessorLedger(same, gw.gateway.storage, { slowMs: 0, now: () => new Date() });
    const request = {
      kind: 'sale' as const,
      mid: 1002,
      totalCents: 100,
      cashbackCents: 0,
      card: { pan: '4111111111111111', expiryYYMM: '3012', entryMode: 'KeyEntered', cardType: 'Visa' },
      allowPartial: false,
    };
    const codes = [];
    for (let i = 0; i < 3; i += 1) {
      const r = await ledgered.authorize(request);
      if (!r.approved) throw new Error('the fake processor approves');
      codes.push(r.authCode);
    }
    expect(codes[0]).toBe('SAME01');
    expect(new Set(codes).size).toBe(3);
  });
});
