import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildGateway, type Gateway, type GatewayOptions } from '../../gateway/app';
import type { Clock } from '../../gateway/domain/clock';
import type { DeclineCodeValue } from '../../gateway/contract/decline-codes';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { dropSchema, schemaOf, testDatabaseFor } from './test-database';

export const merchant1 = {
  AppKey: 'sandbox-app-key',
  AppType: 1,
  mid: 1001,
  cid: 1,
  UserName: 'sandbox',
  Password: 'sandbox-pass',
} as const;

export const merchant2 = {
  AppKey: 'sandbox-app-key',
  AppType: 1,
  mid: 1002,
  cid: 2,
  UserName: 'sandbox2',
  Password: 'sandbox2-pass',
} as const;

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private current: Date = new Date()) {}
  now(): Date {
    return new Date(this.current);
  }
  set(d: Date): void {
    this.current = new Date(d);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export type Json = Record<string, unknown>;

export type TestGateway = {
  gateway: Gateway;
  baseUrl: string;
  dataDir: string;
  /** POST a JSON body (or raw text with a content type) and parse the JSON answer. */
  post(
    path: string,
    body: unknown,
    init?: { contentType?: string; raw?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: Json }>;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: Json }>;
  close(): Promise<void>;
};

let counter = 0;
/** A UserTransactionNumber no other test uses. */
export function utn(prefix = 'T'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

/**
 * A sandbox gateway on a real database — a SQLite file in a temp folder, or (in the postgres test project)
 * a fresh PostgreSQL schema of its own — listening on loopback port 0; tests talk to it over real HTTP, as
 * a client would.
 */
export async function startGateway(options: Partial<GatewayOptions> = {}): Promise<TestGateway> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tillpoint-gw-'));
  const database = options.database ?? (await testDatabaseFor(dataDir));
  const gateway = await buildGateway({
    dataDir,
    sandbox: true,
    logger: false,
    sandboxSlowMs: 1_500,
    ...options,
    database,
  });
  const baseUrl = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  gateway.services.config.publicUrl ||= baseUrl;
  const request = async (
    method: string,
    path: string,
    body: string | undefined,
    headers: Record<string, string>,
  ) => {
    const res = await fetch(baseUrl + path, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    let parsed: Json;
    try {
      parsed = JSON.parse(text) as Json;
    } catch {
      parsed = { raw: text };
    }
    return { status: res.status, body: parsed };
  };
  return {
    gateway,
    baseUrl,
    dataDir,
    post: (path, body, init = {}) =>
      request('POST', path, init.raw ?? JSON.stringify(body), {
        'content-type': init.contentType ?? 'application/json',
        ...(init.headers ?? {}),
      }),
    get: (path, headers = {}) => request('GET', path, undefined, headers),
    async close() {
      await gateway.close();
      if (!options.dataDir) {
        const schema = schemaOf(dataDir);
        if (schema) await dropSchema(schema);
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** A keyed credit sale body for merchant 1 (override anything). */
export function keyedSale(overrides: Json = {}): Json {
  return {
    ...merchant1,
    Amount: 10,
    TransactionType: 1,
    UserTransactionNumber: utn('sale'),
    CardNumber: '4111111111111111',
    ExpDate: '1230',
    CVN: '123',
    ForceDuplication: true,
    ...overrides,
  };
}

/**
 * POST a JSON body from a given loopback source address (127.0.0.2, 127.0.0.3, …: every 127/8 address is
 * the local host on Linux), so a test can be several clients at several addresses, as the gateway sees them.
 */
export function postFrom(
  baseUrl: string,
  localAddress: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Json }> {
  const url = new URL(path, baseUrl);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Json });
          } catch {
            resolve({ status: res.statusCode ?? 0, body: { raw: text } });
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * The verbiage each decline reason answers, as the clients that map verbiage expect it (docs/response-codes.md
 * lists them): written out here, not read from the catalog, so a changed word fails a test.
 */
const declineVerbiage: Record<DeclineCodeValue, string> = {
  100: 'DO NOT HONOR',
  101: 'INSUFFICIENT FUNDS',
  102: 'EXPIRED CARD',
  103: 'CVV2 MISMATCH',
  105: 'INCORRECT PIN',
  109: 'CARD TYPE NOT SUPPORTED',
  110: 'AVS STREET MISMATCH',
  111: 'AVS ZIP MISMATCH',
  112: 'CVV2 MISMATCH',
  113: 'ACCOUNT BLOCKED',
  114: 'CARD NOT ACTIVE',
  720: 'CRYPTOGRAM MISSING',
  721: 'CRYPTOGRAM INVALID',
  722: 'CRYPTOGRAM REPLAYED',
  723: 'CRYPTOGRAM AMOUNT MISMATCH',
  724: 'CRYPTOGRAM VERSION NOT SUPPORTED',
};

/**
 * What a decline looks like on the wire (the real service's catalog): ResponseCode 3, the reason's
 * verbiage, the reason in DeclineCode. For `expect(body).toMatchObject(declined(DeclineCode.X))`.
 */
export function declined(reason: DeclineCodeValue): Json {
  return { ResponseCode: ResponseCode.Declined, verbiage: declineVerbiage[reason], DeclineCode: reason };
}
