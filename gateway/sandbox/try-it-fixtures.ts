import { randomBytes } from 'node:crypto';
import {
  demoEnvelope,
  freshGiftCard,
  SANDBOX_ROUTING_NUMBER,
  tryItCards,
  type TryItFixtures,
} from './try-it-examples';

/**
 * The records the /docs page's examples work on — a sale to refund and sign, one to void, one to refund in
 * full, one to reverse, an open preauthorization, a stored card, links, billings, a saved check, an ACH
 * debit, a gift card, a processor user, a statement — made for the published demo merchant through the
 * gateway's own interface, as any client would make them (nothing is written behind the interface's back).
 */

/** One call of the gateway's interface (the page's maker of records is a client like any other). */
export type TryItCall = (
  method: 'GET' | 'POST',
  path: string,
  body: Record<string, unknown> | null,
  headers?: Record<string, string>,
) => Promise<Record<string, unknown>>;

/** A call the page needs that did not succeed: the examples that depend on it say so. */
export class FixtureError extends Error {
  constructor(what: string, answer: Record<string, unknown>) {
    const msg = Array.isArray(answer.Msg) ? answer.Msg.join('; ') : '';
    super(`${what}: ResponseCode ${String(answer.ResponseCode)} ${msg}`.trim());
    this.name = 'FixtureError';
  }
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

export async function makeTryItFixtures(call: TryItCall): Promise<Omit<TryItFixtures, 'freeProcessorId'>> {
  const run = randomBytes(4).toString('hex');
  const env = demoEnvelope;
  const post = async (
    what: string,
    path: string,
    body: Record<string, unknown>,
    headers?: Record<string, string>,
  ) => {
    const answer = await call('POST', path, { ...env, ...body }, headers);
    if (answer.ResponseCode !== 200) throw new FixtureError(what, answer);
    return answer;
  };
  const sale = async (what: string, pan: string, amount: number) => {
    const utn = `try-fixture-${run}-${what}`;
    const answer = await post(what, '/api/Transactions/Sale', {
      Amount: amount,
      TransactionType: 1,
      UserTransactionNumber: utn,
      CardNumber: pan,
      ExpDate: '1230',
      CVN: '123',
    });
    return { srn: text(answer.ServiceReferenceNumber), utn };
  };
  const link = async (description: string) => {
    const answer = await post('link', '/api/PaymentLinks', {
      PaymentLink: { Amount: '25.00', Description: description, InvoiceNumber: `TRY-${run}` },
    });
    return { id: text((answer.PaymentLink as Record<string, unknown> | undefined)?.Id) };
  };
  const billing = async (description: string) => {
    const start = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const answer = await post('billing', '/api/RecurringBilling/Create', {
      Amount: 19.99,
      FrequencyId: 4,
      IsInstallment: false,
      InstallmentTotal: 0,
      StartDate: `${start}T00:00:00Z`,
      Account: tryItCards.visa,
      ExpDate: '1230',
      Description: description,
    });
    return { id: Number(answer.BillingId) };
  };

  // One after the other: a burst of a dozen payments would only wait on the database's single writer.
  const refundable = await sale('sale', tryItCards.visa, 500);
  const voidable = await sale('void', tryItCards.mastercard, 12.34);
  const fullyRefundable = await sale('full-refund', tryItCards.amex, 15);
  const reversible = await sale('reversal', tryItCards.mastercard2, 16);
  const preauthAmount = 40;
  const preauth = await post('preauth', '/api/Transactions/ProcessPreauth', {
    Amount: preauthAmount,
    TransactionType: 3,
    UserTransactionNumber: `try-fixture-${run}-preauth`,
    CardNumber: tryItCards.visa,
    ExpDate: '1230',
    CVN: '123',
  });
  const vault = await post('vault', '/api/GatewayAdmin/GetTokenForCard', {
    Account: tryItCards.mastercard,
    expDate: '1230',
    NameOnCard: 'Ada Lovelace',
  });
  await post('blacklist', '/api/FraudAutoDenyOptions/BlacklistAccount', {
    CardNumber: tryItCards.blacklisted,
  });
  const check = await post('check', '/api/CheckProcessor/ProcessCheck', {
    PacketIdentifier: 'A',
    ROUTING_NUMBER: SANDBOX_ROUTING_NUMBER,
    ACCOUNT_NUMBER: '4099999992',
    CHECK_AMOUNT: '30.00',
    SaveToken: true,
  });
  const ach = await post('ach', '/api/AchProcessor/ProcessAch', {
    ROUTING_NUMBER: SANDBOX_ROUTING_NUMBER,
    ACCOUNT_NUMBER: '4099999992',
    CHECK_AMOUNT: '12.00',
  });
  const gift = freshGiftCard();
  await post('gift card', '/api/GiftCard/Activate', {
    CardNumber: gift,
    TransactionType: 7,
    Amount: 10,
    UserTransactionNumber: `try-fixture-${run}-gift`,
  });
  const processorUser = 40;
  const added = await call('POST', '/api/Administration/AddUserToProcessor', {
    ...env,
    ProcessorId: processorUser,
    NewUser: 'demo-fixture-user',
    NewPass: 'demo-fixture-pass',
  });
  // 426: the user is there already (an earlier start made it), which is all the example needs.
  if (added.ResponseCode !== 200 && added.ResponseCode !== 426)
    throw new FixtureError('processor user', added);
  const auth = await post('auth', '/api/Auth', {});
  const statements = await call(
    'POST',
    '/api/Reporting/GetMerchantStatementList',
    {},
    {
      authorization: `Bearer ${text(auth.Token)}`,
    },
  );
  const first = Array.isArray(statements.Result)
    ? (statements.Result[0] as Record<string, unknown>)
    : undefined;
  if (!first) throw new FixtureError('statement', statements);
  return {
    sale: refundable,
    voidable: { srn: voidable.srn },
    fullyRefundable: { srn: fullyRefundable.srn },
    reversible: { utn: reversible.utn },
    preauth: { srn: text(preauth.ServiceReferenceNumber), amount: preauthAmount },
    vault: { token: text(vault.Token), identifier: text(vault.Identifier) },
    link: await link('Invoice (Try it out)'),
    linkToDelete: await link('A link to delete (Try it out)'),
    billing: await billing('Monthly plan (Try it out)'),
    billingToDeactivate: await billing('A plan to deactivate (Try it out)'),
    checkToken: text(check.Token),
    achId: Number((ach.TransactionInfo as Record<string, unknown> | undefined)?.AchId),
    giftToDeactivate: gift,
    processorUser,
    statementId: text(first.StatementId),
  };
}

/** The first processor the demo merchant has no user on (AddUserToProcessor's example), else 1. */
export async function freeProcessorId(call: TryItCall): Promise<number> {
  const answer = await call('POST', '/api/Administration/GetCredentials', { ...demoEnvelope });
  const used = new Set(
    (Array.isArray(answer.Credentials) ? (answer.Credentials as Record<string, unknown>[]) : []).map((c) =>
      Number(c.ProcessorId),
    ),
  );
  for (let id = 1; id <= 40; id += 1) if (!used.has(id)) return id;
  return 1;
}
