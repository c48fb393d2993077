import type { FastifyInstance } from 'fastify';
import {
  PaymentLinkRecord as PaymentLinkRecordSchema,
  paymentLinkEndpoints as ep,
} from '../contract/payment-links';
import { dateFilterNames, dayOf, listLinks, type LinkFilters } from '../domain/payment-links-list';
import { sendStreamedArray } from '../http/streamed-json';
import { ResponseCode } from '../contract/response-codes';
import { DomainError, success } from '../domain/outcome';
import {
  defaultLinkSettings,
  isLinkId,
  changeLink,
  insertLink,
  linkChanges,
  linkRecord,
  newLinkRow,
  parseLinkAmount,
  requireLink,
  resolveLinkSettings,
  type LinkRow,
} from '../domain/payment-links';
import { Problems } from '../domain/problems';
import { merchantToday } from '../domain/recurring-billing';
import { implement, type Loose, type OperationContext } from '../http/operation';
import type { GatewayServices } from '../http/services';

function isObject(v: unknown): v is Loose {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The nested PaymentLink object; the schema already reported it when it is missing or not an object. */
function linkInput(body: Loose, problems: Problems, ctx: OperationContext): Loose | undefined {
  const input = body.PaymentLink;
  if (!isObject(input)) {
    if (!problems.has('PaymentLink'))
      problems.add(ResponseCode.InvalidRequest, 'PaymentLink is required (an object)', 'PaymentLink');
    return undefined;
  }
  const amount = input.Amount;
  if (amount !== undefined && amount !== null && typeof amount !== 'string') {
    // The schema reports the type too; the amount rule's own code (506) leads the answer.
    problems.add(
      ResponseCode.InvalidAmount,
      'PaymentLink.Amount must be en-US currency text such as "12.50" (a string, not a JSON number)',
      'PaymentLink.Amount',
    );
  }
  if (typeof input.MerchantId === 'number' && input.MerchantId !== ctx.principal.mid) {
    problems.add(
      ResponseCode.MerchantAccessDenied,
      'PaymentLink.MerchantId must be the envelope mid: a link belongs to the authenticated merchant',
      'PaymentLink.MerchantId',
    );
  }
  return input;
}

/** PaymentLink.Id of the operations that act on one link. */
function linkIdOf(input: Loose | undefined, problems: Problems): string | undefined {
  if (!input) return undefined;
  const id = input.Id;
  if (typeof id !== 'string' || id.length === 0) {
    if (!problems.has('PaymentLink.Id'))
      problems.add(ResponseCode.InvalidRequest, 'PaymentLink.Id is required', 'PaymentLink.Id');
    return undefined;
  }
  if (!isLinkId(id)) {
    problems.add(
      ResponseCode.InvalidRequest,
      'PaymentLink.Id must be the UUID the link was created with',
      'PaymentLink.Id',
    );
    return undefined;
  }
  return id;
}

function answer(ctx: OperationContext, link: LinkRow, message: string) {
  return { ...success([message]), PaymentLink: linkRecord(link, ctx.services.config) };
}

/** The domain's changeLink for the principal's merchant, at the request's time. */
const changeLinkOf = (ctx: OperationContext, linkId: string, change: Parameters<typeof changeLink>[4]) =>
  changeLink(ctx.services.storage, ctx.principal.mid, linkId, ctx.now, change);

type Filters = LinkFilters;

export function registerPaymentLinkRoutes(app: FastifyInstance, services: GatewayServices): void {
  const create = {
    check(body: Loose, problems: Problems, ctx: OperationContext) {
      const input = linkInput(body, problems, ctx);
      return input ? { input } : undefined;
    },
    async handle(c: { input: Loose }, ctx: OperationContext) {
      const q = ctx.services.storage.read;
      const today = await merchantToday(q, ctx.principal.mid, ctx.now);
      const problems = new Problems();
      const settings = resolveLinkSettings(c.input, defaultLinkSettings, problems, {
        ceilingCents: ctx.services.rules.amountCeilingCents,
        today,
      });
      if (!problems.empty) throw new DomainError(problems.code(), problems.messages());
      const { mid, userId, cid } = ctx.principal;
      const row = newLinkRow({ mid, userId, cid }, settings, ctx.now.toISOString());
      return answer(ctx, await insertLink(ctx.services.storage, row), 'Payment link created');
    },
  };
  implement(app, services, ep.create, create);
  implement(app, services, ep.add, create);

  implement(app, services, ep.edit, {
    check(body, problems, ctx) {
      const input = linkInput(body, problems, ctx);
      const id = linkIdOf(input, problems);
      return input && id ? { input, id } : undefined;
    },
    async handle(c, ctx) {
      const today = await merchantToday(ctx.services.storage.read, ctx.principal.mid, ctx.now);
      const link = await changeLinkOf(ctx, c.id, async (current, tx) => {
        if (current.status === 'Paid')
          throw new DomainError(ResponseCode.PaymentLinkPaid, ['A paid link cannot be edited']);
        const problems = new Problems();
        const settings = resolveLinkSettings(c.input, current, problems, {
          ceilingCents: ctx.services.rules.amountCeilingCents,
          today,
        });
        if (!problems.empty) throw new DomainError(problems.code(), problems.messages());
        await linkChanges.settings(tx, current.id, settings, ctx.now.toISOString());
      });
      return answer(ctx, link, 'Payment link updated');
    },
  });

  const byId = {
    check(body: Loose, problems: Problems, ctx: OperationContext) {
      return linkIdOf(linkInput(body, problems, ctx), problems);
    },
  };

  implement(app, services, ep.disable, {
    ...byId,
    async handle(id, ctx) {
      const link = await changeLinkOf(ctx, id, async (current, tx) => {
        if (current.active === 0) return;
        await linkChanges.disable(tx, current.id, ctx.now.toISOString());
      });
      return answer(ctx, link, 'Payment link disabled');
    },
  });

  implement(app, services, ep.enable, {
    ...byId,
    async handle(id, ctx) {
      const link = await changeLinkOf(ctx, id, async (current, tx) => {
        if (current.active === 1) return;
        await linkChanges.enable(tx, current.id, ctx.now.toISOString());
      });
      return answer(
        ctx,
        link,
        link.status === 'Paid' ? 'Payment link enabled (it stays paid)' : 'Payment link enabled',
      );
    },
  });

  implement(app, services, ep.delete, {
    ...byId,
    async handle(id, ctx) {
      const link = await changeLinkOf(ctx, id, (current, tx) =>
        linkChanges.delete(tx, current.id, ctx.now.toISOString()).then(() => undefined),
      );
      return answer(ctx, link, 'Payment link deleted');
    },
  });

  implement(app, services, ep.get, {
    ...byId,
    async handle(id, ctx) {
      const link = await requireLink(ctx.services.storage.read, ctx.principal.mid, id);
      return answer(ctx, link, 'Success');
    },
  });

  implement(app, services, ep.list, {
    check(query, problems) {
      const f = query as Filters;
      const amount = f['request.paymentLink.amount'];
      let amountCents: number | null | undefined;
      if (typeof amount === 'string') {
        const parsed = parseLinkAmount(amount);
        if (parsed.ok) amountCents = parsed.cents;
        else
          problems.add(
            ResponseCode.InvalidAmount,
            `request.paymentLink.amount ${parsed.reason}`,
            'request.paymentLink.amount',
          );
      }
      for (const name of dateFilterNames) {
        const v = f[name];
        if (typeof v === 'string' && dayOf(v) === null)
          problems.add(ResponseCode.InvalidRequest, `${name} must be a date or date-time`, name);
      }
      const id = f['request.paymentLink.id'];
      if (typeof id === 'string' && !isLinkId(id))
        problems.add(
          ResponseCode.InvalidRequest,
          'request.paymentLink.id must be a UUID',
          'request.paymentLink.id',
        );
      return { filters: f, amountCents };
    },
    async handle(c, ctx) {
      const f = c.filters;
      const mid = ctx.principal.mid;
      // A merchantId filter naming another merchant matches nothing: a merchant only ever sees its own links.
      const merchantFilter = f['request.paymentLink.merchantId'];
      if (typeof merchantFilter === 'number' && merchantFilter !== mid)
        return { ...success(), PaymentLinks: [] };
      return sendStreamedArray(
        ctx.reply,
        success(),
        'PaymentLinks',
        PaymentLinkRecordSchema,
        listLinks(ctx.services.storage.read, mid, f, c.amountCents, ctx.services.config),
      );
    },
  });
}
