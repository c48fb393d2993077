import type { FastifyError, FastifyInstance } from 'fastify';
import { ResponseCode } from '../contract/response-codes';
import { outcome, systemError } from '../domain/outcome';
import { randomBytes } from 'node:crypto';
import { drainRequest } from './wire';

/**
 * Transport-level faults answer in JSON with their HTTP status and the same four fields: unparseable body
 * 400, too large 413, unknown path 404, wrong method 405, unsupported media type 415. Anything unexpected is
 * 500 with a reference the log holds — never a stack trace.
 */
export function registerErrorHandlers(
  app: FastifyInstance,
  knownPaths: () => Map<string, Set<string>>,
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
      // Read (and drop) the rest of the body first, bounded, so the client gets to read this answer.
      void drainRequest(request.raw).then(() =>
        reply
          .code(413)
          .header('connection', 'close')
          .send(outcome(ResponseCode.RequestTooLarge, ['The body exceeds the size limit'])),
      );
      return reply;
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
      return reply
        .code(415)
        .send(
          outcome(ResponseCode.UnsupportedMediaType, [
            error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' && error.message.startsWith('charset')
              ? `The body's ${error.message}: send UTF-8`
              : 'Send JSON (application/json, text/json, +json) or application/x-www-form-urlencoded',
          ]),
        );
    }
    if (error.code === 'TILLPOINT_RESERVED_FIELD_NAME') {
      return reply.code(400).send(outcome(ResponseCode.InvalidRequest, [error.message]));
    }
    if (status === 400) {
      return reply
        .code(400)
        .send(outcome(ResponseCode.InvalidRequest, ['The body is not valid JSON or form data']));
    }
    const reference = randomBytes(6).toString('hex');
    request.log.error(
      { err: { type: error.name, code: error.code, message: error.message }, reference },
      'unexpected error',
    );
    return reply
      .code(500)
      .send(systemError([`An unexpected error occurred; nothing was changed (reference ${reference})`]));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const methods = knownPaths().get(path.toLowerCase());
    if (methods && !methods.has(request.method)) {
      return reply
        .code(405)
        .header('allow', [...methods].join(', '))
        .send(
          outcome(ResponseCode.MethodNotAllowed, [
            `${request.method} is not allowed here; use ${[...methods].join(' or ')}`,
          ]),
        );
    }
    return reply.code(404).send(outcome(ResponseCode.NotFound, ['No such path']));
  });
}
