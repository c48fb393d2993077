import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The wire around the interface, as the real service's published clients speak it (docs/decisions.md#wire):
 * JSON under `application/json`, `text/json` (Gson on Android) and any `+json` type, with any charset;
 * the sandbox's `/testing/api/...` URL; a 413 the client can read.
 */

/** `application/json`, `text/json`, `application/vnd.x+json`, each with or without parameters. */
export const JSON_MEDIA_TYPE =
  /^(?:application\/json|text\/json|application\/[a-z0-9!#$&^_.-]+\+json)\s*(?:;.*)?$/i;

/** The charset parameter of a Content-Type, if any. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return m?.[1];
}

class WireError extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
    readonly code: string,
  ) {
    super(message);
    this.name = 'WireError';
  }
}

type DefaultJsonParser = (
  request: FastifyRequest,
  body: string,
  done: (error: Error | null, body?: unknown) => void,
) => void;

/**
 * Replaces Fastify's `application/json` parser with one for every JSON media type: the body is decoded
 * with its declared charset (UTF-8 without one; a byte order mark is dropped), an empty body is no body
 * (the handler answers the real catalog's 13, empty request), then Fastify's own parser (with its
 * prototype-poisoning guard) reads it. A charset we cannot decode is 415.
 */
export function registerJsonParsers(app: FastifyInstance, bodyLimit: number): void {
  const parseJson = app.getDefaultJsonParser('error', 'error') as unknown as DefaultJsonParser;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(JSON_MEDIA_TYPE, { parseAs: 'buffer', bodyLimit }, (request, body, done) => {
    const charset = charsetOf(request.headers['content-type']) ?? 'utf-8';
    let text: string;
    try {
      text = new TextDecoder(charset).decode(body as Buffer);
    } catch {
      done(
        new WireError(
          `charset ${charset.slice(0, 40)} is not supported`,
          415,
          'FST_ERR_CTP_INVALID_MEDIA_TYPE',
        ),
        undefined,
      );
      return;
    }
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}

/**
 * The real service's test environment answers at `{base}/testing/api/...`: with the prefix on, such a
 * URL is served as `{base}/api/...` (case-insensitively, like every path here). Everything else is left
 * as it came.
 */
export function testingRewrite(basePath: string): (url: string) => string {
  const prefix = `${basePath}/testing/api/`.toLowerCase();
  return (url) =>
    url.slice(0, prefix.length).toLowerCase() === prefix
      ? `${basePath}/api/${url.slice(prefix.length)}`
      : url;
}

/** How much of an oversized body is read and dropped before the 413, so the client sees the answer. */
export const DRAIN_LIMITS = { bytes: 8 * 1024 * 1024, ms: 5_000 } as const;

/**
 * Reads and drops what is left of a request body, up to `limits`. A server that answers 413 and closes
 * while the client is still sending makes the client's write fail (EPIPE, ECONNRESET) before it reads the
 * answer; once the body is consumed an ordinary HTTP client reads the JSON 413. Past the limits the
 * connection is closed anyway: nobody may make us read forever.
 */
export function drainRequest(
  raw: IncomingMessage,
  limits: { bytes: number; ms: number } = DRAIN_LIMITS,
): Promise<void> {
  if (raw.readableEnded || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', finish);
      raw.off('error', finish);
      raw.off('close', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limits.bytes) finish();
    };
    const timer = setTimeout(finish, limits.ms);
    timer.unref();
    raw.on('data', onData);
    raw.on('end', finish);
    raw.on('error', finish);
    raw.on('close', finish);
    raw.resume();
  });
}
