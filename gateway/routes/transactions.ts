import type { FastifyInstance } from 'fastify';
import { TransactionType } from '../contract/card-sale';
import { transactionEndpoints as ep } from '../contract/transaction-endpoints';
import { ResponseCode } from '../contract/response-codes';
import { checkMerchantAmountRules } from '../domain/business-settings';
import { resolveCard, parseExpDate, isExpired, type ResolvedCard } from '../domain/card-input';
import { detectBrand } from '../../native/protocols/card-brand';
import { formatCents, fromCents } from '../domain/money';
import { DomainError, outcome, success } from '../domain/outcome';
import { noExtras, runPayment, type PaymentRequest, type Amounts } from '../domain/payments';
import { closePreauth } from '../domain/preauth';
import { runRefund } from '../domain/refund-rules';
import { runReversal } from '../domain/reversal';
import { lookupTransaction, srnOfTransactionNumber } from '../domain/transaction-lookup';
import {
  closeSettledBatches,
  settleOpenBatch,
  type SettlementResult,
} from '../domain/batch-close/settlement';
import { runVoid } from '../domain/void-rules';
import { loadCard } from '../domain/vault';
import { decodeWalletAToken, decodeWalletBToken, type WalletResult } from '../domain/wallet-tokens';
import type { AuthorizationKind } from '../domain/processor-port';
import { Problems } from '../domain/problems';
import { missingTokenProblem } from '../domain/rules/sale-with-token-checks';
import { flag, int, money, requiredText, text, transactionType } from '../http/checks';
import { implement, type Loose, type OperationContext } from '../http/operation';
import type { GatewayServices } from '../http/services';

function amountsOf(problems: Problems, body: Loose, options: { cashback?: boolean } = {}): Amounts {
  return {
    baseCents: money(problems, body, 'Amount', { required: true }) ?? 0,
    taxCents: money(problems, body, 'TaxAmount') ?? 0,
    tipCents: money(problems, body, 'TipAmount') ?? 0,
    surchargeCents: money(problems, body, 'SurchargeAmount') ?? 0,
    cardDifferenceCents: money(problems, body, 'CardDifferenceAmount') ?? 0,
    cashbackCents: options.cashback ? (money(problems, body, 'CashBackAmount') ?? 0) : 0,
  };
}

function currencyOf(problems: Problems, body: Loose): string {
  const c = text(body, 'CurrencyCode') ?? 'USD';
  if (!/^[A-Z]{3}$/.test(c))
    problems.add(
      ResponseCode.InvalidRequest,
      'CurrencyCode must be an ISO 4217 code such as USD',
      'CurrencyCode',
    );
  return c;
}

/** The optional fields every card sale shares, for a payment request. */
function commonOf(body: Loose, card: ResolvedCard) {
  const saveCustomer = flag(body, 'SaveCustomer');
  const customerId = int(body, 'CustomerId');
  return {
    forceDuplication: flag(body, 'ForceDuplication'),
    posCode: text(body, 'PosCode') ?? (card.present ? 'Retail' : 'ECommerce'),
    invoice: text(body, 'InvoiceNumber'),
    orderRef: text(body, 'OrderReference'),
    paymentLinkId: text(body, 'PaymentLinkId'),
    customerId,
    saveToken: flag(body, 'SaveToken'),
    street: text(body, 'Street'),
    zip: text(body, 'ZipCode'),
    customer: saveCustomer
      ? {
          customerRef: customerId !== undefined ? String(customerId) : undefined,
          name: text(body, 'NameOnCard') ?? card.name,
          email: text(body, 'CustomerEmail'),
          phone: text(body, 'CustomerPhone'),
          address: text(body, 'CustomerAddress') ?? text(body, 'Street'),
          city: text(body, 'CustomerCity'),
          state: text(body, 'CustomerState'),
          country: text(body, 'CustomerCountry'),
          zip: text(body, 'ZipCode'),
          invoice: text(body, 'InvoiceNumber'),
          source: text(body, 'Source'),
        }
      : undefined,
  };
}

type SaleKind = {
  operation: string;
  authorizationKind: AuthorizationKind;
  type: number;
  typeName: string;
  preauth?: boolean;
  /** PIN debit: card present, KSN + PinBlock, cash back allowed. */
  pin?: boolean;
};

async function pay(ctx: OperationContext, request: PaymentRequest) {
  await checkMerchantAmountRules(ctx.services.storage.read, ctx.principal.mid, request.amounts);
  return runPayment(ctx.services, ctx, request);
}

function cardSale(kind: SaleKind) {
  return {
    replayField: 'UserTransactionNumber',
    // runPayment's first unit of work reserves it (after pay's merchant rule, a DomainError).
    reservesNumber: true,
    check(body: Loose, problems: Problems): PaymentRequest | undefined {
      const amounts = amountsOf(problems, body, { cashback: kind.pin === true });
      // ProcessPreauth implies its TransactionType (3) when a client sends none.
      if (!kind.preauth || body.TransactionType !== undefined)
        transactionType(problems, body, kind.type, kind.typeName);
      const utn = requiredText(problems, body, 'UserTransactionNumber');
      const currency = currencyOf(problems, body);
      if (kind.preauth && body.IsClosable === false) {
        problems.add(
          ResponseCode.PreauthImpossible,
          'IsClosable false is not offered: every preauthorization here is completed by ClosePreauth or voided',
          'IsClosable',
        );
      }
      if (!problems.empty) return undefined;
      const card = resolveCard(body, problems);
      let pin: PaymentRequest['pin'];
      if (kind.pin) {
        const ksn = text(body, 'KSN');
        const pinBlock = text(body, 'PinBlock');
        if (!ksn || !pinBlock || !/^[0-9A-Fa-f]{10,20}$/.test(ksn) || !/^[0-9A-Fa-f]{16}$/.test(pinBlock)) {
          problems.add(
            ResponseCode.PinDataMissing,
            'KSN (hex) and PinBlock (16 hex digits) from the PIN pad are required',
            'PinBlock',
          );
        } else {
          pin = { ksn, pinBlock };
        }
        if (card && !card.present) {
          problems.add(
            ResponseCode.CardDataMissing,
            'PIN debit needs the card swiped, inserted or tapped (Track2 or EmvData)',
            'Track2',
          );
        }
      }
      if (!card || !utn || !problems.empty) return undefined;
      return {
        operation: kind.operation,
        authorizationKind: kind.authorizationKind,
        transactionType: kind.type,
        utn,
        amounts,
        currency,
        card,
        pin,
        // rule: partial-approval
        allowPartial: card.present && !kind.preauth,
        preauth: kind.preauth === true,
        ...commonOf(body, card),
      };
    },
    handle: (command: PaymentRequest, ctx: OperationContext) => pay(ctx, command),
  };
}

function walletSale(
  operation: 'wallet_a' | 'wallet_b',
  decode: (token: string) => WalletResult,
  tokenRequired: boolean,
) {
  return {
    replayField: 'UserTransactionNumber',
    reservesNumber: true,
    check(body: Loose, problems: Problems, ctx: OperationContext): PaymentRequest | undefined {
      // Real wallet payloads are encrypted to the merchant's processing certificate, which this gateway
      // does not hold; the base64 stand-in is the sandbox's, and outside it would take any typed PAN.
      if (!ctx.services.config.sandbox) {
        problems.add(
          ResponseCode.OperationNotSupported,
          'Device wallet tokens can be decrypted only with the merchant processing certificate, which is not configured; the sandbox test decoding is off outside the sandbox',
          'Token',
        );
        return undefined;
      }
      const amounts = amountsOf(problems, body);
      const token = text(body, 'Token');
      if (!token && !problems.has('Token')) {
        problems.add(
          ResponseCode.MissingToken,
          tokenRequired ? 'Token is required' : 'Token is required for a wallet sale',
          'Token',
        );
      }
      const utn = requiredText(problems, body, 'UserTransactionNumber');
      const currency = currencyOf(problems, body);
      if (!problems.empty || !token || !utn) return undefined;
      const decoded = decode(token);
      if (!decoded.ok) {
        problems.add(ResponseCode.InvalidWalletToken, decoded.reason, 'Token');
        return undefined;
      }
      const card: ResolvedCard = {
        pan: decoded.card.pan,
        expiryYYMM: decoded.card.expiryYYMM,
        entryMode:
          (text(body, 'PosEntryMode') as ResolvedCard['entryMode'] | undefined) ?? 'NetworkADigitalWallet',
        cardType: detectBrand(decoded.card.pan),
        present: false,
        first6: decoded.card.pan.slice(0, 6),
        last4: decoded.card.pan.slice(-4),
      };
      return {
        operation,
        authorizationKind: 'wallet',
        transactionType: TransactionType.CREDIT,
        utn,
        amounts,
        currency,
        card,
        allowPartial: false,
        preauth: false,
        ...commonOf(body, card),
        posCode: text(body, 'PosCode') ?? 'ECommerce',
        saveToken: false,
        customer: undefined,
      };
    },
    handle: (command: PaymentRequest, ctx: OperationContext) => pay(ctx, command),
  };
}

/**
 * The merchant's one fixed refund that the test endpoint voids. In the sandbox it is made on first use (a
 * test sale on the sandbox card and its refund, both marked IsTest), so seeding leaves the batch empty.
 */
async function fixedTestRefund(ctx: OperationContext): Promise<string | null> {
  const utn = `TEST-REFUND-${ctx.principal.mid}`;
  const existing = await srnOfTransactionNumber(ctx.services.storage.read, ctx.principal.mid, utn);
  if (existing !== undefined) return existing;
  if (!ctx.services.config.sandbox) return null;
  const testCtx = { ...ctx, isTest: true };
  const problems = new Problems();
  const card = resolveCard({ CardNumber: '4111111111111111', ExpDate: '1249' }, problems);
  if (!card) return null;
  const sale = await runPayment(ctx.services, testCtx, {
    operation: 'sale',
    authorizationKind: 'sale',
    transactionType: TransactionType.CREDIT,
    utn: `TEST-SALE-${ctx.principal.mid}`,
    amounts: { ...noExtras, baseCents: 100 },
    currency: 'USD',
    card,
    forceDuplication: true,
    allowPartial: false,
    preauth: false,
    posCode: 'ECommerce',
    saveToken: false,
  });
  if (!sale.ServiceReferenceNumber) return null;
  const refund = await runRefund(ctx.services, testCtx, {
    srn: sale.ServiceReferenceNumber,
    utn,
    amountCents: 100,
  });
  return refund.response.ServiceReferenceNumber ?? null;
}

function settlementAnswer(r: SettlementResult, nothing: string) {
  return {
    ...success([r.batches.length > 0 ? 'Settled' : nothing]),
    AmountSettled: fromCents(r.amountCents),
    Batches: r.batches.map((b) => ({
      BatchNumber: b.batchNumber,
      TransactionCount: b.transactionCount,
      SaleAmount: fromCents(b.saleCents),
      ReturnAmount: fromCents(b.returnCents),
      NetAmount: fromCents(b.netCents),
      OpenedOn: b.openedAt,
      ClosedOn: b.closedAt ?? b.settledAt,
    })),
    CompletedOn: r.completedOn,
  };
}

export function registerTransactionRoutes(app: FastifyInstance, services: GatewayServices): void {
  implement(
    app,
    services,
    ep.sale,
    cardSale({
      operation: 'sale',
      authorizationKind: 'sale',
      type: TransactionType.CREDIT,
      typeName: 'CREDIT',
    }),
  );
  implement(
    app,
    services,
    ep.processPreauth,
    cardSale({
      operation: 'preauth',
      authorizationKind: 'preauth',
      type: TransactionType.Pre_Authorization,
      typeName: 'Pre_Authorization',
      preauth: true,
    }),
  );
  implement(
    app,
    services,
    ep.saleDebit,
    cardSale({
      operation: 'debit',
      authorizationKind: 'debit',
      type: TransactionType.SaleDebit,
      typeName: 'SaleDebit',
      pin: true,
    }),
  );

  implement(app, services, ep.saleWithToken, {
    replayField: 'UserTransactionNumber',
    check(body, problems) {
      const amounts = amountsOf(problems, body);
      transactionType(problems, body, TransactionType.CREDIT_WITH_TOKEN, 'CREDIT_WITH_TOKEN');
      const token = text(body, 'Token');
      if (!token && !problems.has('Token'))
        problems.add(missingTokenProblem.code, missingTokenProblem.message, missingTokenProblem.field);
      const utn = requiredText(problems, body, 'UserTransactionNumber');
      const currency = currencyOf(problems, body);
      const expDate = text(body, 'ExpDate');
      const parsedExp = expDate ? parseExpDate(expDate, true) : null;
      if (expDate && !parsedExp)
        problems.add(ResponseCode.InvalidExpiry, 'ExpDate must be MMYY or MM/YY', 'ExpDate');
      if (!problems.empty || !token || !utn) return undefined;
      return { amounts, token, utn, currency, expiry: parsedExp, body };
    },
    async handle(c, ctx) {
      // The token lookup is a separate check, after the request's own (interface rule for SaleWithToken).
      const stored = await loadCard(ctx.services.storage.read, ctx.services.keys, ctx.principal.mid, c.token);
      if (!stored) return outcome(ResponseCode.NotFound, ['Token not found for this merchant']);
      const storedExpiry = stored.expMMYY.slice(2, 4) + stored.expMMYY.slice(0, 2);
      let expiry = storedExpiry;
      if (isExpired(storedExpiry, ctx.now)) {
        if (!c.expiry)
          return outcome(ResponseCode.InvalidExpiry, [
            'The stored card is expired: ExpDate (MMYY or MM/YY) is required',
          ]);
        expiry = c.expiry;
      }
      const card: ResolvedCard = {
        pan: stored.pan,
        expiryYYMM: expiry,
        entryMode: 'CredentialOnFile',
        cardType: stored.cardType,
        present: false,
        first6: stored.pan.slice(0, 6),
        last4: stored.pan.slice(-4),
        ...(stored.holderName ? { name: stored.holderName } : {}),
        ...(text(c.body, 'CVN') ? { cvn: text(c.body, 'CVN') } : {}),
      };
      return pay(ctx, {
        operation: 'token_sale',
        authorizationKind: 'token_sale',
        transactionType: TransactionType.CREDIT_WITH_TOKEN,
        utn: c.utn,
        amounts: c.amounts,
        currency: c.currency,
        card,
        allowPartial: false,
        preauth: false,
        tokenId: stored.id,
        ...commonOf(c.body, card),
        posCode: text(c.body, 'PosCode') ?? 'ECommerce',
        saveToken: false,
      });
    },
  });

  implement(app, services, ep.saleWithDeviceWalletA, walletSale('wallet_a', decodeWalletAToken, true));
  implement(app, services, ep.saleWithDeviceWalletB, walletSale('wallet_b', decodeWalletBToken, false));

  implement(app, services, ep.forceRetailSale, {
    replayField: 'UserTransactionNumber',
    check(body, problems) {
      const amounts = amountsOf(problems, body);
      if (body.TransactionType !== undefined)
        transactionType(problems, body, TransactionType.CREDIT, 'CREDIT');
      const utn = requiredText(problems, body, 'UserTransactionNumber');
      const auth = requiredText(problems, body, 'AuthorizationNumber');
      if (auth && !/^[A-Za-z0-9]{2,12}$/.test(auth)) {
        problems.add(
          ResponseCode.InvalidRequest,
          'AuthorizationNumber must be the 2-12 character voice authorization code',
          'AuthorizationNumber',
        );
      }
      const currency = currencyOf(problems, body);
      if (!problems.empty) return undefined;
      const card = resolveCard(body, problems);
      if (!card || !utn || !auth || !problems.empty) return undefined;
      const request: PaymentRequest = {
        operation: 'force',
        authorizationKind: 'sale',
        transactionType: TransactionType.CREDIT,
        utn,
        amounts,
        currency,
        card,
        allowPartial: false,
        preauth: false,
        forcedAuthCode: auth.toUpperCase(),
        ...commonOf(body, card),
      };
      return request;
    },
    handle: (c, ctx) => pay(ctx, c),
  });

  implement(app, services, ep.closePreauth, {
    replayField: 'UserTransactionNumber',
    check(body, problems) {
      const amountCents = money(problems, body, 'Amount', { required: true });
      const additionalTipCents = money(problems, body, 'AdditionalTip') ?? 0;
      const srn = requiredText(problems, body, 'ServiceReferenceNumber');
      const utn = requiredText(problems, body, 'UserTransactionNumber');
      if (amountCents === undefined || !srn || !utn) return undefined;
      return { amountCents, additionalTipCents, srn, utn };
    },
    handle: (c, ctx) => closePreauth(ctx.services, ctx, c),
  });

  implement(app, services, ep.doRefund, {
    replayField: 'UserTransactionNumber',
    check(body, problems) {
      const amountCents = money(problems, body, 'Amount', { required: true });
      const srn = requiredText(problems, body, 'ServiceTransactionNumber');
      const utn = requiredText(problems, body, 'UserTransactionNumber');
      if (amountCents === undefined || !srn || !utn) return undefined;
      return { amountCents, srn, utn };
    },
    async handle(c, ctx) {
      return (await runRefund(ctx.services, ctx, c)).response;
    },
  });

  implement(app, services, ep.doFullRefund, {
    replayField: 'UserTransactionNumber',
    check(body, problems) {
      // A sent Amount is checked as an amount (money rules never loosen) and then only reported.
      const sent = money(problems, body, 'Amount', { required: false, allowZero: false });
      const srn = requiredText(problems, body, 'ServiceTransactionNumber');
      const utn = requiredText(problems, body, 'UserTransactionNumber');
      if (!srn || !utn || !problems.empty) return undefined;
      return { srn, utn, sent };
    },
    async handle(c, ctx) {
      const r = await runRefund(ctx.services, ctx, { srn: c.srn, utn: c.utn, amountCents: null });
      const { TipAmount: _tip, ...rest } = r.response;
      const differs = c.sent !== undefined && r.refundedCents > 0 && c.sent !== r.refundedCents;
      return {
        ...rest,
        ...(differs
          ? {
              Msg: [
                `Refunded the remaining balance ${formatCents(r.refundedCents)} (Amount ${formatCents(c.sent ?? 0)} was sent; a full refund refunds what remains)`,
              ],
            }
          : {}),
        RefundedAmount: fromCents(r.refundedCents),
      };
    },
  });

  implement(app, services, ep.doVoid, {
    replayField: 'UserTransactionNumber',
    check(body, problems) {
      const srn = requiredText(problems, body, 'ServiceTransactionNumber');
      const utn = requiredText(problems, body, 'UserTransactionNumber');
      return srn && utn ? { srn, utn } : undefined;
    },
    async handle(c, ctx) {
      await runVoid(ctx.services, ctx, c.srn, c.utn);
      return success(['Voided']);
    },
  });

  implement(app, services, ep.doReversal, {
    check(body, problems) {
      return requiredText(problems, body, 'UserTransactionNumber');
    },
    handle: (utn, ctx) => runReversal(ctx.services, ctx, utn),
  });

  implement(app, services, ep.getTransaction, {
    check(body, problems) {
      return requiredText(problems, body, 'UserTransactionNumber');
    },
    handle: (utn, ctx) => lookupTransaction(ctx.services, ctx, utn),
  });

  implement(app, services, ep.doSettlement, {
    async handle(_c, ctx) {
      return settlementAnswer(
        await settleOpenBatch(ctx.services.storage, ctx.principal.mid, ctx.now),
        'Nothing to settle: the open batch is empty',
      );
    },
  });

  implement(app, services, ep.doCloseAllSettledTransaction, {
    async handle(_c, ctx) {
      return settlementAnswer(
        await closeSettledBatches(ctx.services.storage, ctx.principal.mid, ctx.now),
        'No settled batch to close',
      );
    },
  });

  implement(app, services, ep.testVoidFixedRefund, {
    async handle(_c, ctx) {
      const srn = await fixedTestRefund(ctx);
      if (!srn)
        throw new DomainError(ResponseCode.NotFound, [
          'This merchant has no fixed test refund (sandbox merchants only)',
        ]);
      await runVoid(ctx.services, ctx, srn, `TEST-REFUND-${ctx.principal.mid}-VOID-${ctx.now.getTime()}`);
      return success(['The fixed test refund is voided']);
    },
  });
}
