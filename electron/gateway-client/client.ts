import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { envelopeProperties } from '../../gateway/contract/common';
import { GenericResponse } from '../../gateway/contract/common';
import { businessSettingsEndpoints, reportEndpoints } from '../../gateway/contract/core-endpoints';
import type { BodyOf, EndpointSpec, ResponseOf } from '../../gateway/contract/endpoint';
import { transactionEndpoints } from '../../gateway/contract/transaction-endpoints';
import { adminEndpoints } from '../../gateway/contract/admin';
import { checkEndpoints } from '../../gateway/contract/checks';
import { ebtEndpoints } from '../../gateway/contract/ebt';
import { fraudEndpoints } from '../../gateway/contract/fraud';
import { giftCardEndpoints } from '../../gateway/contract/gift-card';
import { paymentLinkEndpoints } from '../../gateway/contract/payment-links';
import { classifyCode, isSuccessCode, plainMessage, type GatewayFailure } from './errors';
import { createHttpTransport, type HttpAnswer, type HttpTransport } from './http';

/** The credential envelope every operation carries (docs/decisions.md#authentication). */
export type GatewayCredentials = {
  AppKey: string;
  AppType: number;
  mid: number;
  cid: number;
  UserName: string;
  Password: string;
};

type EnvelopeKey = keyof typeof envelopeProperties;

/** An operation's own fields: the body without the envelope, which the client adds. */
export type OperationBody<E extends EndpointSpec> = Omit<BodyOf<E>, EnvelopeKey>;

export type GatewayTimeouts = {
  /** Anything that moves money: no answer by then is an unknown outcome (Visa-style: then reverse). */
  saleMs: number;
  /** Reversals, reports, settings. */
  otherMs: number;
};

export const defaultGatewayTimeouts: GatewayTimeouts = { saleMs: 30_000, otherMs: 15_000 };

export type GatewayResult<R> =
  | {
      ok: true;
      code: number;
      response: R;
      /** The answer was lost and GetTransaction told what the gateway had recorded (sale engine). */
      confirmedByInquiry?: true;
    }
  | { ok: false; failure: GatewayFailure; response?: R; confirmedByInquiry?: true };

export type GatewayClientOptions = {
  baseUrl: string;
  credentials: GatewayCredentials;
  timeouts?: Partial<GatewayTimeouts>;
  /** Where the requests go; a test hands in a fake. Default: keep-alive HTTP to baseUrl. */
  transport?: HttpTransport;
  /** Marks requests (the gateway's `Source`/`AppInfo`), e.g. the lane id. */
  appInfo?: string;
};

type Checker = { Check(value: unknown): boolean };
const checkers = new WeakMap<TSchema, Checker>();

/** Compiled once per schema: checking a response costs well under a microsecond. */
function checkerFor(schema: TSchema): Checker {
  let c = checkers.get(schema);
  if (!c) {
    c = Compile(schema);
    checkers.set(schema, c);
  }
  return c;
}

type CallOptions = { movesMoney: boolean; timeoutMs?: number };

/** One of the eight Enable/Disable fraud switches. */
export type FraudToggle = (typeof fraudEndpoints)[keyof Omit<
  typeof fraudEndpoints,
  'blacklistAccount' | 'unblacklistAccount' | 'addOptions' | 'removeOptions' | 'getOptions'
>];

/**
 * The typed gateway client. Every call is one HTTP attempt: nothing that moves money is ever retried
 * here (a retry of a sale whose answer was lost could charge twice). The one retried operation,
 * DoReversal, is retried by the reversal worker with backoff and jitter, across restarts.
 */
export class GatewayClient {
  private transport: HttpTransport;
  private credentials: GatewayCredentials;
  private timeoutsValue: GatewayTimeouts;
  private readonly appInfo: string | undefined;
  private readonly ownsTransport: boolean;
  private baseUrlValue: string;

  constructor(options: GatewayClientOptions) {
    this.baseUrlValue = options.baseUrl;
    this.credentials = { ...options.credentials };
    this.timeoutsValue = { ...defaultGatewayTimeouts, ...options.timeouts };
    this.appInfo = options.appInfo;
    this.ownsTransport = options.transport === undefined;
    this.transport = options.transport ?? createHttpTransport(options.baseUrl);
  }

  get baseUrl(): string {
    return this.baseUrlValue;
  }

  get timeouts(): GatewayTimeouts {
    return { ...this.timeoutsValue };
  }

  get merchant(): { mid: number; cid: number } {
    return { mid: this.credentials.mid, cid: this.credentials.cid };
  }

  /** Points the client at another gateway or merchant (the tech's connection screen). */
  reconfigure(update: {
    baseUrl?: string;
    credentials?: GatewayCredentials;
    timeouts?: Partial<GatewayTimeouts>;
  }): void {
    if (update.credentials) this.credentials = { ...update.credentials };
    if (update.timeouts) this.timeoutsValue = { ...this.timeoutsValue, ...update.timeouts };
    if (update.baseUrl && update.baseUrl !== this.baseUrlValue) {
      if (this.ownsTransport) this.transport.close();
      this.transport = createHttpTransport(update.baseUrl);
      this.baseUrlValue = update.baseUrl;
    }
  }

  close(): void {
    this.transport.close();
  }

  /** The serialized request body: envelope first, then the operation's fields. Exposed for the benchmark. */
  buildBody(fields: object): string {
    return JSON.stringify({
      ...this.credentials,
      Source: 'ApiClient',
      ...(this.appInfo ? { AppInfo: this.appInfo } : {}),
      ...fields,
    });
  }

  /** Classifies one HTTP answer for an operation whose response schema is `schema`. */
  interpret<R>(answer: HttpAnswer, schema: TSchema, options: CallOptions): GatewayResult<R> {
    if (answer.kind === 'not-sent') {
      return {
        ok: false,
        failure: {
          kind: 'unreachable',
          where: 'network',
          message: `The gateway could not be reached (${answer.error}); nothing was sent.`,
        },
      };
    }
    if (answer.kind === 'no-answer') {
      return {
        ok: false,
        failure: options.movesMoney
          ? {
              kind: 'unknown-outcome',
              where: 'network',
              message: `No answer from the gateway (${answer.error}).`,
            }
          : {
              kind: 'unreachable',
              where: 'network',
              message: `No answer from the gateway (${answer.error}).`,
            },
      };
    }
    const body = answer.body;
    const code =
      typeof body === 'object' &&
      body !== null &&
      'ResponseCode' in body &&
      typeof body.ResponseCode === 'number'
        ? body.ResponseCode
        : undefined;
    if (answer.status >= 500 || code === undefined) {
      // The gateway failed while handling it: for a payment we cannot know whether it was charged.
      const message = `The gateway answered HTTP ${answer.status} without an outcome.`;
      return {
        ok: false,
        failure: options.movesMoney
          ? { kind: 'unknown-outcome', status: answer.status, message }
          : { kind: 'unreachable', status: answer.status, message },
      };
    }
    const msg = Array.isArray((body as { Msg?: unknown }).Msg) ? (body as { Msg: string[] }).Msg : [];
    const rawDecline = (body as { DeclineCode?: unknown }).DeclineCode;
    const declineCode = typeof rawDecline === 'number' ? rawDecline : undefined;
    if (answer.status !== 200) {
      return {
        ok: false,
        failure: {
          kind: 'invalid',
          code,
          status: answer.status,
          message: plainMessage(code, declineCode, msg, 'Request refused'),
        },
      };
    }
    if (!checkerFor(schema).Check(body)) {
      const message = 'The gateway answered in an unexpected shape.';
      return {
        ok: false,
        failure: options.movesMoney
          ? { kind: 'unknown-outcome', code, message }
          : { kind: 'invalid', code, message },
      };
    }
    const response = body as R;
    if (isSuccessCode(code)) return { ok: true, code, response };
    const kind = classifyCode(code, declineCode, options.movesMoney);
    return {
      ok: false,
      response,
      failure: {
        kind,
        code,
        ...(declineCode !== undefined ? { declineCode } : {}),
        message: plainMessage(code, declineCode, msg, 'The gateway refused the request.'),
        ...(kind === 'unreachable' ? { where: 'processor' as const } : {}),
      },
    };
  }

  /** One call of a contract endpoint. */
  async call<E extends EndpointSpec>(
    spec: E,
    fields: OperationBody<E>,
    options: CallOptions,
  ): Promise<GatewayResult<ResponseOf<E>>> {
    if (spec.method === 'GET' || spec.method === 'PUT') {
      return this.callMethod<ResponseOf<E>>(spec.method, spec.path, spec.response, fields);
    }
    return this.callPath<ResponseOf<E>>(spec.path, spec.response, fields, options);
  }

  /**
   * One call by path with its response schema: for endpoints whose contract file has not landed yet
   * (the contract is the gateway's; the terminal never guesses a shape it cannot check).
   */
  async callPath<R>(
    path: string,
    schema: TSchema,
    fields: object,
    options: CallOptions,
  ): Promise<GatewayResult<R>> {
    const timeout =
      options.timeoutMs ?? (options.movesMoney ? this.timeoutsValue.saleMs : this.timeoutsValue.otherMs);
    const answer = await this.transport.post(path, this.buildBody(fields), timeout);
    return this.interpret<R>(answer, schema, options);
  }

  /**
   * Another HTTP method (Payment Links: GET with the envelope as `request.`-prefixed query parameters,
   * PUT with it in the body). Never used for anything that moves money.
   */
  async callMethod<R>(
    method: 'GET' | 'PUT',
    path: string,
    schema: TSchema,
    fields: object | undefined,
  ): Promise<GatewayResult<R>> {
    const options = { movesMoney: false };
    if (method === 'GET') {
      const c = this.credentials;
      const query = new URLSearchParams({
        'request.appKey': c.AppKey,
        'request.appType': String(c.AppType),
        'request.mid': String(c.mid),
        'request.cid': String(c.cid),
        'request.userName': c.UserName,
        'request.password': c.Password,
        ...Object.fromEntries(Object.entries(fields ?? {}).map(([k, v]) => [k, String(v)])),
      });
      const answer = await this.transport.request(
        'GET',
        `${path}?${query.toString()}`,
        undefined,
        this.timeoutsValue.otherMs,
      );
      return this.interpret<R>(answer, schema, options);
    }
    const answer = await this.transport.request(
      'PUT',
      path,
      this.buildBody(fields ?? {}),
      this.timeoutsValue.otherMs,
    );
    return this.interpret<R>(answer, schema, options);
  }

  // --- money-moving operations (one attempt each)

  sale(f: OperationBody<typeof transactionEndpoints.sale>) {
    return this.call(transactionEndpoints.sale, f, { movesMoney: true });
  }
  preAuthorization(f: OperationBody<typeof transactionEndpoints.processPreauth>) {
    return this.call(transactionEndpoints.processPreauth, f, { movesMoney: true });
  }
  closePreauth(f: OperationBody<typeof transactionEndpoints.closePreauth>) {
    return this.call(transactionEndpoints.closePreauth, f, { movesMoney: true });
  }
  saleDebit(f: OperationBody<typeof transactionEndpoints.saleDebit>) {
    return this.call(transactionEndpoints.saleDebit, f, { movesMoney: true });
  }
  saleWithToken(f: OperationBody<typeof transactionEndpoints.saleWithToken>) {
    return this.call(transactionEndpoints.saleWithToken, f, { movesMoney: true });
  }
  doRefund(f: OperationBody<typeof transactionEndpoints.doRefund>) {
    return this.call(transactionEndpoints.doRefund, f, { movesMoney: true });
  }
  doFullRefund(f: OperationBody<typeof transactionEndpoints.doFullRefund>) {
    return this.call(transactionEndpoints.doFullRefund, f, { movesMoney: true });
  }
  doVoid(f: OperationBody<typeof transactionEndpoints.doVoid>) {
    return this.call(transactionEndpoints.doVoid, f, { movesMoney: true });
  }
  doSettlement() {
    return this.call(transactionEndpoints.doSettlement, {}, { movesMoney: false });
  }

  /** Idempotent at the gateway by UserTransactionNumber; the reversal worker retries it. */
  doReversal(userTransactionNumber: string) {
    return this.call(
      transactionEndpoints.doReversal,
      { UserTransactionNumber: userTransactionNumber },
      { movesMoney: false },
    );
  }

  // --- reads

  /**
   * The gateway's record of a transaction by its UserTransactionNumber: asked before reversing a sale
   * whose answer was lost (the card networks' inquiry-then-reverse order). Never moves money.
   */
  getTransaction(userTransactionNumber: string) {
    return this.call(
      transactionEndpoints.getTransaction,
      { UserTransactionNumber: userTransactionNumber },
      { movesMoney: false },
    );
  }
  /**
   * The merchant's transactions, narrowed by the gateway (StartDate/EndDate inclusive, BatchNumber): with
   * years of history, an unfiltered call streams every one of them (docs/scaling.md).
   */
  getReportByMerchant(filter: OperationBody<typeof reportEndpoints.getReportByMerchant>) {
    return this.call(reportEndpoints.getReportByMerchant, filter, { movesMoney: false });
  }
  getUnsettledTransactions() {
    return this.call(reportEndpoints.getUnsettledTransactions, {}, { movesMoney: false });
  }
  getLastSettlementByMerchant() {
    return this.call(reportEndpoints.getLastSettlementByMerchant, {}, { movesMoney: false });
  }
  businessSettings() {
    return this.call(businessSettingsEndpoints.businessSettingsGet, {}, { movesMoney: false });
  }

  // --- tenders of the breadth groups (gift card, EBT, check)

  giftSale(f: OperationBody<typeof giftCardEndpoints.sale>) {
    return this.call(giftCardEndpoints.sale, f, { movesMoney: true });
  }
  giftReload(f: OperationBody<typeof giftCardEndpoints.reload>) {
    return this.call(giftCardEndpoints.reload, f, { movesMoney: true });
  }
  giftBalance(f: OperationBody<typeof giftCardEndpoints.getBalance>) {
    return this.call(giftCardEndpoints.getBalance, f, { movesMoney: false });
  }
  ebtSale(program: 'food' | 'cash', f: OperationBody<typeof ebtEndpoints.foodSale>) {
    return this.call(program === 'food' ? ebtEndpoints.foodSale : ebtEndpoints.cashSale, f, {
      movesMoney: true,
    });
  }
  ebtBalance(program: 'food' | 'cash', f: OperationBody<typeof ebtEndpoints.foodBalance>) {
    return this.call(program === 'food' ? ebtEndpoints.foodBalance : ebtEndpoints.cashBalance, f, {
      movesMoney: false,
    });
  }
  processCheck(f: OperationBody<typeof checkEndpoints.processCheck>) {
    return this.call(checkEndpoints.processCheck, f, { movesMoney: true });
  }

  // --- manager passthroughs (none moves money)

  autoCloseGet() {
    return this.call(adminEndpoints.getAutomaticBatchClose, {}, { movesMoney: false });
  }
  autoCloseSet(time: string) {
    return this.call(adminEndpoints.setAutomaticBatchClose, { Time: time }, { movesMoney: false });
  }
  autoCloseUpdate(time: string) {
    return this.call(adminEndpoints.updateAutomaticHour, { Time: time }, { movesMoney: false });
  }
  autoCloseRemove() {
    return this.call(adminEndpoints.removeFromAutomaticClose, {}, { movesMoney: false });
  }
  fraudOptions() {
    return this.call(fraudEndpoints.getOptions, {}, { movesMoney: false });
  }
  fraudToggle(spec: FraudToggle) {
    return this.call(spec, {}, { movesMoney: false });
  }
  paymentLinks() {
    return this.call(paymentLinkEndpoints.list, {}, { movesMoney: false });
  }
  createPaymentLink(f: OperationBody<typeof paymentLinkEndpoints.create>) {
    return this.call(paymentLinkEndpoints.create, f, { movesMoney: false });
  }
  disablePaymentLink(f: OperationBody<typeof paymentLinkEndpoints.disable>) {
    return this.call(paymentLinkEndpoints.disable, f, { movesMoney: false });
  }

  /** A generic-response operation by path, for an endpoint without a contract entry. */
  generic(path: string, fields: object = {}) {
    return this.callPath<Static<typeof GenericResponse>>(path, GenericResponse, fields, {
      movesMoney: false,
    });
  }
}
