import type { FastifyInstance } from 'fastify';
import { adminEndpoints as ep } from '../../contract/admin';
import { ResponseCode } from '../../contract/response-codes';
import { success } from '../../domain/outcome';
import { processorIdsOf } from '../../domain/processor-users';
import { changeDataWireId } from '../../domain/sub-accounts';
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
    handle: changeDataWireId,
  });

  implement(app, services, ep.doesUserExist, {
    async handle(_c, ctx) {
      const processorIds = await processorIdsOf(ctx.services.storage.read, ctx.principal.mid);
      // Reaching here means the envelope's user exists, is enabled and belongs to mid; a wrong
      // password answers 401 like every operation (so this is no oracle for user names).
      return {
        ...success(['The user exists']),
        UserExists: true,
        UserName: ctx.principal.userName,
        mid: ctx.principal.mid,
        cid: ctx.principal.cid,
        ProcessorIds: processorIds,
      };
    },
  });
}
