import type { FastifyInstance } from 'fastify';
import { ResponseCode } from '../contract/response-codes';
import {
  REPORTING_DEFAULT_PAGE_SIZE,
  REPORTING_MAX_PAGE_SIZE,
  reportingEndpoints as ep,
} from '../contract/reporting';
import type { EndpointSpec } from '../contract/endpoint';
import { addDays, localParts, merchantTimeZone, zonedInstant } from '../domain/local-time';
import { outcome, success } from '../domain/outcome';
import { Problems } from '../domain/problems';
import {
  authorizationLog,
  batchDetail,
  batchSummaryByEntity,
  batchSummaryByMerchant,
  cardSummary,
  chargebacks,
  depositsSummary,
  retrievals,
  type EntityView,
  type Page,
  type Paged,
  type Range,
} from '../domain/reporting/index';
import {
  issuedStatement,
  issuedStatementList,
  STATEMENT_ZONES,
  type StatementZone,
} from '../domain/statements';
import type { BackgroundTask } from '../schedulers/background-task';
import { createStatementsScheduler } from '../schedulers/statements';
import { int, text } from '../http/checks';
import { implement, type Loose, type Operation, type OperationContext } from '../http/operation';
import type { GatewayServices } from '../http/services';
import type { Queryable } from '../domain/context';

/**
 * The Reporting group: bearer-token authorized (the token of /api/Auth), always the token's merchant. A
 * request problem answers in ErrorMessages (and Msg/ResponseCode) with an empty Result.
 */

function calendarDate(y: number, m: number, d: number): string | null {
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** A date of the request as the merchant's local date: YYYY-MM-DD, MM/DD/YYYY, or a date-time. */
export function reportDate(raw: string, zone: string): string | null {
  const t = raw.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (m) return calendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(t);
  if (m) return calendarDate(Number(m[3]), Number(m[1]), Number(m[2]));
  m = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/i.exec(t);
  if (!m) return null;
  const date = calendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
  if (!date || !m[5]) return date;
  const instant = new Date(t);
  return Number.isNaN(instant.getTime()) ? null : localParts(instant, zone).date;
}

type Common = {
  problems: Problems;
  mid: number;
  zone: string;
  page: Page;
  range: Range;
  dates: { from?: string | undefined; to?: string | undefined };
};

async function common(body: Loose, ctx: OperationContext): Promise<Common> {
  const problems = new Problems();
  const mid = ctx.principal.mid;
  const zone = await merchantTimeZone(ctx.services.storage.read, mid);
  const merchantNumber = text(body, 'MerchantNumber');
  if (merchantNumber !== undefined && merchantNumber.trim() !== String(mid)) {
    problems.add(
      ResponseCode.MerchantAccessDenied,
      "MerchantNumber is not the token's merchant: a token reports on its own merchant only",
      'MerchantNumber',
    );
  }
  const index = int(body, 'CurrentPageIndex') ?? 0;
  const size = int(body, 'PageSize') ?? REPORTING_DEFAULT_PAGE_SIZE;
  if (index < 0)
    problems.add(ResponseCode.InvalidPaging, 'CurrentPageIndex must be 0 or more', 'CurrentPageIndex');
  if (size < 1 || size > REPORTING_MAX_PAGE_SIZE) {
    problems.add(
      ResponseCode.InvalidPaging,
      `PageSize must be 1 to ${REPORTING_MAX_PAGE_SIZE} (default ${REPORTING_DEFAULT_PAGE_SIZE})`,
      'PageSize',
    );
  }
  const dates: Common['dates'] = {};
  for (const [field, key] of [
    ['FromDate', 'from'],
    ['ToDate', 'to'],
  ] as const) {
    const raw = text(body, field);
    if (raw === undefined) continue;
    const d = reportDate(raw, zone);
    if (!d) problems.add(ResponseCode.InvalidRequest, `${field} must be a date (YYYY-MM-DD)`, field);
    else dates[key] = d;
  }
  if (dates.from && dates.to && dates.from > dates.to) {
    problems.add(ResponseCode.InvalidRequest, 'FromDate must not be after ToDate', 'FromDate');
  }
  return {
    problems,
    mid,
    zone,
    page: { index, size },
    dates,
    range: {
      fromIso: dates.from ? zonedInstant(dates.from, '00:00', zone).toISOString() : undefined,
      toIso: dates.to ? zonedInstant(addDays(dates.to, 1), '00:00', zone).toISOString() : undefined,
    },
  };
}

function view(body: Loose, c: Common): EntityView {
  const { problems } = c;
  const level = int(body, 'ViewLevel') ?? 0;
  const mode = int(body, 'HierarchyFilterMode') ?? 0;
  if (level !== 0 && level !== 1)
    problems.add(ResponseCode.InvalidRequest, 'ViewLevel must be 0 (merchant) or 1 (cashier)', 'ViewLevel');
  if (mode !== 0 && mode !== 1)
    problems.add(
      ResponseCode.InvalidRequest,
      'HierarchyFilterMode must be 0 (all) or 1 (one entity)',
      'HierarchyFilterMode',
    );
  const value = text(body, 'HierarchyFilterValue');
  if (mode === 1 && value === undefined) {
    problems.add(
      ResponseCode.InvalidRequest,
      'HierarchyFilterValue (an EntityId) is required with HierarchyFilterMode 1',
      'HierarchyFilterValue',
    );
  }
  return { level: level === 1 ? 1 : 0, onlyId: mode === 1 ? value : undefined };
}

/** For the reports whose request has the common fields only. */
const noOwnFields = () => undefined;

function refusal(c: Common) {
  const messages = c.problems.messages();
  return {
    ...outcome(c.problems.code(), messages),
    ErrorMessages: messages,
    Paging: { CurrentPageIndex: Math.max(0, c.page.index), NumberOfRecords: 0, PageSize: c.page.size },
    Result: [],
  };
}

function answer<R>(c: Common, r: Paged<R>) {
  return {
    ...success(),
    ErrorMessages: [],
    Paging: { CurrentPageIndex: c.page.index, NumberOfRecords: r.count, PageSize: c.page.size },
    Result: r.rows,
    Total: r.total,
  };
}

const passBody = { check: (body: Loose) => body };

/**
 * A paged report: the common fields and `fields` are all checked, and every problem answered at once,
 * before `read` runs.
 */
function pagedReport<F, R>(
  fields: (body: Loose, c: Common) => F,
  read: (q: Queryable, c: Common, f: F) => Promise<Paged<R>>,
) {
  return {
    ...passBody,
    async handle(body: Loose, ctx: OperationContext) {
      const c = await common(body, ctx);
      const f = fields(body, c);
      if (!c.problems.empty) return refusal(c);
      return answer(c, await read(ctx.services.storage.read, c, f));
    },
  };
}

/** GetBatchDetail's own fields: the batch, or the day its batches settled. */
function batchDetailFields(body: Loose, c: Common) {
  const raw = text(body, 'ReportDate');
  const day = raw === undefined ? undefined : reportDate(raw, c.zone);
  if (raw !== undefined && !day) {
    c.problems.add(ResponseCode.InvalidRequest, 'ReportDate must be a date (YYYY-MM-DD)', 'ReportDate');
  }
  const reportRange: Range = day
    ? {
        fromIso: zonedInstant(day, '00:00', c.zone).toISOString(),
        toIso: zonedInstant(addDays(day, 1), '00:00', c.zone).toISOString(),
      }
    : {};
  return { batchNumber: text(body, 'BatchNumber'), reportRange };
}

export function registerReportingRoutes(
  app: FastifyInstance,
  services: GatewayServices,
): readonly BackgroundTask[] {
  const route = <E extends EndpointSpec>(spec: E, operation: Operation<E, Loose>) =>
    implement(app, services, spec, operation);

  route(
    ep.authorizationLogSummary,
    pagedReport(view, (q, c, v) => authorizationLog(q, c.mid, c.range, v, c.page)),
  );
  route(
    ep.batchSummaryByEntity,
    pagedReport(view, (q, c, v) => batchSummaryByEntity(q, c.mid, c.range, v, c.page)),
  );
  route(
    ep.cardSummary,
    pagedReport(
      (body, c) => ({ view: view(body, c), batch: text(body, 'BatchNumber') }),
      (q, c, f) => cardSummary(q, c.mid, c.range, f.view, f.batch, c.page),
    ),
  );
  route(
    ep.batchSummaryByMerchant,
    pagedReport(noOwnFields, (q, c) => batchSummaryByMerchant(q, c.mid, c.zone, c.range, c.page)),
  );
  route(
    ep.batchDetail,
    pagedReport(batchDetailFields, (q, c, filter) => batchDetail(q, c.mid, c.zone, filter, c.page)),
  );
  route(
    ep.depositsSummary,
    pagedReport(noOwnFields, (q, c) =>
      depositsSummary(q, c.mid, c.zone, c.range, c.page, services.issuers.depositAccount),
    ),
  );
  for (const [spec, latestOnly] of [
    [ep.chargebacksDetail, false],
    [ep.chargebacksSummary, true],
  ] as const) {
    route(
      spec,
      pagedReport(noOwnFields, (q, c) => chargebacks(q, c.mid, c.dates, latestOnly, c.page)),
    );
  }
  route(
    ep.retrievalsDetail,
    pagedReport(noOwnFields, (q, c) => retrievals(q, c.mid, c.dates, c.page)),
  );

  route(ep.merchantStatementList, {
    ...passBody,
    async handle(body, ctx) {
      const c = await common({ MerchantNumber: body.MerchantNumber }, ctx);
      if (!c.problems.empty) {
        const messages = c.problems.messages();
        return { ...outcome(c.problems.code(), messages), ErrorMessages: messages, Result: [] };
      }
      // The statements scheduler issues each statement once its month closes; this only reads them.
      const rows = await issuedStatementList(ctx.services.storage.read, c.mid);
      return {
        ...success(),
        ErrorMessages: [],
        Result: rows.map((r) => ({
          MerchantNumber: String(c.mid),
          StatementDate: r.statement_date,
          StatementId: r.statement_id,
          Zones: [...STATEMENT_ZONES],
        })),
      };
    },
  });

  route(ep.merchantStatement, {
    ...passBody,
    async handle(body, ctx) {
      const c = await common({ MerchantNumber: body.MerchantNumber }, ctx);
      const id = text(body, 'StatementId');
      if (id === undefined)
        c.problems.add(ResponseCode.InvalidRequest, 'StatementId is required', 'StatementId');
      const zone = text(body, 'Zone');
      if (zone !== undefined && !(STATEMENT_ZONES as readonly string[]).includes(zone)) {
        c.problems.add(
          ResponseCode.InvalidRequest,
          `Zone must be one of ${STATEMENT_ZONES.join(', ')}`,
          'Zone',
        );
      }
      const refuse = (code: number, messages: string[]) => ({
        ...outcome(code, messages),
        ErrorMessages: messages,
      });
      if (!c.problems.empty || id === undefined) return refuse(c.problems.code(), c.problems.messages());
      const row = await issuedStatement(ctx.services.storage.read, c.mid, id);
      // Another merchant's statement id answers exactly like an unknown one.
      if (!row) return refuse(ResponseCode.NotFound, ['StatementId not found']);
      const data = JSON.parse(row.data) as { Zones: Record<StatementZone, unknown> };
      return {
        ...success(),
        ErrorMessages: [],
        Result: {
          MerchantNumber: String(c.mid),
          StatementData: zone === undefined ? row.data : JSON.stringify(data.Zones[zone as StatementZone]),
          StatementId: row.statement_id,
        },
      };
    },
  });
  return [createStatementsScheduler(services)];
}
