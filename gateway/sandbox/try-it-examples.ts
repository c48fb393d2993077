import { randomBytes, randomInt } from 'node:crypto';
import { encryptTdesDukptPinBlock } from '../../native/protocols/dukpt-tdes';
import { isLuhnValid } from '../../native/protocols/luhn';
import { addDays, localParts } from '../domain/local-time';
import { DEMO_APP_KEY, DEMO_APP_TYPE, DEMO_MID, sandboxMerchants } from './seed';
import { SANDBOX_BDK, SANDBOX_PIN } from './test-cards';

/**
 * The /docs page's "Try it out" example of every operation, for the sandbox: the published demo merchant's
 * credentials, the sandbox test cards and a fresh UserTransactionNumber on every load of the page, and —
 * where an operation works on an earlier record (a refund, a void, a link, a billing) — the record the page
 * made for it (try-it-fixtures.ts). Each one succeeds when executed against a `--sandbox` gateway; the test
 * test/gateway/docs-examples.test.ts executes them all.
 */

const demoMerchant = sandboxMerchants.find((m) => m.mid === DEMO_MID);
if (!demoMerchant) throw new Error('the demo merchant is not a sandbox merchant');

/** The published demo merchant's envelope (README "Sandbox credentials"). */
export const demoEnvelope = {
  AppKey: DEMO_APP_KEY,
  AppType: DEMO_APP_TYPE,
  mid: DEMO_MID,
  cid: demoMerchant.cid,
  UserName: demoMerchant.userName,
  Password: demoMerchant.password,
} as const;

export const DEMO_TIME_ZONE = demoMerchant.timeZone;

/** Sandbox test cards the examples use, each for its own purpose (a card and amount twice within five
 * minutes is a duplicate payment, so no two payments of the page share both). */
export const tryItCards = {
  visa: '4111111111111111',
  visa2: '4242424242424242',
  mastercard: '5555555555554444',
  mastercard2: '2223003122003222',
  amex: '378282246310005',
  /** Blacklisted by the page for the Unblacklist example: no payment of the page uses it. */
  blacklisted: '6011111111111117',
  gift: '6035710000000018',
  ebt: '5077010000000014',
} as const;

export const SANDBOX_ROUTING_NUMBER = '021000021';

/** The records the page made for the operations that work on an earlier one (try-it-fixtures.ts). */
export type TryItFixtures = {
  /** A 500.00 sale: refunded 1.00 at a time, signed, looked up. */
  sale: { srn: string; utn: string };
  voidable: { srn: string };
  fullyRefundable: { srn: string };
  reversible: { utn: string };
  preauth: { srn: string; amount: number };
  vault: { token: string; identifier: string };
  link: { id: string };
  linkToDelete: { id: string };
  billing: { id: number };
  billingToDeactivate: { id: number };
  checkToken: string;
  achId: number;
  giftToDeactivate: string;
  processorUser: number;
  /** A processor no user of the demo merchant is on yet, for AddUserToProcessor. */
  freeProcessorId: number;
  statementId: string;
};

/** One operation's example: its JSON body, or (GET) its query parameters, and a note for the page. */
export type TryItExample = { body?: Record<string, unknown>; query?: Record<string, string>; note?: string };

function hex(bytes: number): string {
  return randomBytes(bytes).toString('hex').toUpperCase();
}

/** A Luhn-valid gift card number of the sandbox program nobody holds yet: Activate issues it. */
export function freshGiftCard(): string {
  const body = `603571${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;
  const digit = [...'0123456789'].find((d) => isLuhnValid(body + d)) ?? '0';
  return body + digit;
}

/** The PIN pad of the page: a KSN of its own per load, its counter moving on for every PIN block. */
function pinPad(): (pan: string) => { KSN: string; PinBlock: string } {
  const device = `FFFF${hex(5)}E`;
  let counter = 0;
  return (pan) => {
    counter += 1;
    const ksn = device + counter.toString(16).toUpperCase().padStart(5, '0');
    return { KSN: ksn, PinBlock: encryptTdesDukptPinBlock({ bdk: SANDBOX_BDK, ksn, pin: SANDBOX_PIN, pan }) };
  };
}

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64');

/** Wallet A's token as the sandbox decodes it (README "Device wallets"): base64 of the payment data. */
function walletAToken(pan: string): string {
  return b64({
    paymentData: {
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
    },
  });
}

/** Wallet B's token as the sandbox decodes it: `encryptedMessage` is base64 of the card details. */
function walletBToken(pan: string): string {
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

/** A drawn signature: the allow-listed SVG a signature pad sends. */
const SIGNATURE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 60"><path d="M10 40 C 30 5, 50 5, 60 40 S 100 70, 120 20 L 190 35" stroke="black" fill="none"/></svg>';

/**
 * Every operation's example, by `METHOD path` (the path without the base path). `now` dates them in the
 * demo merchant's zone.
 */
export function tryItExamples(fx: TryItFixtures, now: Date): Map<string, TryItExample> {
  const env = demoEnvelope;
  const load = hex(4);
  let n = 0;
  /** A fresh UserTransactionNumber: this load's, and this operation's. */
  const utn = (what: string) => {
    n += 1;
    return `try-${load}-${n}-${what}`;
  };
  const pin = pinPad();
  // The same card and amount twice within five minutes is a duplicate payment (410): every load's
  // payments carry their own cents, so a reload and a second Execute is a new payment, not a duplicate.
  const cents = randomInt(1, 100);
  const money = (dollars: number) => (dollars * 100 + cents) / 100;
  const today = localParts(now, DEMO_TIME_ZONE).date;
  const range = { FromDate: addDays(today, -92), ToDate: today };
  const page = { CurrentPageIndex: 0, PageSize: 50 };
  const merchantNumber = String(DEMO_MID);
  // The Reporting group's hierarchy filter: the merchant's own row (level 0, EntityId = mid).
  const merchantOnly = { ViewLevel: 0, HierarchyFilterMode: 1, HierarchyFilterValue: merchantNumber };
  const keyed = (pan: string) => ({ CardNumber: pan, ExpDate: '1230', CVN: '123' });
  const made = 'uses a record the page made for it when it loaded';
  const once = (what: string) =>
    `${made} (${what}); it works once — reload the page for another, or use your own from an earlier answer`;

  const examples: [string, TryItExample][] = [
    ['POST /api/Auth', { body: { ...env } }],
    ['POST /api/Auth/TokenThreeDS', { body: { ...env } }],
    [
      'POST /api/SignatureCapture/Add',
      {
        body: { ...env, ServiceTransactionNumber: fx.sale.srn, SignatureData: SIGNATURE_SVG },
        note: `${made} (a sale); sending the same image again answers the stored one`,
      },
    ],
    ['POST /api/SignatureCapture/GetSignatures', { body: { ...env, ServiceTransactionNumber: fx.sale.srn } }],
    ['POST /api/Reporting/GetAuthorizationLogSummary', { body: { ...page, ...range, ...merchantOnly } }],
    ['POST /api/Reporting/GetBatchSummaryByEntity', { body: { ...page, ...range, ...merchantOnly } }],
    ['POST /api/Reporting/GetCardSummary', { body: { ...page, ...range, ...merchantOnly } }],
    [
      'POST /api/Reporting/GetBatchSummaryByMerchant',
      { body: { ...page, ...range, MerchantNumber: merchantNumber } },
    ],
    ['POST /api/Reporting/GetBatchDetail', { body: { ...page, MerchantNumber: merchantNumber } }],
    [
      'POST /api/Reporting/GetDepositsSummary',
      { body: { ...page, ...range, MerchantNumber: merchantNumber } },
    ],
    [
      'POST /api/Reporting/GetChargebacksDetail',
      { body: { ...page, ...range, MerchantNumber: merchantNumber } },
    ],
    [
      'POST /api/Reporting/GetChargebacksSummary',
      { body: { ...page, ...range, MerchantNumber: merchantNumber } },
    ],
    [
      'POST /api/Reporting/GetRetrievalsDetail',
      { body: { ...page, ...range, MerchantNumber: merchantNumber } },
    ],
    ['POST /api/Reporting/GetMerchantStatementList', { body: { MerchantNumber: merchantNumber } }],
    [
      'POST /api/Reporting/GetMerchantStatement',
      { body: { MerchantNumber: merchantNumber, StatementId: fx.statementId, Zone: 'Summary' } },
    ],
    ['POST /api/Report/GeTransactionNumbers', { body: { ...env } }],
    ['POST /api/Report/GetTransactionNumbers', { body: { ...env } }],
    ['POST /api/Report/GetLastSettlementByMerchant', { body: { ...env } }],
    [
      'POST /api/Report/GetSettlementsByDate',
      {
        body: { ...env, StartDate: `${range.FromDate}T00:00:00Z`, EndDate: `${addDays(today, 1)}T00:00:00Z` },
      },
    ],
    ['POST /api/Report/GetReportByMerchant', { body: { ...env } }],
    ['POST /api/Report/GetReportByUserAndCashier', { body: { ...env } }],
    ['POST /api/Report/GetUnsettledTransactions', { body: { ...env } }],
    ...['Account', 'Address', 'Cvv', 'ZipCode'].flatMap((check): [string, TryItExample][] => [
      [`POST /api/FraudAutoDenyOptions/Enable${check}`, { body: { ...env } }],
      [`POST /api/FraudAutoDenyOptions/Disable${check}`, { body: { ...env } }],
    ]),
    [
      'POST /api/FraudAutoDenyOptions/BlacklistAccount',
      { body: { ...env, CardNumber: tryItCards.blacklisted } },
    ],
    [
      'POST /api/FraudAutoDenyOptions/UnblacklistAccount',
      {
        body: { ...env, CardNumber: tryItCards.blacklisted },
        note: `${made}: the card is on the blacklist (BlacklistAccount puts it back)`,
      },
    ],
    [
      'POST /api/RecurringBilling/Create',
      {
        body: {
          ...env,
          Amount: 9.99,
          FrequencyId: 4,
          IsInstallment: false,
          InstallmentTotal: 0,
          StartDate: `${addDays(today, 1)}T00:00:00Z`,
          Account: tryItCards.visa,
          ExpDate: '1230',
          Description: 'Monthly box (Try it out)',
          FirstName: 'Ada',
          LastName: 'Lovelace',
          Email: 'ada@example.com',
        },
      },
    ],
    [
      'POST /api/RecurringBilling/Edit',
      {
        body: { ...env, Id: fx.billing.id, Amount: 12.5, Description: 'Monthly box, edited' },
        note: `${made} (a monthly billing)`,
      },
    ],
    [
      'POST /api/RecurringBilling/Deactivate',
      { body: { ...env, BillingId: fx.billingToDeactivate.id }, note: once('a billing') },
    ],
    ['POST /api/RecurringBilling/Get', { body: { ...env, BillingId: fx.billing.id } }],
    ['POST /api/RecurringBilling/GetAll', { body: { ...env } }],
    [
      'POST /api/MobileWalletTransaction/Create',
      {
        body: {
          ...env,
          EcommerceId: utn('order'),
          EcommerceStatus: 'Open',
          SubTotal: 18,
          Tax: 1.44,
          Fee: 0.5,
          Total: 19.44,
          NetAmount: 18.94,
          TransactionDate: now.toISOString(),
        },
      },
    ],
    ['POST /api/MobileWalletTransaction', { body: { ...env } }],
    [
      'POST /api/PaymentLinks',
      {
        body: {
          ...env,
          PaymentLink: { Amount: '25.00', Description: 'Invoice (Try it out)', InvoiceNumber: utn('inv') },
        },
      },
    ],
    [
      'GET /api/PaymentLinks',
      {
        query: {
          'request.appKey': env.AppKey,
          'request.appType': String(env.AppType),
          'request.mid': String(env.mid),
          'request.cid': String(env.cid),
          'request.userName': env.UserName,
          'request.password': env.Password,
          'request.paymentLink.id': fx.link.id,
        },
      },
    ],
    [
      'POST /api/PaymentLinks/AddPaymentLink',
      { body: { ...env, PaymentLink: { Description: 'Donation, any amount (Try it out)' } } },
    ],
    [
      'PUT /api/PaymentLinks/EditPaymentLink',
      {
        body: { ...env, PaymentLink: { Id: fx.link.id, Description: 'Invoice, edited', Amount: '27.50' } },
        note: `${made} (an unpaid link)`,
      },
    ],
    ['PUT /api/PaymentLinks/DisablePaymentLink', { body: { ...env, PaymentLink: { Id: fx.link.id } } }],
    ['PUT /api/PaymentLinks/EnablePaymentLink', { body: { ...env, PaymentLink: { Id: fx.link.id } } }],
    [
      'POST /api/PaymentLinks/DeletePaymentLink',
      { body: { ...env, PaymentLink: { Id: fx.linkToDelete.id } }, note: once('a link') },
    ],
    ['POST /api/PaymentLinks/GetPaymentLink', { body: { ...env, PaymentLink: { Id: fx.link.id } } }],
    [
      'POST /api/AchProcessor/ProcessAch',
      {
        body: {
          ...env,
          ROUTING_NUMBER: SANDBOX_ROUTING_NUMBER,
          ACCOUNT_NUMBER: '4099999992',
          ACCOUNT_TYPE: 'CHECKING',
          CHECK_AMOUNT: money(35).toFixed(2),
          FIRST_NAME: 'Ada',
          LAST_NAME: 'Lovelace',
        },
      },
    ],
    ['POST /api/AchProcessor/VoidAch', { body: { ...env, AchId: fx.achId }, note: once("today's debit") }],
    [
      'POST /api/AchProcessor/GetReport',
      { body: { ...env, Parameters: { FromDate: range.FromDate, ToDate: today } } },
    ],
    [
      'POST /api/CheckProcessor/ProcessCheck',
      {
        body: {
          ...env,
          PacketIdentifier: 'A',
          ROUTING_NUMBER: SANDBOX_ROUTING_NUMBER,
          ACCOUNT_NUMBER: '4099999992',
          CHECK_AMOUNT: money(42).toFixed(2),
          CHECK_NUMBER: String(randomInt(1000, 1_000_000_000)),
          Method: 0,
        },
      },
    ],
    [
      'POST /api/CheckProcessor/ProcessToken',
      {
        body: { ...env, Token: fx.checkToken, CHECK_AMOUNT: money(18).toFixed(2) },
        note: `${made} (a saved check)`,
      },
    ],
    ['POST /api/CheckProcessor/GetReport', { body: { ...env } }],
    [
      'POST /api/GiftCard/Sale',
      {
        body: {
          ...env,
          CardNumber: tryItCards.gift,
          TransactionType: 7,
          Amount: money(5),
          UserTransactionNumber: utn('gift'),
        },
      },
    ],
    [
      'POST /api/GiftCard/Reload',
      {
        body: {
          ...env,
          CardNumber: tryItCards.gift,
          TransactionType: 7,
          Amount: money(10),
          UserTransactionNumber: utn('reload'),
        },
      },
    ],
    [
      'POST /api/GiftCard/Refund',
      {
        body: {
          ...env,
          CardNumber: tryItCards.gift,
          TransactionType: 7,
          Amount: money(2),
          UserTransactionNumber: utn('gift-ret'),
        },
      },
    ],
    [
      'POST /api/GiftCard/Activate',
      {
        body: {
          ...env,
          CardNumber: freshGiftCard(),
          TransactionType: 7,
          Amount: 20,
          UserTransactionNumber: utn('activate'),
        },
        note: 'a new card number on every load of the page',
      },
    ],
    [
      'POST /api/GiftCard/Deactivate',
      { body: { ...env, CardNumber: fx.giftToDeactivate }, note: once('a card') },
    ],
    ['POST /api/GiftCard/GetBalance', { body: { ...env, CardNumber: tryItCards.gift } }],
    [
      'POST /api/EbtTransaction/EbtCashBenefitsBalance',
      { body: { ...env, CardNumber: tryItCards.ebt, ...pin(tryItCards.ebt) } },
    ],
    [
      'POST /api/EbtTransaction/EbtFoodStampBalance',
      { body: { ...env, CardNumber: tryItCards.ebt, ...pin(tryItCards.ebt) } },
    ],
    ...(
      [
        ['EbtCashBenefitsSale', 3],
        ['EbtCashBenefitsWithdrawal', 2],
        ['EbtFoodStampSale', 4],
        ['EbtFoodStampReturn', 1],
      ] as const
    ).map(([operation, amount]): [string, TryItExample] => [
      `POST /api/EbtTransaction/${operation}`,
      {
        body: {
          ...env,
          CardNumber: tryItCards.ebt,
          TransactionType: 6,
          Amount: money(amount),
          UserTransactionNumber: utn('ebt'),
          ...pin(tryItCards.ebt),
        },
        note: `the sandbox PIN pad's KSN and PIN block for PIN ${SANDBOX_PIN}`,
      },
    ]),
    [
      'POST /api/GatewayAdmin/GetTokenForCard',
      {
        body: {
          ...env,
          Account: tryItCards.mastercard,
          expDate: '1230',
          NameOnCard: 'Ada Lovelace',
          zipCode: '10001',
          description: 'Card on file (Try it out)',
        },
      },
    ],
    ['POST /api/GatewayAdmin/GetTokenByIdentifier', { body: { ...env, Identifier: fx.vault.identifier } }],
    ['POST /api/GatewayAdmin/GetTokensByIdentifier', { body: { ...env, Identifier: fx.vault.identifier } }],
    ['POST /api/GatewayAdmin/AddFraudAutoDenyOptions', { body: { ...env, Options: '2, 4' } }],
    ['POST /api/GatewayAdmin/RemoveFraudAutodenyOptions', { body: { ...env, Options: '2, 4' } }],
    ['POST /api/GatewayAdmin/GetUserAutodenyOptions', { body: { ...env } }],
    [
      'POST /api/GatewayAdmin/ChangeDataWireId',
      { body: { ...env, DataWireID: `DW-${load}`, ProcessorMid: '000076074' } },
    ],
    ['POST /api/GatewayAdmin/DoesUserExist', { body: { ...env } }],
    [
      'POST /api/Administration/AddUserToProcessor',
      {
        body: {
          ...env,
          ProcessorId: fx.freeProcessorId,
          NewUser: 'demo-processor-user',
          NewPass: 'demo-processor-pass',
          IndustryCode: 'R',
          CardTypes: 'Visa, Mastercard',
        },
        note: 'a processor the demo merchant has no user on yet, when the page loaded',
      },
    ],
    [
      'POST /api/Administration/DeleteUserFromProcessor',
      { body: { ...env, ProcessorId: fx.processorUser }, note: once('a processor user') },
    ],
    ['POST /api/Administration/GetCredentials', { body: { ...env } }],
    ['POST /api/Administration/GetSubAccounts', { body: { ...env } }],
    ['POST /api/Administration/SetAutomaticBatchClose', { body: { ...env, Time: '17:00' } }],
    ['POST /api/GatewayAdmin/SetAutomaticBatchClose', { body: { ...env, Time: '17:00' } }],
    [
      'POST /api/Administration/UpdateAutomaticHourToCloseBatch',
      { body: { ...env, Time: '18:30' }, note: 'the merchant must be enrolled (SetAutomaticBatchClose)' },
    ],
    ['POST /api/Administration/RemoveMerchantFromAutomaticCloseBatch', { body: { ...env } }],
    ['POST /api/Administration/GetAutomaticBatchClose', { body: { ...env } }],
    ['POST /api/BusinessSettings', { body: { ...env } }],
    ['POST /api/BusinessSettings/Get', { body: { ...env } }],
    [
      'POST /api/Transactions/Sale',
      {
        body: {
          ...env,
          Amount: money(10),
          TransactionType: 1,
          UserTransactionNumber: utn('sale'),
          ...keyed(tryItCards.visa2),
          NameOnCard: 'Ada Lovelace',
          ZipCode: '10001',
        },
      },
    ],
    [
      'POST /api/Transactions/ProcessPreauth',
      {
        body: {
          ...env,
          Amount: money(30),
          TransactionType: 3,
          UserTransactionNumber: utn('preauth'),
          ...keyed(tryItCards.mastercard),
        },
      },
    ],
    [
      'POST /api/Transactions/SaleDebit',
      {
        body: {
          ...env,
          Amount: money(20),
          TransactionType: 5,
          UserTransactionNumber: utn('debit'),
          Track2: `;${tryItCards.visa}=30121010000000000000?`,
          CashBackAmount: 5,
          ...pin(tryItCards.visa),
        },
        note: `the sandbox PIN pad's KSN and PIN block for PIN ${SANDBOX_PIN}`,
      },
    ],
    [
      'POST /api/Transactions/SaleWithToken',
      {
        body: {
          ...env,
          Amount: money(11),
          TransactionType: 2,
          UserTransactionNumber: utn('token'),
          Token: fx.vault.token,
        },
        note: `${made} (a stored card)`,
      },
    ],
    [
      'POST /api/Transactions/SaleWithDeviceWalletA',
      {
        body: {
          ...env,
          Amount: money(7),
          UserTransactionNumber: utn('wallet-a'),
          Token: walletAToken(tryItCards.visa),
        },
      },
    ],
    [
      'POST /api/Transactions/SaleWithDeviceWalletB',
      {
        body: {
          ...env,
          Amount: money(8),
          UserTransactionNumber: utn('wallet-b'),
          Token: walletBToken(tryItCards.mastercard),
        },
      },
    ],
    [
      'POST /api/Transactions/ForceRetailSale',
      {
        body: {
          ...env,
          Amount: money(13),
          TransactionType: 1,
          UserTransactionNumber: utn('force'),
          AuthorizationNumber: 'VOICE1',
          ...keyed(tryItCards.visa),
        },
      },
    ],
    [
      'POST /api/Transactions/ClosePreauth',
      {
        body: {
          ...env,
          Amount: fx.preauth.amount,
          ServiceReferenceNumber: fx.preauth.srn,
          UserTransactionNumber: utn('close'),
        },
        note: once('an open preauthorization'),
      },
    ],
    [
      'POST /api/Transactions/DoRefund',
      {
        body: {
          ...env,
          ServiceTransactionNumber: fx.sale.srn,
          Amount: 1,
          UserTransactionNumber: utn('refund'),
        },
        note: `${made} (a 500.00 sale)`,
      },
    ],
    [
      'POST /api/Transactions/DoFullRefund',
      {
        body: {
          ...env,
          ServiceTransactionNumber: fx.fullyRefundable.srn,
          UserTransactionNumber: utn('full'),
        },
        note: once('a sale'),
      },
    ],
    [
      'POST /api/Transactions/DoVoid',
      {
        body: { ...env, ServiceTransactionNumber: fx.voidable.srn, UserTransactionNumber: utn('void') },
        note: once('an unsettled sale'),
      },
    ],
    [
      'POST /api/Transactions/DoReversal',
      { body: { ...env, UserTransactionNumber: fx.reversible.utn }, note: once('a sale, by its number') },
    ],
    [
      'POST /api/Transactions/GetTransaction',
      { body: { ...env, UserTransactionNumber: fx.sale.utn }, note: `${made} (a sale)` },
    ],
    ['POST /api/Transactions/DoSettlement', { body: { ...env } }],
    ['POST /api/Transactions/DoCloseAllSettledTransaction', { body: { ...env } }],
    [
      'POST /api/Transactions',
      {
        body: { ...env },
        note: "it works once per merchant: it voids the merchant's one fixed test refund, which then stays voided (7)",
      },
    ],
    ['POST /api/Customers', { body: { ...env } }],
    ['POST /api/Customers/GetByMerchant', { body: { ...env } }],
  ];
  // The Reporting group takes a bearer token instead of the envelope.
  const authorize =
    'Authorize first: execute POST /api/Auth and give its Token to the Authorize button (bearer)';
  return new Map(
    examples.map(([key, example]) =>
      key.startsWith('POST /api/Reporting/')
        ? [key, { ...example, note: example.note ? `${authorize}; ${example.note}` : authorize }]
        : [key, example],
    ),
  );
}
