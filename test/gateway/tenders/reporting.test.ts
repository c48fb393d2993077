import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommands } from '../../../gateway/admin/commands';
import { loadDisputes } from '../../../gateway/domain/disputes';
import { STATEMENTS_TASK } from '../../../gateway/schedulers/statements';
import {
  keyedSale,
  ManualClock,
  merchant1,
  merchant2,
  startGateway,
  utn,
  type Json,
  type TestGateway,
} from '../../support/gateway-harness';
import { allText, bearer, ebtBody, gift, giftBody } from './helpers';
import { databaseArgs, testDatabaseFor } from '../../support/test-database';
import { DeclineCode } from '../../../gateway/contract/decline-codes';
import { ResponseCode } from '../../../gateway/contract/response-codes';

const run = promisify(execFile);

type Reply = { status: number; body: Json };

describe('Reporting group', () => {
  // Monday 10 February 2025, 10:00 in New York.
  const clock = new ManualClock(new Date('2025-02-10T15:00:00Z'));
  let gw: TestGateway;
  let auth1: Record<string, string>;
  let auth2: Record<string, string>;
  let visaSale = '';

  const report = (op: string, body: Json = {}, headers: Record<string, string> = auth1): Promise<Reply> =>
    gw.post(`/api/Reporting/${op}`, body, { headers });
  const rows = (r: Reply) => r.body.Result as Json[];

  beforeAll(async () => {
    gw = await startGateway({ clock, backgroundTasks: false });
    const sale = await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 10 }));
    visaSale = String(sale.body.ServiceReferenceNumber);
    await gw.post(
      '/api/Transactions/Sale',
      keyedSale({
        Amount: 15,
        CardNumber: undefined,
        ExpDate: undefined,
        CVN: undefined,
        Track2: '5555555555554444=30121010000000000',
      }),
    );
    await gw.post(
      '/api/Transactions/Sale',
      keyedSale({ Amount: 20, CardNumber: '378282246310005', CVN: '1234' }),
    );
    await gw.post('/api/Transactions/DoRefund', {
      ...merchant1,
      ServiceTransactionNumber: visaSale,
      Amount: 5,
      UserTransactionNumber: utn('refund'),
    });
    await gw.post('/api/GiftCard/Sale', giftBody(gift.hundred, { Amount: 4.44 }));
    await gw.post('/api/EbtTransaction/EbtFoodStampSale', ebtBody('5077010000000014', { Amount: 3 }));
    const declined = await gw.post(
      '/api/Transactions/Sale',
      keyedSale({ Amount: 1, CardNumber: '4000000000000002' }),
    );
    expect(declined.body).toMatchObject({
      ResponseCode: ResponseCode.Declined,
      DeclineCode: DeclineCode.Declined,
    });
    expect((await gw.post('/api/Transactions/DoSettlement', { ...merchant1 })).body.AmountSettled).toBe(
      47.44,
    );

    clock.set(new Date('2025-02-11T15:00:00Z'));
    await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 7 }));
    await gw.post('/api/Transactions/DoSettlement', { ...merchant1 });
    await gw.post('/api/Transactions/DoCloseAllSettledTransaction', { ...merchant1 });

    await gw.post('/api/Transactions/Sale', keyedSale({ ...merchant2, Amount: 99 }));
    await gw.post('/api/Transactions/DoSettlement', { ...merchant2 });

    const loaded = await loadDisputes(
      gw.gateway.storage,
      [
        {
          mid: 1001,
          kind: 'chargeback',
          recordId: 1,
          caseNumber: 'CB-1',
          serviceReferenceNumber: visaSale,
          reportDate: '2025-02-20',
          cbType: '1',
          cbTypeDescription: 'First chargeback',
          reasonCode: '10.4',
          reasonCodeDescription: 'Other fraud, card-absent environment',
          disposition: 'Open',
          preDispute: 'N',
        },
        {
          mid: 1001,
          kind: 'chargeback',
          recordId: 2,
          caseNumber: 'CB-1',
          serviceReferenceNumber: visaSale,
          reportDate: '2025-02-25',
          cbType: '2',
          cbTypeDescription: 'Representment',
          reasonCode: '10.4',
          disposition: 'Represented',
        },
        {
          mid: 1001,
          kind: 'retrieval',
          recordId: 3,
          caseNumber: 'RR-1',
          cardNumber: '4111111111111111',
          amount: 20,
          transactionDate: '2025-02-10',
          reportDate: '2025-02-21',
          dateReceived: '2025-02-21',
          dueDate: '2025-03-07',
          reasonCode: '27',
          reasonCodeDescription: 'Copy requested',
          requestType: 'Copy',
        },
      ],
      clock.now(),
    );
    expect(loaded).toEqual({ ok: true, chargebacks: 2, retrievals: 1 });
    auth1 = await bearer(gw, merchant1);
    auth2 = await bearer(gw, merchant2);
  });
  afterAll(async () => {
    await gw.close();
  });

  it('requires a valid bearer token of the Reporting scope', async () => {
    const none = await gw.post('/api/Reporting/GetCardSummary', {});
    expect(none.body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
    const envelope = await gw.post('/api/Reporting/GetCardSummary', { ...merchant1 });
    expect(envelope.body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
    const token = auth1.authorization?.slice('Bearer '.length) ?? '';
    const [payload = '', sig = ''] = token.split('.');
    const forgedSig = `${payload}.${sig.startsWith('A') ? 'B' : 'A'}${sig.slice(1)}`;
    expect(
      (await report('GetCardSummary', {}, { authorization: `Bearer ${forgedSig}` })).body.ResponseCode,
    ).toBe(ResponseCode.AuthenticationFailed);
    // A payload rewritten to merchant 1002 keeps the old signature: refused.
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Json;
    const rewritten = Buffer.from(JSON.stringify({ ...claims, mid: 1002 })).toString('base64url');
    expect(
      (await report('GetCardSummary', {}, { authorization: `Bearer ${rewritten}.${sig}` })).body.ResponseCode,
    ).toBe(ResponseCode.AuthenticationFailed);
    const threeDs = await gw.post('/api/Auth/TokenThreeDS', { ...merchant1 });
    expect(
      (await report('GetCardSummary', {}, { authorization: `Bearer ${String(threeDs.body.Token)}` })).body
        .ResponseCode,
    ).toBe(ResponseCode.AuthenticationFailed);
  });

  it('summarizes settled batches by merchant: paged rows, Total over the full result', async () => {
    const r = await report('GetBatchSummaryByMerchant', { PageSize: 1 });
    expect(r.body).toMatchObject({
      ResponseCode: 200,
      ErrorMessages: [],
      Paging: { CurrentPageIndex: 0, NumberOfRecords: 2, PageSize: 1 },
    });
    expect(rows(r)).toEqual([
      expect.objectContaining({
        BatchNumber: '000001',
        ReportDate: '2025-02-10',
        SaleAmount: 52.44,
        ReturnAmount: 5,
        NetAmount: 47.44,
        TransactionCount: 6,
        KeyedCount: 5,
        KeyedPercent: 83.33,
        AvgTrans: 10.49,
      }),
    ]);
    expect(r.body.Total).toMatchObject({
      SaleAmount: 59.44,
      ReturnAmount: 5,
      NetAmount: 54.44,
      TransactionCount: 7,
      KeyedCount: 6,
    });
    const second = await report('GetBatchSummaryByMerchant', { PageSize: 1, CurrentPageIndex: 1 });
    expect(rows(second)).toEqual([
      expect.objectContaining({ BatchNumber: '000002', NetAmount: 7, ReportDate: '2025-02-11' }),
    ]);
    expect(second.body.Total).toEqual(r.body.Total);
    const beyond = await report('GetBatchSummaryByMerchant', { CurrentPageIndex: 5 });
    expect(rows(beyond)).toHaveLength(0);
    expect(beyond.body.Paging).toMatchObject({ NumberOfRecords: 2 });
    const oneDay = await report('GetBatchSummaryByMerchant', {
      FromDate: '2025-02-11',
      ToDate: '02/11/2025',
    });
    expect(rows(oneDay).map((b) => b.BatchNumber)).toEqual(['000002']);
    expect(oneDay.body.Total).toMatchObject({ NetAmount: 7 });
  });

  it('details a batch with masked card numbers and signed amounts', async () => {
    const r = await report('GetBatchDetail', { BatchNumber: '000001' });
    const detail = rows(r);
    expect(detail).toHaveLength(6);
    expect(detail[0]).toMatchObject({
      CardNumber: '411111******1111',
      CardType: 'Visa',
      CardDescription: 'Visa',
      Keyed: 'Y',
      TransactionCode: 'S',
      TransactionDescription: 'Credit sale',
      TransactionAmount: 10,
      TransactionID: visaSale,
      ReportDate: '2025-02-10',
    });
    expect(detail.find((d) => d.CardType === 'Mastercard')).toMatchObject({
      Keyed: 'N',
      EntryModeDescription: 'Swiped',
    });
    expect(detail.find((d) => d.TransactionCode === 'R')).toMatchObject({
      TransactionAmount: -5,
      CardNumber: '411111******1111',
    });
    expect(detail.find((d) => d.CardType === 'EBT')).toMatchObject({
      DebitRoutingMethodID: 1,
      CardNumber: '507701******0014',
    });
    expect(detail.find((d) => d.CardType === 'GiftCard')).toMatchObject({ TransactionAmount: 4.44 });
    expect(r.body.Total).toMatchObject({ TransactionAmount: 47.44 });
    const text = allText(r.body);
    for (const pan of [
      '4111111111111111',
      '5555555555554444',
      '378282246310005',
      '6035710000000018',
      '5077010000000014',
    ]) {
      expect(text).not.toContain(pan);
    }
    const paged = await report('GetBatchDetail', { BatchNumber: '000001', PageSize: 4, CurrentPageIndex: 1 });
    expect(rows(paged)).toHaveLength(2);
    expect(paged.body.Paging).toMatchObject({ NumberOfRecords: 6, CurrentPageIndex: 1, PageSize: 4 });
    expect(paged.body.Total).toMatchObject({ TransactionAmount: 47.44 });
    const byDate = await report('GetBatchDetail', { ReportDate: '2025-02-11' });
    expect(rows(byDate)).toEqual([expect.objectContaining({ TransactionAmount: 7 })]);
    expect(rows(await report('GetBatchDetail', { BatchNumber: '999999' }))).toHaveLength(0);
  });

  it('shows the card mix and the entity summaries', async () => {
    const cards = await report('GetCardSummary');
    expect(rows(cards).map((c) => c.CardType)).toEqual(['Amex', 'EBT', 'GiftCard', 'Mastercard', 'Visa']);
    expect(rows(cards).find((c) => c.CardType === 'Visa')).toMatchObject({
      SaleAmount: 17,
      ReturnAmount: 5,
      NetAmount: 12,
      SaleCount: 2,
      ReturnCount: 1,
    });
    expect(rows(cards).find((c) => c.CardType === 'Amex')).toMatchObject({
      CardDescription: 'American Express',
    });
    expect(cards.body.Total).toMatchObject({
      SaleAmount: 59.44,
      NetAmount: 54.44,
      SaleCount: 6,
      ReturnCount: 1,
    });
    const firstBatch = await report('GetCardSummary', { BatchNumber: '000002' });
    expect(rows(firstBatch)).toEqual([expect.objectContaining({ CardType: 'Visa', SaleAmount: 7 })]);

    const merchant = await report('GetBatchSummaryByEntity');
    expect(rows(merchant)).toEqual([
      expect.objectContaining({
        EntityType: 'Merchant',
        EntityId: '1001',
        EntityName: 'Tillpoint Demo Store',
        NetAmount: 54.44,
      }),
    ]);
    const cashiers = await report('GetBatchSummaryByEntity', { ViewLevel: 1 });
    expect(rows(cashiers)).toEqual([
      expect.objectContaining({ EntityType: 'Cashier', EntityId: '1', TransactionCount: 7 }),
    ]);
    const only = await report('GetBatchSummaryByEntity', {
      ViewLevel: 1,
      HierarchyFilterMode: 1,
      HierarchyFilterValue: '1',
    });
    expect(rows(only)).toHaveLength(1);
    const other = await report('GetBatchSummaryByEntity', {
      ViewLevel: 1,
      HierarchyFilterMode: 1,
      HierarchyFilterValue: '2',
    });
    expect(rows(other)).toHaveLength(0);
    expect(other.body.Total).toMatchObject({ NetAmount: 0 });
    // At ViewLevel 0 the one entity is the merchant itself; at level 1 a cashier id is a number.
    const self = { HierarchyFilterMode: 1, HierarchyFilterValue: '1001' };
    expect(rows(await report('GetBatchSummaryByEntity', self))).toEqual(rows(merchant));
    expect(rows(await report('GetCardSummary', self))).toEqual(rows(await report('GetCardSummary')));
    const stranger = { HierarchyFilterMode: 1, HierarchyFilterValue: '1002' };
    expect(rows(await report('GetAuthorizationLogSummary', stranger))).toHaveLength(0);
    expect(rows(await report('GetCardSummary', stranger))).toHaveLength(0);
    const notAnId = { ViewLevel: 1, HierarchyFilterMode: 1, HierarchyFilterValue: 'one' };
    expect(rows(await report('GetAuthorizationLogSummary', notAnId))).toHaveLength(0);

    const log = await report('GetAuthorizationLogSummary');
    expect(rows(log)).toEqual([
      expect.objectContaining({ EntityId: '1001', AuthorizationCount: 7, AuthorizationAmount: 60.44 }),
    ]);
    expect(log.body.Total).toMatchObject({ AuthorizationCount: 7, AuthorizationAmount: 60.44 });
    const firstDay = await report('GetAuthorizationLogSummary', {
      FromDate: '2025-02-10',
      ToDate: '2025-02-10',
    });
    expect(firstDay.body.Total).toMatchObject({ AuthorizationCount: 6 });
  });

  it('treats the closed batches as one deposit per close', async () => {
    const r = await report('GetDepositsSummary');
    expect(rows(r)).toEqual([
      expect.objectContaining({
        DepositAmount: 54.44,
        TransactionCode: '22',
        TransactionType: 'C',
        ReportDate: '2025-02-11',
        DDANumber: '********6789',
        RoutingNumber: '*****0015',
      }),
    ]);
    expect(String(rows(r)[0]?.TraceNumber)).toMatch(/^\d{15}$/);
    expect(r.body.Total).toMatchObject({ DepositAmount: 54.44 });
    expect(rows(await report('GetDepositsSummary', {}, auth2))).toHaveLength(0);
  });

  it('reads chargebacks (every record, or each case once) and retrievals from the dispute feed', async () => {
    const detail = await report('GetChargebacksDetail');
    expect(rows(detail)).toHaveLength(2);
    expect(rows(detail)[0]).toMatchObject({
      CaseNumber: 'CB-1',
      RecordID: 1,
      CardNumber: '411111******1111',
      CardType: 'Visa',
      RepresentedCBAmount: 10,
      ReferenceNumber: visaSale,
      ReasonCode: '10.4',
    });
    expect(detail.body.Total).toMatchObject({ RepresentedCBAmount: 20 });
    const summary = await report('GetChargebacksSummary');
    expect(rows(summary)).toEqual([expect.objectContaining({ RecordID: 2, Disposition: 'Represented' })]);
    const ranged = await report('GetChargebacksDetail', { FromDate: '2025-02-21' });
    expect(rows(ranged).map((c) => c.RecordID)).toEqual([2]);
    const ret = await report('GetRetrievalsDetail');
    expect(rows(ret)).toEqual([
      expect.objectContaining({
        CardNumber: '411111******1111',
        TransactionAmount: 20,
        DueDate: '2025-03-07',
        RequestType: 'Copy',
      }),
    ]);
    expect(allText(ret.body)).not.toContain('4111111111111111');
    expect(rows(await report('GetChargebacksDetail', {}, auth2))).toHaveLength(0);
  });

  it('loads disputes with the admin command (all or nothing, no card number in its errors)', async () => {
    const dir = gw.dataDir;
    const good = join(dir, 'disputes.json');
    writeFileSync(
      good,
      JSON.stringify([
        {
          mid: 1002,
          kind: 'chargeback',
          recordId: 1,
          caseNumber: 'CB-9',
          amount: 99,
          reportDate: '2025-02-12',
          cardNumber: '4242424242424242',
        },
      ]),
    );
    const ok = await run(process.execPath, [
      '--import',
      'tsx',
      'gateway/admin/cli.ts',
      'load-disputes',
      '--data',
      dir,
      ...(await databaseArgs(dir)),
      '--file',
      good,
    ]);
    expect(JSON.parse(ok.stdout)).toEqual({ loaded: { chargebacks: 1, retrievals: 0 } });
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify([
        {
          mid: 1002,
          kind: 'chargeback',
          recordId: 2,
          caseNumber: 'CB-10',
          amount: 1.234,
          reportDate: '2025-02-12',
        },
        {
          mid: 1002,
          kind: 'chargeback',
          recordId: 3,
          caseNumber: 'CB-11',
          amount: 1,
          reportDate: '2025-02-12',
          cardNumber: '4242424242424241',
        },
        { mid: 9999, kind: 'retrieval', recordId: 4, caseNumber: 'RR', amount: 1, reportDate: '2025-02-12' },
      ]),
    );
    // The command itself, in process (a second CLI start costs seconds on a busy machine).
    const command = adminCommands['load-disputes'];
    const context = { dataDir: dir, storage: gw.gateway.storage, database: await testDatabaseFor(dir) };
    const failed = await command?.run({ file: bad }, context).then(
      () => null,
      (e: Error) => e,
    );
    expect(failed?.message).toMatch(/3 problem/);
    expect(failed?.message).not.toContain('4242424242424241');
    const theirs = await report('GetChargebacksDetail', {}, auth2);
    expect(rows(theirs)).toEqual([
      expect.objectContaining({ CaseNumber: 'CB-9', CardNumber: '424242******4242' }),
    ]);
    expect(rows(await report('GetChargebacksDetail'))).toHaveLength(2);
  });

  it('issues monthly statements from the recorded data once the month closes, once, per merchant', async () => {
    const statements = gw.gateway.tasks.get(STATEMENTS_TASK);
    if (!statements) throw new Error('no statements task');
    await statements.runOnce();
    // February is still open: nothing to issue yet.
    expect(rows(await report('GetMerchantStatementList'))).toHaveLength(0);
    clock.set(new Date('2025-03-05T15:00:00Z'));
    const fresh = await bearer(gw, merchant1);
    // A request reads what was issued; it never issues (a restore would make it read every month).
    expect(rows(await report('GetMerchantStatementList', {}, fresh))).toHaveLength(0);
    await statements.runOnce();
    const list = await report('GetMerchantStatementList', { MerchantNumber: '1001' }, fresh);
    expect(list.body.Result).toEqual([
      {
        MerchantNumber: '1001',
        StatementDate: '2025-02-28',
        StatementId: 'ST-1001-202502',
        Zones: ['Summary', 'CardMix', 'Batches', 'Deposits', 'Disputes'],
      },
    ]);
    const full = await report('GetMerchantStatement', { StatementId: 'ST-1001-202502' }, fresh);
    const data = JSON.parse(String((full.body.Result as Json).StatementData)) as { Zones: { Summary: Json } };
    expect(data.Zones.Summary).toMatchObject({
      SaleCount: 6,
      SaleAmount: 59.44,
      ReturnAmount: 5,
      NetAmount: 54.44,
      DepositAmount: 54.44,
      ChargebackCount: 2,
      ChargebackAmount: 20,
    });
    const mix = await report(
      'GetMerchantStatement',
      { StatementId: 'ST-1001-202502', Zone: 'CardMix' },
      fresh,
    );
    expect(JSON.parse(String((mix.body.Result as Json).StatementData))).toHaveLength(5);
    expect(allText(full.body)).not.toContain('4111111111111111');
    // Issued once: a later pass changes nothing, listing again gives the same one.
    await statements.runOnce();
    expect((await report('GetMerchantStatementList', {}, fresh)).body.Result).toHaveLength(1);
    const bad = await report(
      'GetMerchantStatement',
      { StatementId: 'ST-1001-202502', Zone: 'Secrets' },
      fresh,
    );
    expect(bad.body).toMatchObject({ ResponseCode: 400 });
    expect(bad.body.ErrorMessages).toHaveLength(1);
    const theirs = await bearer(gw, merchant2);
    expect(
      (await report('GetMerchantStatement', { StatementId: 'ST-1001-202502' }, theirs)).body.ResponseCode,
    ).toBe(404);
    expect(rows(await report('GetMerchantStatementList', {}, theirs))).toEqual([
      expect.objectContaining({ StatementId: 'ST-1002-202502' }),
    ]);
    expect((await report('GetMerchantStatement', {}, fresh)).body.ResponseCode).toBe(400);
  });

  it("never shows another merchant's data, refuses bad paging and dates with ErrorMessages", async () => {
    const fresh1 = await bearer(gw, merchant1);
    const other = await report('GetBatchSummaryByMerchant', { MerchantNumber: '1002' }, fresh1);
    expect(other.body).toMatchObject({ ResponseCode: ResponseCode.MerchantAccessDenied, Result: [] });
    expect(other.body.ErrorMessages).toEqual([
      "MerchantNumber is not the token's merchant: a token reports on its own merchant only",
    ]);
    const fresh2 = await bearer(gw, merchant2);
    const theirs = await report('GetBatchSummaryByMerchant', {}, fresh2);
    expect(rows(theirs)).toEqual([expect.objectContaining({ NetAmount: 99 })]);
    expect(allText(theirs.body)).not.toContain('54.44');
    for (const body of [{ PageSize: 0 }, { PageSize: 501 }, { CurrentPageIndex: -1 }]) {
      const r = await report('GetCardSummary', body, fresh1);
      expect(r.body.ResponseCode, JSON.stringify(body)).toBe(660);
      expect(r.body.ErrorMessages).toHaveLength(1);
    }
    expect((await report('GetCardSummary', { PageSize: 500 }, fresh1)).body.ResponseCode).toBe(200);
    expect((await report('GetCardSummary', { PageSize: 'ten' }, fresh1)).body.ResponseCode).toBe(400);
    expect((await report('GetCardSummary', { FromDate: 'last week' }, fresh1)).body.ResponseCode).toBe(400);
    expect((await report('GetCardSummary', { FromDate: '2025-02-30' }, fresh1)).body.ResponseCode).toBe(400);
    expect(
      (await report('GetCardSummary', { FromDate: '2025-02-12', ToDate: '2025-02-10' }, fresh1)).body
        .ResponseCode,
    ).toBe(400);
    expect((await report('GetCardSummary', { ViewLevel: 3 }, fresh1)).body.ResponseCode).toBe(400);
    expect((await report('GetCardSummary', { HierarchyFilterMode: 1 }, fresh1)).body.ResponseCode).toBe(400);
    const hostile = await report('GetBatchDetail', { BatchNumber: "000001' OR '1'='1" }, fresh1);
    expect(rows(hostile)).toHaveLength(0);
  });

  it('refuses an expired token', async () => {
    const token = await bearer(gw, merchant1);
    clock.advance(16 * 60_000);
    expect((await report('GetCardSummary', {}, token)).body.ResponseCode).toBe(
      ResponseCode.AuthenticationFailed,
    );
  });
});
