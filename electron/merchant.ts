import type {
  AutoCloseView,
  FraudCheck,
  FraudOptionsView,
  PaymentLinkCreate,
  PaymentLinkView,
  ReportQuery,
  ReportRow,
  ReportView,
  TotalsLine,
} from '../common/bridge/contract';
import { BridgeFailure } from '../common/bridge/failure';
import { fraudEndpoints } from '../gateway/contract/fraud';
import type { PaymentLinkRecord } from '../gateway/contract/payment-links';
import type { TransactionReportRecord } from '../gateway/contract/report';
import type { FraudToggle, GatewayClient } from './gateway-client/client';
import { bridgeFailureOf } from './gateway-client/bridge-failure';
import { storeHour } from '../common/store-time';
import { fromWire, isCents } from './util/money';

/**
 * Manager passthroughs to the gateway: reports, automatic batch close, fraud auto-deny switches, payment
 * links — each typed and checked by the gateway's contract files.
 */

const toggles: Record<FraudCheck, { enable: FraudToggle; disable: FraudToggle }> = {
  account: { enable: fraudEndpoints.enableAccount, disable: fraudEndpoints.disableAccount },
  address: { enable: fraudEndpoints.enableAddress, disable: fraudEndpoints.disableAddress },
  cvv: { enable: fraudEndpoints.enableCvv, disable: fraudEndpoints.disableCvv },
  zipCode: { enable: fraudEndpoints.enableZipCode, disable: fraudEndpoints.disableZipCode },
};

function fraudView(r: {
  Account?: boolean;
  Address?: boolean;
  Cvv?: boolean;
  ZipCode?: boolean;
}): FraudOptionsView {
  const enabled: FraudCheck[] = [];
  if (r.Account) enabled.push('account');
  if (r.Address) enabled.push('address');
  if (r.Cvv) enabled.push('cvv');
  if (r.ZipCode) enabled.push('zipCode');
  return { enabled, known: true };
}

function linkView(l: PaymentLinkRecord): PaymentLinkView {
  const amount = l.Amount ? Math.round(Number(l.Amount.replace(/,/g, '')) * 100) : undefined;
  return {
    id: l.Id,
    link: l.Link,
    ...(amount !== undefined && Number.isFinite(amount) ? { amountCents: amount } : {}),
    ...(l.Description ? { description: l.Description } : {}),
    status: l.Status,
    active: l.Active,
    createdOn: l.CreatedOn,
  };
}

/** `HH:MM` (24-hour): the admin endpoints take it as the merchant's local closing time. */
export function closeTime(time: unknown): string {
  if (typeof time !== 'string' || !/^([01]\d|2[0-3]):[0-5]\d$/.test(time))
    throw new BridgeFailure('invalid', 'The closing time is HH:MM (24-hour).');
  return time;
}

function autoCloseView(r: { Enrolled?: boolean; CloseTime?: string | null }): AutoCloseView {
  return { enrolled: r.Enrolled === true, ...(r.CloseTime ? { time: r.CloseTime } : {}) };
}

export async function getAutoClose(gw: GatewayClient): Promise<AutoCloseView> {
  const r = await gw.autoCloseGet();
  if (!r.ok) throw bridgeFailureOf(r.failure);
  return autoCloseView(r.response);
}

export async function setAutoClose(gw: GatewayClient, time: string): Promise<AutoCloseView> {
  const current = await getAutoClose(gw);
  // SetAutomaticBatchClose leaves an existing enrollment unchanged (spec "States and transitions"): a
  // change of time is UpdateAutomaticHourToCloseBatch.
  const r = current.enrolled
    ? await gw.autoCloseUpdate(closeTime(time))
    : await gw.autoCloseSet(closeTime(time));
  if (!r.ok) throw bridgeFailureOf(r.failure);
  return autoCloseView(r.response);
}

export async function removeAutoClose(gw: GatewayClient): Promise<AutoCloseView> {
  const r = await gw.autoCloseRemove();
  if (!r.ok) throw bridgeFailureOf(r.failure);
  return autoCloseView(r.response);
}

export async function fraudGet(gw: GatewayClient): Promise<FraudOptionsView> {
  const r = await gw.fraudOptions();
  if (!r.ok) throw bridgeFailureOf(r.failure);
  return fraudView(r.response);
}

export async function fraudSet(
  gw: GatewayClient,
  check: FraudCheck,
  enabled: boolean,
): Promise<FraudOptionsView> {
  const t = Object.hasOwn(toggles, check) ? toggles[check] : undefined;
  if (!t) throw new BridgeFailure('invalid', 'The fraud check is account, address, cvv or zipCode.');
  const r = await gw.fraudToggle(enabled ? t.enable : t.disable);
  if (!r.ok) throw bridgeFailureOf(r.failure);
  return fraudView(r.response);
}

export async function linksList(gw: GatewayClient): Promise<PaymentLinkView[]> {
  const r = await gw.paymentLinks();
  if (!r.ok) throw bridgeFailureOf(r.failure);
  return (r.response.PaymentLinks ?? []).map(linkView);
}

export async function linkCreate(gw: GatewayClient, req: PaymentLinkCreate): Promise<PaymentLinkView> {
  if (req.amountCents !== undefined && (!isCents(req.amountCents) || req.amountCents <= 0))
    throw new BridgeFailure(
      'invalid',
      'A link amount is a positive number of cents (or none for an open amount).',
    );
  const r = await gw.createPaymentLink({
    PaymentLink: {
      // The one amount of the interface that is text (payment-links contract).
      ...(req.amountCents !== undefined ? { Amount: (req.amountCents / 100).toFixed(2) } : {}),
      ...(req.description ? { Description: String(req.description).slice(0, 500) } : {}),
      ...(req.invoiceNumber ? { InvoiceNumber: String(req.invoiceNumber).slice(0, 64) } : {}),
    },
  });
  if (!r.ok) throw bridgeFailureOf(r.failure);
  if (!r.response.PaymentLink)
    throw new BridgeFailure('internal', 'The gateway did not return the link.', {
      messageId: 'links.noLink',
    });
  return linkView(r.response.PaymentLink);
}

export async function linkDisable(gw: GatewayClient, id: string): Promise<PaymentLinkView> {
  if (typeof id !== 'string' || id.length === 0 || id.length > 64)
    throw new BridgeFailure('invalid', 'Choose a link.', { messageId: 'links.chooseLink' });
  const r = await gw.disablePaymentLink({ PaymentLink: { Id: id } });
  if (!r.ok) throw bridgeFailureOf(r.failure);
  if (!r.response.PaymentLink)
    throw new BridgeFailure('internal', 'The gateway did not return the link.', {
      messageId: 'links.noLink',
    });
  return linkView(r.response.PaymentLink);
}

function csvCell(v: string | number): string {
  const s = String(v);
  // Cells starting with = + - @ are prefixed so a spreadsheet does not run them as formulas.
  const safe = /^[=+\-@]/.test(s) ? `'${s}` : s;
  return /[",\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * The Report group's rows as the manager's report: rows, sales by hour (on the store's clock, `timeZone`),
 * card mix, refunds, CSV.
 */
export function reportView(
  records: readonly TransactionReportRecord[],
  q: ReportQuery,
  timeZone: string,
): ReportView {
  const from = q.from ? Date.parse(q.from) : Number.NEGATIVE_INFINITY;
  const to = q.to ? Date.parse(q.to) : Number.POSITIVE_INFINITY;
  const rows: ReportRow[] = records
    .filter((r) => {
      const t = Date.parse(r.MadeOn);
      return t >= from && t <= to;
    })
    .map((r) => ({
      serviceReferenceNumber: r.ServiceReferenceNumber,
      userTransactionNumber: r.UserTransactionNumber,
      type: r.TransactionType,
      status: r.Status,
      amountCents: fromWire(r.Amount),
      totalCents: fromWire(r.TotalAmount),
      tipCents: fromWire(r.TipAmount),
      refundedCents: fromWire(r.TotalRefundedAmount),
      cardType: r.CardType,
      last4: r.LastFour,
      authCode: r.AuthCode,
      ...(r.BatchNumber ? { batchNumber: r.BatchNumber } : {}),
      madeOn: r.MadeOn,
    }));
  const hours = Array.from({ length: 24 }, (_, hour) => ({ hour, count: 0, amountCents: 0 }));
  const mix = new Map<string, TotalsLine>();
  const refunds = { count: 0, amountCents: 0 };
  for (const r of rows) {
    if (r.type === 'refund') {
      if (r.status === 'approved') {
        refunds.count += 1;
        refunds.amountCents += r.totalCents;
      }
      continue;
    }
    if (r.status !== 'approved') continue;
    const h = hours[storeHour(Date.parse(r.madeOn), timeZone)];
    if (h) {
      h.count += 1;
      h.amountCents += r.totalCents;
    }
    const l = mix.get(r.cardType) ?? { key: r.cardType, count: 0, amountCents: 0 };
    l.count += 1;
    l.amountCents += r.totalCents;
    mix.set(r.cardType, l);
  }
  const header = [
    'madeOn',
    'serviceReferenceNumber',
    'userTransactionNumber',
    'type',
    'status',
    'amount',
    'total',
    'tip',
    'refunded',
    'cardType',
    'last4',
    'authCode',
    'batch',
  ];
  const csv = [
    header.join(','),
    ...rows.map((r) =>
      [
        r.madeOn,
        r.serviceReferenceNumber,
        r.userTransactionNumber,
        r.type,
        r.status,
        (r.amountCents / 100).toFixed(2),
        (r.totalCents / 100).toFixed(2),
        (r.tipCents / 100).toFixed(2),
        (r.refundedCents / 100).toFixed(2),
        r.cardType,
        r.last4,
        r.authCode,
        r.batchNumber ?? '',
      ]
        .map(csvCell)
        .join(','),
    ),
  ].join('\n');
  return {
    rows,
    salesByHour: hours,
    cardMix: [...mix.values()].sort((a, b) => b.amountCents - a.amountCents),
    refunds,
    csv,
  };
}
