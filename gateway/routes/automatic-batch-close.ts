import type { FastifyInstance } from 'fastify';
import { adminEndpoints as ep, type BatchCloseResponse } from '../contract/admin';
import { ResponseCode } from '../contract/response-codes';
import {
  nextCloseOn,
  parseCloseTime,
  ranOn,
  readSchedule,
  removeAutomaticClose,
  setAutomaticClose,
  updateAutomaticHour,
  type Transition,
} from '../domain/batch-close/schedule';
import { localParts, merchantTimeZone } from '../domain/local-time';
import { DomainError, outcome } from '../domain/outcome';
import type { Problems } from '../domain/problems';
import { text } from '../http/checks';
import { implement, type Loose, type OperationContext } from '../http/operation';
import type { GatewayServices } from '../http/services';
import type { BackgroundTask } from '../schedulers/background-task';
import { createBatchCloseScheduler } from '../schedulers/batch-close';

async function scheduleAnswer(
  ctx: OperationContext,
  t: Transition,
  code: number = ResponseCode.Success,
): Promise<BatchCloseResponse> {
  const today = localParts(ctx.now, t.schedule.timeZone).date;
  const ran = await ranOn(ctx.services.storage.read, ctx.principal.mid, today);
  return {
    ...outcome(code, [t.message]),
    Enrolled: t.schedule.enrolled,
    CloseTime: t.schedule.enrolled ? t.schedule.closeTime : null,
    TimeZone: t.schedule.timeZone,
    NextCloseOn: nextCloseOn(t.schedule, ctx.now, ran),
  };
}

/** Time as the merchant's daily HH:MM; the zone is read in the handler, so this only checks the shape. */
function timeField(problems: Problems, body: Loose, required: boolean): string | undefined {
  const raw = text(body, 'Time');
  if (raw === undefined) {
    if (required && !problems.has('Time'))
      problems.add(ResponseCode.InvalidCloseTime, 'Time is required', 'Time');
    return undefined;
  }
  const shape = parseCloseTime(raw, 'UTC');
  if (!shape.ok) problems.add(ResponseCode.InvalidCloseTime, shape.reason, 'Time');
  return raw;
}

async function closeTimeOf(ctx: OperationContext, raw: string | undefined): Promise<string | undefined> {
  if (raw === undefined) return undefined;
  const parsed = parseCloseTime(raw, await merchantTimeZone(ctx.services.storage.read, ctx.principal.mid));
  if (!parsed.ok) throw new DomainError(ResponseCode.InvalidCloseTime, [parsed.reason]);
  return parsed.time;
}

/**
 * The merchant's automatic batch close: the Administration operations, Gateway Admin's SetAutomaticBatchClose
 * (the same semantics, the interface says) and the scheduler that closes the enrolled merchants' batches.
 */
export function registerAutomaticBatchCloseRoutes(
  app: FastifyInstance,
  services: GatewayServices,
): readonly BackgroundTask[] {
  for (const spec of [ep.setAutomaticBatchClose, ep.gatewaySetAutomaticBatchClose]) {
    implement(app, services, spec, {
      check: (body, problems) => ({ raw: timeField(problems, body, false) }),
      async handle(c, ctx) {
        const time = await closeTimeOf(ctx, c.raw);
        const t = await ctx.services.storage.write((tx) =>
          setAutomaticClose(tx, ctx.principal.mid, time, ctx.now.toISOString()),
        );
        return scheduleAnswer(ctx, t);
      },
    });
  }

  implement(app, services, ep.updateAutomaticHour, {
    check: (body, problems) => timeField(problems, body, true),
    async handle(raw, ctx) {
      const time = (await closeTimeOf(ctx, raw)) ?? '';
      const t = await ctx.services.storage.write((tx) =>
        updateAutomaticHour(tx, ctx.principal.mid, time, ctx.now.toISOString()),
      );
      return scheduleAnswer(ctx, t);
    },
  });

  implement(app, services, ep.removeFromAutomaticClose, {
    async handle(_c, ctx) {
      const t = await ctx.services.storage.write((tx) =>
        removeAutomaticClose(tx, ctx.principal.mid, ctx.now.toISOString()),
      );
      return scheduleAnswer(ctx, t);
    },
  });

  implement(app, services, ep.getAutomaticBatchClose, {
    async handle(_c, ctx) {
      const s = await readSchedule(ctx.services.storage.read, ctx.principal.mid);
      return scheduleAnswer(ctx, {
        changed: false,
        schedule: s,
        message: s.enrolled ? `Enrolled at ${s.closeTime}` : 'Not enrolled in automatic batch close',
      });
    },
  });

  return [
    createBatchCloseScheduler(services, {
      onError: (message, error) =>
        app.log.error({ err: { type: error instanceof Error ? error.name : typeof error } }, message),
    }),
  ];
}
