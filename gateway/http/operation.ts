import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { envelopeFieldNames } from '../contract/common';
import type { EndpointSpec, ResponseOf } from '../contract/endpoint';
import { aliasesOf } from '../contract/path-aliases';
import { ResponseCode } from '../contract/response-codes';
import type { RequestContext } from '../domain/context';
import { DomainError, outcome, type BaseOutcome } from '../domain/outcome';
import { Problems } from '../domain/problems';
import { codeForField } from '../domain/rules/sale-with-token-checks';
import { findTransactionNumber, refusalFor } from '../domain/rules/user-transaction-number';
import type { Credentials, Principal } from '../security/authenticator';
import { verifyToken } from '../security/bearer-token';
import { CheckViolation, UniqueViolation } from '../storage/queryable';
import { bindFields, bindJson, declaredSchemaAt, isFormRequest } from './binding';
import type { GatewayServices } from './services';

/** A request body before we trust it: any field may be missing or of the wrong type. */
export type Loose = Readonly<Record<string, unknown>>;

export type OperationContext = RequestContext & {
  services: GatewayServices;
  request: FastifyRequest;
  reply: FastifyReply;
  now: Date;
};

/**
 * An operation's behaviour for its declared endpoint. `check` turns the loose body into a command and
 * reports every problem (the pipeline has already added the schema's); `handle` runs only with no problem.
 */
export type Operation<E extends EndpointSpec, C> = {
  /** The body field naming a UserTransactionNumber: a used one is refused before validation (the interface's replay lookup). */
  replayField?: string;
  /**
   * The handler's first database act reserves the replayField's number (a payment's first unit of work)
   * and refuses a used one with the replay lookup's own answer (refusalFor). The lookup is then made only
   * for a request refused before that — by its checks, or by a DomainError thrown ahead of the reservation
   * (a merchant rule) — so the answers are the same and a sale saves a round trip to the database.
   */
  reservesNumber?: boolean;
  check?: (body: Loose, problems: Problems, ctx: OperationContext) => C | undefined;
  /** The answer, or the reply itself once the handler has sent it (a streamed answer: streamed-json.ts). */
  handle: (command: C, ctx: OperationContext) => Promise<ResponseOf<E> | BaseOutcome | FastifyReply>;
};

type AjvIssue = {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
};

function propertyType(schema: EndpointSpec['body'], path: string[]): string | undefined {
  const node = schema ? declaredSchemaAt(schema, path) : undefined;
  return typeof node?.type === 'string' ? node.type : undefined;
}

/** Schema validation errors as problems, one readable sentence each, never echoing the value. */
export function addSchemaProblems(
  problems: Problems,
  issues: readonly AjvIssue[],
  schema: EndpointSpec['body'],
): void {
  for (const issue of issues) {
    const path = (issue.instancePath ?? '')
      .split('/')
      .filter(Boolean)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const missingProperty = issue.params?.missingProperty;
    const missing =
      issue.keyword === 'required' && typeof missingProperty === 'string' ? missingProperty : null;
    if (missing) path.push(missing);
    const field = path.join('.') || 'body';
    const type = propertyType(schema, path);
    const code = codeForField(path[path.length - 1] ?? '', type, issue.keyword ?? '');
    let text: string;
    if (missing) text = `${field} is required`;
    else if (issue.keyword === 'type') {
      const expected = issue.params?.type;
      text = `${field} must be ${typeof expected === 'string' ? expected : 'of the declared type'}`;
    } else if (issue.keyword === 'enum' || issue.keyword === 'const')
      text = `${field} is not one of the allowed values`;
    else text = `${field} ${issue.message ?? 'is invalid'}`;
    problems.add(code, text, field);
  }
}

const credentialQueryNames: Record<string, keyof Credentials | 'IsTest' | 'Source'> = {
  'request.appkey': 'AppKey',
  'request.apptype': 'AppType',
  'request.mid': 'mid',
  'request.cid': 'cid',
  'request.username': 'UserName',
  'request.password': 'Password',
  'request.istest': 'IsTest',
  'request.source': 'Source',
};

function credentialsFrom(source: Loose, problems: Problems): Credentials | null {
  const local = new Problems();
  const text = (name: keyof Credentials) => {
    const v = source[name];
    if (typeof v !== 'string' || v.length === 0)
      local.add(ResponseCode.AuthenticationFailed, `${name} is required (string)`, name);
    return typeof v === 'string' ? v : '';
  };
  const int = (name: keyof Credentials) => {
    const v = source[name];
    if (typeof v !== 'number' || !Number.isInteger(v))
      local.add(ResponseCode.AuthenticationFailed, `${name} is required (int32)`, name);
    return typeof v === 'number' ? v : 0;
  };
  const c: Credentials = {
    AppKey: text('AppKey'),
    AppType: int('AppType'),
    mid: int('mid'),
    cid: int('cid'),
    UserName: text('UserName'),
    Password: text('Password'),
  };
  if (!local.empty) {
    for (const m of local.messages()) problems.add(ResponseCode.AuthenticationFailed, m);
    return null;
  }
  return c;
}

function envelopeFromQuery(query: Loose): Loose {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) {
    const lower = k.toLowerCase();
    const name = Object.hasOwn(credentialQueryNames, lower) ? credentialQueryNames[lower] : undefined;
    if (name) out[name] = v;
  }
  return out;
}

type Authorized =
  | { ok: true; principal: Principal; isTest: boolean; source: string | null }
  | { ok: false; answer: BaseOutcome };

async function authorize(
  spec: EndpointSpec,
  input: Loose,
  request: FastifyRequest,
  services: GatewayServices,
): Promise<Authorized> {
  if (spec.auth === 'public') {
    return {
      ok: true,
      principal: { userId: 0, userName: '', mid: 0, cid: 0, appKey: '', appType: 0 },
      isTest: false,
      source: null,
    };
  }
  if (spec.auth === 'bearer') {
    const header = request.headers.authorization ?? '';
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    if (!m?.[1]) {
      return {
        ok: false,
        answer: outcome(ResponseCode.AuthenticationFailed, [
          'Authorization: Bearer <Token> from /api/Auth is required',
        ]),
      };
    }
    const check = verifyToken(services.keys.tokenKey, m[1], services.clock.now(), 'reporting');
    if (!check.ok)
      return {
        ok: false,
        answer: outcome(ResponseCode.AuthenticationFailed, [`Bearer token rejected: ${check.reason}`]),
      };
    const c = check.claims;
    return {
      ok: true,
      principal: { userId: c.uid, userName: '', mid: c.mid, cid: c.cid, appKey: '', appType: 0 },
      isTest: false,
      source: null,
    };
  }
  const envelope = spec.auth === 'query-envelope' ? envelopeFromQuery(input) : input;
  const problems = new Problems();
  const credentials = credentialsFrom(envelope, problems);
  if (!credentials)
    return { ok: false, answer: outcome(ResponseCode.AuthenticationFailed, problems.messages()) };
  const result = await services.authenticator.authenticate(credentials, request.ip);
  if (!result.ok) return { ok: false, answer: outcome(result.code, result.messages) };
  return {
    ok: true,
    principal: result.principal,
    isTest: envelope.IsTest === true,
    source: typeof envelope.Source === 'string' ? envelope.Source : null,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Registers one declared endpoint. The pipeline is the same for every operation, in the interface's order:
 * bind form/query fields → authenticate (envelope, query envelope or bearer) → replay lookup of the
 * UserTransactionNumber → schema problems + the operation's own checks, all reported together → handle.
 */
export function implement<E extends EndpointSpec, C>(
  app: FastifyInstance,
  services: GatewayServices,
  spec: E,
  operation: Operation<E, C>,
): void {
  const inputSchema = spec.method === 'GET' ? spec.querystring : spec.body;
  // The operation at its path and at every alias of the alias table, one handler for all; the aliases
  // stay out of /openapi.json, whose entry names them.
  const aliases = aliasesOf(spec.path);
  for (const url of [spec.path, ...aliases]) {
    registerRoute(app, services, spec, operation, inputSchema, url, aliases);
  }
}

function registerRoute<E extends EndpointSpec, C>(
  app: FastifyInstance,
  services: GatewayServices,
  spec: E,
  operation: Operation<E, C>,
  inputSchema: EndpointSpec['body'],
  url: string,
  aliases: readonly string[],
): void {
  const isAlias = url !== spec.path;
  app.route({
    method: spec.method,
    url,
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
    attachValidation: true,
    schema: {
      ...(spec.body ? { body: spec.body } : {}),
      ...(spec.querystring ? { querystring: spec.querystring } : {}),
      response: { 200: spec.response },
      tags: [spec.group],
      summary: spec.summary,
      ...(spec.auth === 'bearer' ? { security: [{ bearer: [] }] } : {}),
      ...(operationDescription(spec, aliases, isAlias)
        ? { description: operationDescription(spec, aliases, isAlias) }
        : {}),
      ...(isAlias ? { hide: true } : {}),
      operationId: `${spec.method.toLowerCase()}${url.replace(/[^A-Za-z0-9]+/g, '_')}`,
    },
    // One tolerant binder for JSON, forms and query strings (http/binding.ts) before the schema sees it.
    preValidation: (request, _reply, done) => {
      try {
        if (spec.body && isObject(request.body)) {
          request.body = isFormRequest(request.headers['content-type'])
            ? bindFields(request.body, spec.body)
            : bindJson(request.body, spec.body, spec.jsonNumbers ? { jsonNumbers: spec.jsonNumbers } : {});
        }
        if (spec.querystring && isObject(request.query))
          request.query = bindFields(request.query, spec.querystring);
      } catch (error) {
        // A reserved field name (binding.ts): the error handler answers 400 before anyone is authenticated.
        done(error as Error);
        return;
      }
      done();
    },
    handler: async (request, reply) => {
      const raw = spec.method === 'GET' ? request.query : request.body;
      // No body at all (nothing, whitespace, JSON null): the real catalog's empty request.
      if (spec.body && (raw === undefined || raw === null)) {
        return outcome(ResponseCode.EmptyRequest, ["The request is empty: send the operation's fields"]);
      }
      if (inputSchema && !isObject(raw)) {
        return outcome(ResponseCode.InvalidRequest, ['The body must be a JSON object or a form']);
      }
      const input: Loose = isObject(raw) ? raw : {};
      const auth = await authorize(spec, input, request, services);
      if (!auth.ok) return auth.answer;
      const ctx: OperationContext = {
        principal: auth.principal,
        isTest: auth.isTest,
        source: auth.source,
        services,
        request,
        reply,
        now: services.clock.now(),
      };
      const replay = operation.replayField ? input[operation.replayField] : undefined;
      const replayRefusal = async (): Promise<BaseOutcome | null> => {
        if (typeof replay !== 'string' || replay.length === 0) return null;
        const used = await findTransactionNumber(services.storage.read, auth.principal.mid, replay);
        if (!used) return null;
        const refusal = refusalFor(used);
        return outcome(refusal.code, refusal.messages);
      };
      if (!operation.reservesNumber) {
        const refused = await replayRefusal();
        if (refused) return refused;
      }
      const problems = new Problems();
      if (request.validationError) {
        addSchemaProblems(problems, (request.validationError.validation ?? []) as AjvIssue[], inputSchema);
      }
      const command = operation.check ? operation.check(input, problems, ctx) : (undefined as C);
      if (!problems.empty) {
        const refused = operation.reservesNumber ? await replayRefusal() : null;
        if (refused) return refused;
        const answer = outcome(problems.code(), problems.messages());
        const verbiage = problems.verbiage();
        return verbiage ? { ...answer, verbiage } : answer;
      }
      try {
        return await operation.handle(command as C, ctx);
      } catch (error) {
        if (error instanceof DomainError) {
          const refused = operation.reservesNumber ? await replayRefusal() : null;
          return refused ?? outcome(error.code, error.messages);
        }
        if (error instanceof UniqueViolation && error.constraint.includes('transaction_numbers')) {
          return outcome(ResponseCode.DuplicateTransactionNumber, [
            'UserTransactionNumber was already used; send a new one',
          ]);
        }
        // The database's own guard of the refund ceiling (the domain checks it first, under a lock): if a
        // race ever got past that, the unit of work was rolled back whole and the answer is the rule's.
        if (error instanceof CheckViolation && error.constraint === 'payments_refund_ceiling') {
          return outcome(ResponseCode.RefundImpossible, [
            'Refunds would exceed the original amount; nothing was changed',
          ]);
        }
        throw error;
      }
    },
  });
}

/** For operations whose body has nothing past the envelope. */
export function typed<T>(body: Loose): T {
  return body as unknown as T;
}

export type { Static };
export { envelopeFieldNames };

/** A reader of the OpenAPI document tells the interface's paths from the ones the interface leaves unnamed. */
export const DEFINED_HERE_NOTE = 'Defined by Tillpoint: the interface leaves this path unnamed (docs/).';

function operationDescription(spec: EndpointSpec, aliases: readonly string[], isAlias: boolean): string {
  const parts: string[] = [];
  if (spec.definedHere) parts.push(DEFINED_HERE_NOTE);
  if (aliases.length > 0 && !isAlias) parts.push(`Also served at ${aliases.join(', ')}.`);
  return parts.join(' ');
}
