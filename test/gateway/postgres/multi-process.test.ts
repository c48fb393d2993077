import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { keyedSale, merchant1, merchant2, utn, type Json } from '../../support/gateway-harness';
import { postJson, repoRoot, spawnGateway, type SpawnedGateway } from '../../support/spawn-gateway';
import { testDatabaseFor } from '../../support/test-database';
import type { ChildMessage } from './scheduler-child';

/**
 * The rules that SQLite's single writer used to guarantee, now across processes: two real gateway
 * processes (`npm run gateway -- --db …`) on one PostgreSQL database, sent the same conflicting requests
 * at the same moment, one half to each. Every rule must hold in the database (constraints, advisory locks),
 * since neither process can see the other's memory.
 */
describe('two gateway processes on one PostgreSQL database', { timeout: 240_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-mp-'));
  let url = '';
  let gateways: SpawnedGateway[] = [];
  const on = (i: number) => gateways[i % gateways.length] as SpawnedGateway;
  const post = (i: number, path: string, body: Json) => postJson(`${on(i).url}${path}`, body);

  beforeAll(async () => {
    const db = await testDatabaseFor(dataDir);
    if (db.kind !== 'postgres') throw new Error('this file runs in the postgres project only');
    url = db.url;
    const args = ['--port', '0', '--data', dataDir, '--db', url, '--sandbox', '--log-level', 'silent'];
    // Started together on an empty database: one migrates and seeds, the other waits its turn and finds
    // it done (migration and seeding take advisory locks).
    gateways = await Promise.all([
      spawnGateway([...args, '--sandbox-slow-ms', '1200'], {}, 90_000),
      spawnGateway([...args, '--sandbox-slow-ms', '1200'], {}, 90_000),
    ]);
  }, 120_000);

  afterAll(async () => {
    for (const g of gateways) g.child.kill('SIGTERM');
    await Promise.all(gateways.map((g) => g.exited));
    rmSync(dataDir, { recursive: true, force: true });
  });

  const report = async (): Promise<Json[]> =>
    (await post(0, '/api/Report/GetReportByMerchant', merchant1)).Transactions as Json[];

  it('starts both on one fresh database, seeded once', async () => {
    expect(gateways[0]?.url).not.toBe(gateways[1]?.url);
    const applications = await post(0, '/api/BusinessSettings', merchant1);
    expect(applications.ResponseCode).toBe(200);
    expect((await post(1, '/api/BusinessSettings', merchant1)).ResponseCode).toBe(200);
  });

  it('one UserTransactionNumber sent 20 times at once to both: exactly one payment', async () => {
    const number = utn('mp-utn');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(i, '/api/Transactions/Sale', keyedSale({ UserTransactionNumber: number, Amount: 11 })),
      ),
    );
    const codes = answers.map((a) => a.ResponseCode);
    expect(codes.filter((c) => c === ResponseCode.Success)).toHaveLength(1);
    expect(codes.filter((c) => c !== ResponseCode.Success)).toEqual(
      Array.from({ length: 19 }, () => ResponseCode.DuplicateTransactionNumber),
    );
    expect((await report()).filter((t) => t.UserTransactionNumber === number)).toHaveLength(1);
  });

  it('one card and amount sent 10 times at once without ForceDuplication: one approval, nine duplicates', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(
          i,
          '/api/Transactions/Sale',
          keyedSale({ CardNumber: '6011111111111117', Amount: 23.71, ForceDuplication: false }),
        ),
      ),
    );
    const codes = answers.map((a) => a.ResponseCode);
    expect(codes.filter((c) => c === ResponseCode.Success)).toHaveLength(1);
    expect(codes.filter((c) => c === ResponseCode.DuplicatePayment)).toHaveLength(9);
  });

  it('one full refund sent 10 times at once: refunded once; partial refunds never exceed the sale', async () => {
    const sale = await post(0, '/api/Transactions/Sale', keyedSale({ Amount: 50 }));
    expect(sale.ResponseCode).toBe(ResponseCode.Success);
    const srn = String(sale.ServiceReferenceNumber);
    const full = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(i, '/api/Transactions/DoFullRefund', {
          ...merchant1,
          ServiceTransactionNumber: srn,
          UserTransactionNumber: utn('mp-full'),
        }),
      ),
    );
    expect(full.filter((a) => a.ResponseCode === ResponseCode.Success)).toHaveLength(1);
    expect(full.filter((a) => a.ResponseCode === ResponseCode.RefundImpossible)).toHaveLength(9);

    // 10 × 15.00 against 50.00: three fit, and the database would refuse a fourth even if a race let it by.
    const other = await post(1, '/api/Transactions/Sale', keyedSale({ Amount: 50 }));
    const partial = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(i, '/api/Transactions/DoRefund', {
          ...merchant1,
          ServiceTransactionNumber: other.ServiceReferenceNumber,
          Amount: 15,
          UserTransactionNumber: utn('mp-part'),
        }),
      ),
    );
    expect(partial.filter((a) => a.ResponseCode === ResponseCode.Success)).toHaveLength(3);
    expect(partial.filter((a) => a.ResponseCode === ResponseCode.RefundImpossible)).toHaveLength(7);
  });

  it('DoReversal on one process while the original is at the processor on the other: never charged', async () => {
    // The slow card holds the sale at the processor (1.2 s) while the other process reverses its number.
    const numbers = Array.from({ length: 4 }, () => utn('mp-rev'));
    const outcomes = await Promise.all(
      numbers.map(async (number, i) => {
        const sale = post(
          i,
          '/api/Transactions/Sale',
          keyedSale({ UserTransactionNumber: number, CardNumber: '4000000000000119' }),
        );
        await new Promise((r) => setTimeout(r, 300));
        const reversal = await post(i + 1, '/api/Transactions/DoReversal', {
          ...merchant1,
          UserTransactionNumber: number,
        });
        return { sale: await sale, reversal };
      }),
    );
    for (const o of outcomes) {
      expect(o.reversal.ResponseCode).toBe(ResponseCode.Success);
      expect(o.sale.ResponseCode).toBe(ResponseCode.TransactionNumberBlocked);
    }
    // Reversed while at the processor — or, on a machine slow enough that the reversal came first, never
    // made at all: either way nothing stays charged.
    const rows = await report();
    for (const number of numbers)
      expect(rows.find((t) => t.UserTransactionNumber === number)?.Status ?? 'reversed').toBe('reversed');
  });

  it('DoReversal and the late original sent at once to different processes: whichever wins, nothing stays charged', async () => {
    const numbers = Array.from({ length: 10 }, () => utn('mp-race'));
    const outcomes = await Promise.all(
      numbers.map(async (number, i) => {
        const [sale, reversal] = await Promise.all([
          post(i, '/api/Transactions/Sale', keyedSale({ UserTransactionNumber: number })),
          post(i + 1, '/api/Transactions/DoReversal', { ...merchant1, UserTransactionNumber: number }),
        ]);
        return { number, sale, reversal };
      }),
    );
    const rows = await report();
    for (const o of outcomes) {
      expect(o.reversal.ResponseCode).toBe(ResponseCode.Success);
      const row = rows.find((t) => t.UserTransactionNumber === o.number);
      // Reversal first: the number is blocked and the sale refused, no payment at all. Sale first: the
      // reversal cancels it (voided at the processor), whether it found it pending or approved.
      expect([
        { sale: ResponseCode.TransactionNumberBlocked, payment: 'none' },
        { sale: ResponseCode.TransactionNumberBlocked, payment: 'reversed' },
        { sale: ResponseCode.Success, payment: 'reversed' },
      ]).toContainEqual({ sale: o.sale.ResponseCode, payment: row?.Status ?? 'none' });
    }
  });

  it('ten gift card sales on one card at once: the balance is spent exactly, never below zero', async () => {
    // 100.00 on the card, 10 × 15.00 asked: six in full, one partial 10.00, three refused.
    const card = '6035710000000018';
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(i, '/api/GiftCard/Sale', {
          ...merchant1,
          CardNumber: card,
          TransactionType: 7,
          Amount: 15,
          UserTransactionNumber: utn('mp-gift'),
          ForceDuplication: true,
        }),
      ),
    );
    const spent = answers
      .filter(
        (a) => a.ResponseCode === ResponseCode.Success || a.ResponseCode === ResponseCode.PartialApproval,
      )
      .reduce((sum, a) => sum + Math.round(Number(a.Amount) * 100), 0);
    expect(spent).toBe(100_00);
    expect(answers.filter((a) => a.ResponseCode === ResponseCode.Success)).toHaveLength(6);
    const balance = await post(1, '/api/GiftCard/GetBalance', { ...merchant1, CardNumber: card });
    expect(balance.Balance).toBe('0.00');
  });

  it('one payment link paid by six payers at once through both processes: paid once', async () => {
    const created = await post(0, '/api/PaymentLinks', {
      ...merchant1,
      PaymentLink: { Amount: '12.50', Description: 'Raced link' },
    });
    const link = created.PaymentLink as Json;
    const path = new URL(String(link.Link)).pathname;
    const answers = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const res = await fetch(`${on(i).url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            CardNumber: '4111111111111111',
            ExpDate: '12/30',
            CVN: '123',
            NameOnCard: 'Ada Lovelace',
            ZipCode: '10001',
          }),
        });
        return (await res.json()) as Json;
      }),
    );
    expect(answers.filter((a) => a.Approved === true)).toHaveLength(1);
    expect(
      (await report()).filter((t) => t.PaymentLinkId === link.Id && t.Status === 'approved'),
    ).toHaveLength(1);
  });

  it('settling while sales join the batch on the other process: every sale counted exactly once', async () => {
    // Sales hold the merchant's batch key shared, a settlement holds it exclusive: a sale never joins a
    // batch that is being closed, and a closed batch's total is final.
    const sales = Array.from({ length: 20 }, (_, i) =>
      post(i, '/api/Transactions/Sale', keyedSale({ ...merchant2, Amount: 1 })),
    );
    const settles = [0, 1, 2].map(async (i) => {
      await new Promise((r) => setTimeout(r, 40 * i));
      return post(i, '/api/Transactions/DoSettlement', merchant2);
    });
    const answers = await Promise.all(sales);
    for (const s of await Promise.all(settles)) expect(s.ResponseCode).toBe(ResponseCode.Success);
    expect(answers.every((a) => a.ResponseCode === ResponseCode.Success)).toBe(true);
    const settled = (await post(0, '/api/Report/GetSettlementsByDate', merchant2))
      .SettlementReports as Json[];
    const unsettled = (await post(1, '/api/Report/GetUnsettledTransactions', merchant2))
      .UnsettledTransactions as Json[];
    const cents =
      settled.reduce((sum, r) => sum + Math.round(Number(r.AmountSettled) * 100), 0) +
      unsettled.reduce((sum, r) => sum + Math.round(Number(r.Amount) * 100), 0);
    expect(cents).toBe(20_00);
  });

  it('two schedulers in two processes at the same moment: one batch close, one charge per due date', async () => {
    // A sale in the open batch, and two monthly billings due on 2030-01-10.
    expect((await post(0, '/api/Transactions/Sale', keyedSale({ Amount: 7.5 }))).ResponseCode).toBe(200);
    const billings: number[] = [];
    for (const amount of [19.99, 5]) {
      const r = await post(1, '/api/RecurringBilling/Create', {
        ...merchant1,
        Amount: amount,
        FrequencyId: 4,
        InstallmentTotal: 0,
        IsInstallment: false,
        StartDate: '2030-01-10T00:00:00-05:00',
        Account: '4111111111111111',
        ExpDate: '12/35',
        FirstName: 'Grace',
        LastName: 'Hopper',
      });
      expect(r.ResponseCode, JSON.stringify(r.Msg)).toBe(200);
      billings.push(r.BillingId as number);
    }
    // 17:30 in New York on the due date: merchant 1001's automatic close (17:00) is due, and so are both.
    const at = '2030-01-10T22:30:00Z';
    const children = [0, 1].map(() =>
      fork(join(repoRoot, 'test/gateway/postgres/scheduler-child.ts'), [dataDir, url, at], {
        cwd: repoRoot,
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
    );
    const next = (child: ChildProcess) =>
      new Promise<ChildMessage>((resolve, reject) => {
        child.once('message', (m) => resolve(m as ChildMessage));
        child.once('exit', (code) => reject(new Error(`scheduler child exited (${code})`)));
      });
    try {
      expect(await Promise.all(children.map(next))).toEqual([{ type: 'ready' }, { type: 'ready' }]);
      const done = Promise.all(children.map(next));
      for (const c of children) c.send('go');
      const results = await done;
      for (const r of results) expect(r.type, JSON.stringify(r)).toBe('done');
      const closed = results.flatMap((r) => (r.type === 'done' ? r.closed : []));
      expect(closed.filter((mid) => mid === 1001)).toHaveLength(1);
    } finally {
      for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    }
    const settlements = (await post(0, '/api/Report/GetSettlementsByDate', merchant1))
      .SettlementReports as Json[];
    expect(settlements).toHaveLength(1);
    const rows = await report();
    for (const id of billings) {
      expect(rows.filter((t) => String(t.UserTransactionNumber).startsWith(`RB-${id}-`))).toHaveLength(1);
      const listed = await post(0, '/api/RecurringBilling/GetAll', {
        ...merchant1,
        BillingId: id,
        IncludeInactive: true,
      });
      expect((listed.Billings as Json[])[0]).toMatchObject({ InstallmentsPaid: 1 });
    }
  });
});
