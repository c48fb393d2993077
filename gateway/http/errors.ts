import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ResponseCode } from '../contract/response-codes';
import { outcome, systemError, type BaseOutcome } from '../domain/outcome';
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

/**
 * Faults Fastify meets before routing (its `frameworkErrors` option): a path it cannot percent-decode
 * (FST_ERR_BAD_URL), a path parameter over the length limit (FST_ERR_MAX_PARAM_LENGTH). Fastify's own answer
 * repeats the path, which may hold anything a client put there, a card number included; ours says what
 * was wrong and nothing of what came.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_BAD_URL') {
    void reply
      .code(400)
      .send(
        outcome(ResponseCode.InvalidRequest, ['The path is not a valid URL: a percent-escape is malformed']),
      );
    return;
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply
      .code(414)
      .send(outcome(ResponseCode.InvalidRequest, ['A path segment is longer than allowed']));
    return;
  }
  const reference = randomBytes(6).toString('hex');
  request.log.error({ err: { type: error.name, code: error.code }, reference }, 'unexpected framework error');
  void reply
    .code(500)
    .send(systemError([`An unexpected error occurred; nothing was changed (reference ${reference})`]));
}

/** What a request the HTTP parser refused answers: its status and the interface's fields. */
export function clientErrorAnswer(code: string | undefined): { status: number; body: BaseOutcome } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      body: outcome(ResponseCode.InvalidRequest, ['The request did not arrive in time; nothing was done']),
    };
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      body: outcome(ResponseCode.RequestTooLarge, ["The request's headers exceed the size limit"]),
    };
  }
  return {
    status: 400,
    body: outcome(ResponseCode.InvalidRequest, ['The request is not well-formed HTTP; nothing was done']),
  };
}

/**
 * HTTP the parser refuses (Node's `clientError`: a body shorter than its Content-Length, a NUL in a header,
 * an unknown method, bad chunking, oversized headers) never reaches Fastify, so no reply object exists: the
 * answer is written to the socket as Fastify's default handler does, in the interface's shape, and the
 * connection closed (the parser cannot find the next request in what follows).
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection is already gone: nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, body } = clientErrorAnswer(error.code);
  const json = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(json)}\r\n` +
        'Connection: close\r\n\r\n' +
        json,
    );
  }
  socket.destroy(error);
}
