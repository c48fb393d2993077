import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyedSale, merchant1, startGateway, utn, type TestGateway } from '../../support/gateway-harness';
import { pinBlock, swipe } from '../../support/cards';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { chargedCents, chargedCentsSql, totalAmountCents } from '../../../gateway/domain/rules/card-paid';

/**
 * What a card paid is one rule with two figures (rules/card-paid.ts): what the card was charged (cash back
 * included) and the interface's TotalAmount (cash back excluded, the refund ceiling). The SQL fragment the
 * reports sum must give what the function gives, on the database's own rows.
 */
describe('what a card paid', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('charges cash back to the card but leaves it out of TotalAmount, in SQL as in code', async () => {
    const sale = await gw.post(
      '/api/Transactions/Sale',
      keyedSale({ Amount: 10.5, TaxAmount: 0.84, TipAmount: 2 }),
    );
    expect(sale.body.ResponseCode).toBe(ResponseCode.Success);
    const debit = await gw.post('/api/Transactions/SaleDebit', {
      ...merchant1,
      Amount: 20,
      TaxAmount: 1.6,
      CashBackAmount: 40,
      TransactionType: 5,
      UserTransactionNumber: utn('paid'),
      Track2: swipe('4111111111111111'),
      ...pinBlock('4111111111111111'),
      ForceDuplication: true,
    });
    expect(debit.body.ResponseCode).toBe(ResponseCode.Success);

    const q = gw.gateway.services.storage.read;
    const srns = [sale.body.ServiceReferenceNumber as string, debit.body.ServiceReferenceNumber as string];
    const rows = await q.all(
      q.qb
        .selectFrom('payments as p')
        .selectAll('p')
        .select([chargedCentsSql('p').as('charged_sql')])
        .where('p.srn', 'in', srns)
        .orderBy('p.id'),
    );
    const unqualified = await q.all(
      q.qb
        .selectFrom('payments')
        .select(['srn', chargedCentsSql().as('charged_sql')])
        .where('srn', 'in', srns)
        .orderBy('id'),
    );
    expect(rows.map((r) => [chargedCents(r), totalAmountCents(r)])).toEqual([
      [13_34, 13_34],
      [61_60, 21_60],
    ]);
    expect(rows.map((r) => Number(r.charged_sql))).toEqual(rows.map((r) => chargedCents(r)));
    expect(unqualified.map((r) => Number(r.charged_sql))).toEqual(rows.map((r) => chargedCents(r)));

    // The sum a report takes over the same rows is the sum of the function's figures.
    const summed = await q.first(
      q.qb
        .selectFrom('payments as p')
        .select(sql<number>`sum(${chargedCentsSql('p')})`.as('total'))
        .where('p.srn', 'in', srns),
    );
    expect(Number(summed?.total)).toBe(13_34 + 61_60);
  });
});
