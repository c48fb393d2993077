import { keyedSale, merchant1, utn, type Json, type TestGateway } from './gateway-harness';
import { synthesizeHistory, type HistoryMade, type HistoryPlan } from './history-data';

const expect200 = (r: { body: Json }, what: string) => {
  if (r.body.ResponseCode !== 0 && r.body.ResponseCode !== 200)
    throw new Error(`${what}: ${JSON.stringify(r.body.Msg)}`);
};

/**
 * The real sample a history is grown from, made through the API as a store would: sales of three card
 * brands keyed and swiped, a refund, a decline, a settled and closed batch, today's open batch, a payment
 * link and a recurring billing. Then `days` of history before today, synthesised from it (history-data.ts).
 */
export async function growHistory(
  gw: TestGateway,
  plan: Pick<HistoryPlan, 'days' | 'perDay' | 'openRows'> & Partial<HistoryPlan>,
): Promise<HistoryMade> {
  const sale = async (body: Json) => {
    const r = await gw.post('/api/Transactions/Sale', keyedSale(body));
    return r.body;
  };
  const visa = await sale({ Amount: 10 });
  expect200({ body: visa }, 'sample sale');
  await sale({
    Amount: 15,
    CardNumber: undefined,
    ExpDate: undefined,
    CVN: undefined,
    Track2: '5555555555554444=30121010000000000',
  });
  await sale({ Amount: 20, CardNumber: '378282246310005', CVN: '1234' });
  await sale({ Amount: 1, CardNumber: '4000000000000002' });
  const refund = await gw.post('/api/Transactions/DoRefund', {
    ...merchant1,
    ServiceTransactionNumber: visa.ServiceReferenceNumber,
    Amount: 5,
    UserTransactionNumber: utn('refund'),
  });
  expect200(refund, 'sample refund');
  expect200(await gw.post('/api/Transactions/DoSettlement', { ...merchant1 }), 'sample settlement');
  expect200(await gw.post('/api/Transactions/DoCloseAllSettledTransaction', { ...merchant1 }), 'close');
  await sale({ Amount: 7 });
  await sale({ Amount: 8, CardNumber: '378282246310005', CVN: '1234' });
  const link = await gw.post('/api/PaymentLinks', {
    ...merchant1,
    PaymentLink: { Amount: '12.50', Description: 'Deposit' },
  });
  if (link.body.ResponseCode !== 200) throw new Error(`sample link: ${JSON.stringify(link.body.Msg)}`);
  const start = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const billing = await gw.post('/api/RecurringBilling/Create', {
    ...merchant1,
    Amount: 19.99,
    FrequencyId: 4,
    InstallmentTotal: 0,
    IsInstallment: false,
    StartDate: `${start}T00:00:00Z`,
    Account: '4111111111111111',
    ExpDate: '12/35',
    FirstName: 'Grace',
    LastName: 'Hopper',
    Email: 'grace@example.com',
    City: 'Arlington',
    Description: 'Gym membership',
  });
  expect200(billing, 'sample billing');
  const today = new Date();
  today.setUTCHours(0, 0, 0, 0);
  return synthesizeHistory(gw.gateway.storage, {
    mid: merchant1.mid,
    userId: await userIdOf(gw),
    cid: merchant1.cid,
    otherCid: merchant1.cid + 100,
    until: today,
    ...plan,
  });
}

async function userIdOf(gw: TestGateway): Promise<number> {
  const q = gw.gateway.storage.read;
  const u = await q.first(q.qb.selectFrom('users').select('id').where('user_name', '=', merchant1.UserName));
  if (!u) throw new Error('no sandbox user');
  return u.id;
}
