import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifySwaggerUiConfigOptions } from '@fastify/swagger-ui';
import { tryItExamples, type TryItFixtures } from './try-it-examples';
import { freeProcessorId, makeTryItFixtures, type TryItCall } from './try-it-fixtures';

/**
 * The sandbox's /docs page: every operation's "Try it out" filled with an example that works
 * (try-it-examples.ts) instead of schema filler. It changes only the page's copy of the document
 * (`/docs/json`); `/openapi.json` stays the plain contract, with no credentials in it.
 *
 * The records the examples work on are made on the first load of the page after the gateway starts, once
 * per process (never on an ordinary request, never at startup, where every test gateway would pay for
 * them); every load then reads which processor is free for AddUserToProcessor — one read, less work than
 * serializing the document itself, so reloading the page cannot make the gateway work harder than a
 * client could. An example that consumes its record (a void, a full refund, a delete) says it works once.
 */

type OpenApiOperation = {
  description?: string;
  parameters?: { name: string; in: string; example?: unknown }[];
  requestBody?: { content?: Record<string, { example?: unknown }> };
};
type OpenApiDocument = { paths?: Record<string, Record<string, OpenApiOperation>> };

export type TryItDocs = {
  /** swagger-ui's preHandler hook: makes (once) and reads what the examples need. */
  prepare(request: FastifyRequest): Promise<void>;
  /** swagger-ui's transformSpecification: the page's document with the examples in it. */
  transform(document: Record<string, unknown>, request: FastifyRequest): Record<string, unknown>;
};

export function tryItDocs(
  app: FastifyInstance,
  basePath: string,
  now: () => Date,
  // GetMerchantStatement's example needs an issued statement; the statements scheduler's first pass is
  // minutes after start, so the first load of the page runs one pass itself (what the scheduler would do).
  issueStatements: () => Promise<void>,
): TryItDocs {
  const call: TryItCall = async (method, path, body, headers = {}) => {
    const response = await app.inject({
      method,
      url: basePath + path,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body ? { payload: body } : {}),
    });
    return response.json<Record<string, unknown>>();
  };
  let made: Promise<Omit<TryItFixtures, 'freeProcessorId'>> | undefined;
  const prepared = new WeakMap<FastifyRequest, TryItFixtures | Error>();

  return {
    async prepare(request) {
      if (!/\/(json|yaml)$/.test(request.url.split('?')[0] ?? '')) return;
      made ??= issueStatements().then(() => makeTryItFixtures(call));
      try {
        const fixtures = await made;
        prepared.set(request, { ...fixtures, freeProcessorId: await freeProcessorId(call) });
      } catch (error) {
        // The next load tries again; this one shows the operations without examples, and says why.
        made = undefined;
        request.log.warn(
          { err: { type: (error as Error).name, message: (error as Error).message } },
          'try-it',
        );
        prepared.set(request, error as Error);
      }
    },
    transform(document, request) {
      const fixtures = prepared.get(request);
      const doc = document as OpenApiDocument;
      if (!fixtures || fixtures instanceof Error) {
        const reason = fixtures?.message ?? 'not prepared';
        for (const methods of Object.values(doc.paths ?? {}))
          for (const op of Object.values(methods))
            op.description = join(
              op.description,
              `Try it out: the sandbox could not prepare its examples (${reason}).`,
            );
        return document;
      }
      const examples = tryItExamples(fixtures, now());
      for (const [path, methods] of Object.entries(doc.paths ?? {})) {
        const local = basePath && path.startsWith(basePath) ? path.slice(basePath.length) : path;
        for (const [method, op] of Object.entries(methods)) {
          const example = examples.get(`${method.toUpperCase()} ${local}`);
          if (!example) continue;
          if (example.body) {
            const json = op.requestBody?.content?.['application/json'];
            if (json) json.example = example.body;
          }
          if (example.query) {
            for (const p of op.parameters ?? []) {
              const value = p.in === 'query' ? example.query[p.name] : undefined;
              if (value !== undefined) p.example = value;
            }
          }
          op.description = join(
            op.description,
            `Try it out (sandbox): the published demo merchant, sandbox test data${example.note ? `; ${example.note}` : ''}.`,
          );
        }
      }
      return document;
    },
  };
}

function join(description: string | undefined, line: string): string {
  return description ? `${description}\n\n${line}` : line;
}

/**
 * Swagger UI's own setting for the page: "Try it out" open on every operation, so the example is the
 * body a newcomer sees and executes. (The Reporting group's token is given with the page's Authorize
 * button, as on any Swagger UI page: no script of ours runs in the browser.)
 */
export const tryItUiConfig: FastifySwaggerUiConfigOptions = { tryItOutEnabled: true };
