import type { FastifyInstance } from 'fastify';
import { adminEndpoints as ep } from '../../contract/admin';
import { ResponseCode } from '../../contract/response-codes';
import { success } from '../../domain/outcome';
import { text } from '../../http/checks';
import { implement } from '../../http/operation';
import type { GatewayServices } from '../../http/services';

/** Gateway Admin's operations on the calling user: its DataWire id, and whether it exists. */
export function registerGatewayAdminUserRoutes(app: FastifyInstance, services: GatewayServices): void {
  implement(app, services, ep.changeDataWireId, {
    check(body, problems) {
      const id = text(body, 'DataWireID');
      if (id === undefined) problems.add(ResponseCode.InvalidRequest, 'DataWireID is required', 'DataWireID');
      else if (!/^[A-Za-z0-9-]{1,40}$/.test(id))
        problems.add(
          ResponseCode.InvalidRequest,
          'DataWireID must be 1-40 letters, digits or -',
          'DataWireID',
        );
      const processorMid = text(body, 'ProcessorMid');
      if (processorMid !== undefined && !/^[A-Za-z0-9-]{1,40}$/.test(processorMid))
        problems.add(
          ResponseCode.InvalidRequest,
          'ProcessorMid must be 1-40 letters, digits or -',
          'ProcessorMid',
        );
      return id !== undefined && problems.empty ? { id, processorMid } : undefined;
    },
    async handle(c, ctx) {
      const { mid, cid } = ctx.principal;
      const now = ctx.now.toISOString();
      const saved = await ctx.services.storage.write(async (tx) => {
        await tx.lock(`cashier:${mid}:${cid}`);
        const before = await tx.first(
          tx.qb.selectFrom('cashier_settings').selectAll().where('mid', '=', mid).where('cid', '=', cid),
        );
        const values = {
          datawire_id: c.id,
          // The previous id is kept as the backup, unless the same id is sent again.
          datawire_id_backup:
            before && before.datawire_id !== c.id ? before.datawire_id : (before?.datawire_id_backup ?? ''),
          processor_mid: c.processorMid ?? before?.processor_mid ?? '',
          updated_at: now,
        };
        if (before) {
          await tx.run(
            tx.qb.updateTable('cashier_settings').set(values).where('mid', '=', mid).where('cid', '=', cid),
          );
        } else {
          await tx.run(tx.qb.insertInto('cashier_settings').values({ mid, cid, ...values }));
        }
        return values;
      });
      return {
        ...success(['DataWire id changed']),
        cid,
        DataWireId: saved.datawire_id,
        DataWireIdBackUp: saved.datawire_id_backup,
        ProcessorMid: saved.processor_mid,
      };
    },
  });

  implement(app, services, ep.doesUserExist, {
    async handle(_c, ctx) {
      const q = ctx.services.storage.read;
      const rows = await q.all(
        q.qb
          .selectFrom('processor_users')
          .select('processor_id')
          .where('mid', '=', ctx.principal.mid)
          .orderBy('processor_id'),
      );
      // Reaching here means the envelope's user exists, is enabled and belongs to mid; a wrong
      // password answers 401 like every operation (so this is no oracle for user names).
      return {
        ...success(['The user exists']),
        UserExists: true,
        UserName: ctx.principal.userName,
        mid: ctx.principal.mid,
        cid: ctx.principal.cid,
        ProcessorIds: rows.map((r) => r.processor_id),
      };
    },
  });
}
