import { Type, type Static } from 'typebox';
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
} from './bridge/contract';
import { BridgeFailure } from './bridge/failure';
import { baseResponseProperties } from '../gateway/contract/common';
import type { TransactionReportRecord } from '../gateway/contract/report';
import type { GatewayClient } from './gateway-client/client';
import type { GatewayFailure } from './gateway-client/errors';
import { fromWire, isCents } from './util/money';

/**
 * Manager passthroughs to the gateway: reports, automatic batch close, fraud auto-deny switches, payment
 * links. The response schemas here are the minimum the terminal reads, checked on every answer; they give
 * way to the groups' own contract files as those are committed.
 */

const FraudState = Type.Object({
  ...baseResponseProperties,
  Account: Type.Optional(Type.Boolean()),
  Address: Type.Optional(Type.Boolean()),
  Cvv: Type.Optional(Type.Boolean()),
  ZipCode: Type.Optional(Type.Boolean()),
});

const LinkRecord = Type.Object({
  Id: Type.String(),
  Amount: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  Description: Type.Optional(Type.String()),
  Status: Type.Optional(Type.String()),
  Active: Type.Optional(Type.Boolean()),
  Link: Type.Optional(Type.String()),
  CreatedOn: Type.Optional(Type.String()),
});
const LinkResponse = Type.Object({ ...baseResponseProperties, PaymentLink: Type.Optional(LinkRecord) });
const LinksResponse = Type.Object({
  ...baseResponseProperties,
  PaymentLinks: Type.Optional(Type.Array(LinkRecord)),
});

function fail(f: GatewayFailure): BridgeFailure {
  return new BridgeFailure(
    f.kind === 'unknown-outcome' ? 'unreachable' : f.kind,
    f.message,
    f.code !== undefined ? { gatewayCode: f.code } : {},
  );
}

const fraudName: Record<FraudCheck, string> = {
  account: 'Account',
  address: 'Address',
  cvv: 'Cvv',
  zipCode: 'ZipCode',
};

function fraudView(r: Static<typeof FraudState>): FraudOptionsView {
  const enabled: FraudCheck[] = [];
  if (r.Account) enabled.push('account');
  if (r.Address) enabled.push('address');
  if (r.Cvv) enabled.push('cvv');
  if (r.ZipCode) enabled.push('zipCode');
  return { enabled, known: true };
}

function linkView(l: Static<typeof LinkRecord>): PaymentLinkView {
  const amount = l.Amount ? Math.round(Number(l.Amount.replace(/,/g, '')) * 100) : undefined;
  return {
    id: l.Id,
    link: l.Link ?? '',
    ...(amount !== undefined && Number.isFinite(amount) ? { amountCents: amount } : {}),
    ...(l.Description ? { description: l.Description } : {}),
    status: l.Status ?? 'UnPaid',
    active: l.Active ?? true,
    ...(l.CreatedOn ? { createdOn: l.CreatedOn } : {}),
  };
}

/** `HH:MM` today in the terminal's time zone, as the RFC 3339 date-time the admin endpoints take. */
export function closeTimeToDateTime(time: string, now: Date): string {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  if (!m) throw new BridgeFailure('invalid', 'The closing time is HH:MM (24-hour).');
  const offset = -now.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${m[1]}:${m[2]}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

export async function setAutoClose(
  gw: GatewayClient,
  current: AutoCloseView,
  time: string,
  now: Date,
): Promise<AutoCloseView> {
  const Time = closeTimeToDateTime(time, now);
  // SetAutomaticBatchClose leaves an existing enrollment unchanged (spec "States"), so a change of time
  // is UpdateAutomaticHourToCloseBatch.
  const path = current.enrolled
    ? '/api/Administration/UpdateAutomaticHourToCloseBatch'
    : '/api/Administration/SetAutomaticBatchClose';
  let r = await gw.generic(path, { Time });
  if (!r.ok && current.enrolled && r.failure.code === 425)
    r = await gw.generic('/api/Administration/SetAutomaticBatchClose', { Time });
  if (!r.ok) throw fail(r.failure);
  return { enrolled: true, time };
}

export async function removeAutoClose(gw: GatewayClient): Promise<AutoCloseView> {
  const r = await gw.generic('/api/Administration/RemoveMerchantFromAutomaticCloseBatch');
  if (!r.ok && r.failure.code !== 425) throw fail(r.failure);
  return { enrolled: false };
}

export async function fraudGet(gw: GatewayClient): Promise<FraudOptionsView> {
  const r = await gw.callPath<Static<typeof FraudState>>(
    '/api/GatewayAdmin/GetUserAutodenyOptions',
    FraudState,
    {},
    { movesMoney: false },
  );
  if (!r.ok) {
    if (r.failure.kind === 'invalid') return { enabled: [], known: false };
    throw fail(r.failure);
  }
  return fraudView(r.response);
}

export async function fraudSet(
  gw: GatewayClient,
  check: FraudCheck,
  enabled: boolean,
): Promise<FraudOptionsView> {
  const name = fraudName[check];
  if (!name) throw new BridgeFailure('invalid', 'Unknown fraud check.');
  const r = await gw.callPath<Static<typeof FraudState>>(
    `/api/FraudAutoDenyOptions/${enabled ? 'Enable' : 'Disable'}${name}`,
    FraudState,
    {},
    { movesMoney: false },
  );
  if (!r.ok) throw fail(r.failure);
  if (r.response.Account === undefined) return fraudGet(gw);
  return fraudView(r.response);
}

export async function linksList(gw: GatewayClient): Promise<PaymentLinkView[]> {
  const r = await gw.callMethod<Static<typeof LinksResponse>>(
    'GET',
    '/api/PaymentLinks',
    LinksResponse,
    undefined,
  );
  if (!r.ok) throw fail(r.failure);
  return (r.response.PaymentLinks ?? []).map(linkView);
}

export async function linkCreate(gw: GatewayClient, req: PaymentLinkCreate): Promise<PaymentLinkView> {
  if (req.amountCents !== undefined && (!isCents(req.amountCents) || req.amountCents <= 0))
    throw new BridgeFailure(
      'invalid',
      'A link amount is a positive number of cents (or none for an open amount).',
    );
  const r = await gw.callPath<Static<typeof LinkResponse>>(
    '/api/PaymentLinks',
    LinkResponse,
    {
      PaymentLink: {
        ...(req.amountCents !== undefined ? { Amount: (req.amountCents / 100).toFixed(2) } : {}),
        ...(req.description ? { Description: String(req.description).slice(0, 500) } : {}),
        ...(req.invoiceNumber ? { InvoiceNumber: String(req.invoiceNumber).slice(0, 64) } : {}),
      },
    },
    { movesMoney: false },
  );
  if (!r.ok) throw fail(r.failure);
  if (!r.response.PaymentLink) throw new BridgeFailure('internal', 'The gateway did not return the link.');
  return linkView(r.response.PaymentLink);
}

export async function linkDisable(gw: GatewayClient, id: string): Promise<PaymentLinkView> {
  if (typeof id !== 'string' || id.length === 0 || id.length > 64)
    throw new BridgeFailure('invalid', 'Choose a link.');
  const r = await gw.callMethod<Static<typeof LinkResponse>>(
    'PUT',
    '/api/PaymentLinks/DisablePaymentLink',
    LinkResponse,
    {
      PaymentLink: { Id: id },
    },
  );
  if (!r.ok) throw fail(r.failure);
  if (!r.response.PaymentLink) throw new BridgeFailure('internal', 'The gateway did not return the link.');
  return linkView(r.response.PaymentLink);
}

function csvCell(v: string | number): string {
  const s = String(v);
  // Cells starting with = + - @ are prefixed so a spreadsheet does not run them as formulas.
  const safe = /^[=+\-@]/.test(s) ? `'${s}` : s;
  return /[",\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The Report group's rows as the manager's report: rows, sales by hour, card mix, refunds, CSV. */
export function reportView(records: readonly TransactionReportRecord[], q: ReportQuery): ReportView {
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
    const h = hours[new Date(r.madeOn).getHours()];
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
