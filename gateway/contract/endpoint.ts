import type { Static, TSchema } from 'typebox';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * How an operation is authorized: `envelope` = credentials in the body (every group but Reporting),
 * `query-envelope` = the same credentials as `request.`-prefixed query parameters (Payment Links GET),
 * `bearer` = `Authorization: Bearer <Token>` from /api/Auth (Reporting), `public` = none (docs, hosted page).
 */
export type AuthMode = 'envelope' | 'query-envelope' | 'bearer' | 'public';

export type EndpointSpec = {
  readonly method: HttpMethod;
  readonly path: string;
  readonly group: string;
  readonly summary: string;
  readonly auth: AuthMode;
  readonly body?: TSchema;
  readonly querystring?: TSchema;
  readonly response: TSchema;
  /** Bytes; the global default applies when absent. */
  readonly bodyLimit?: number;
  /** The interface leaves the path unnamed: docs/decisions.md#endpoints-the-interface-leaves-unnamed */
  readonly definedHere?: boolean;
  /**
   * Fields the interface fixes as JSON numbers for this operation (SaleWithToken's Amount, SurchargeAmount
   * and TransactionType): in a JSON body their quoted text is refused (506/501) instead of bound.
   */
  readonly jsonNumbers?: readonly string[];
};

/** Declares an operation once: path, method, schemas. Routes, validation, serialization and OpenAPI all read it. */
export function endpoint<const E extends EndpointSpec>(spec: E): E {
  return spec;
}

export type BodyOf<E extends EndpointSpec> = E['body'] extends TSchema ? Static<E['body']> : never;
export type QueryOf<E extends EndpointSpec> = E['querystring'] extends TSchema
  ? Static<E['querystring']>
  : never;
export type ResponseOf<E extends EndpointSpec> = Static<E['response']>;
