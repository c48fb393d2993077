import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeclineCode, declineCatalog } from '../../gateway/contract/decline-codes';
import { renderResponseCodes } from '../../gateway/docs/response-codes-doc';
import { repoRoot } from '../support/spawn-gateway';
import { startGateway, type TestGateway } from '../support/gateway-harness';

describe('documentation generated from the code', () => {
  it('docs/response-codes.md matches the catalog (run npm run docs:codes)', () => {
    expect(readFileSync(join(repoRoot, 'docs/response-codes.md'), 'utf8')).toBe(renderResponseCodes());
  });

  it("lists every decline reason's verbiage, none containing APPROV (a client reads that as approval)", () => {
    const page = readFileSync(join(repoRoot, 'docs/response-codes.md'), 'utf8');
    const reasons = Object.values(DeclineCode);
    expect(reasons.length).toBeGreaterThan(10);
    for (const code of reasons) {
      const { verbiage } = declineCatalog[code];
      expect(verbiage, String(code)).toMatch(/^[A-Z0-9 /-]+$/);
      expect(verbiage, String(code)).not.toMatch(/APPROV/);
      expect(verbiage, String(code)).not.toBe('DECLINED');
      expect(page, String(code)).toContain(`| ${code} |`);
      expect(page, String(code)).toContain(`| ${verbiage} |`);
    }
  });
});

describe('OpenAPI document and docs page', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('serves /openapi.json with every declared operation and its schemas', async () => {
    const r = await gw.get('/openapi.json');
    expect(r.status).toBe(200);
    const doc = r.body as {
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
    };
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/Transactions/Sale',
      '/api/Transactions/DoReversal',
      '/api/Report/GeTransactionNumbers',
      '/api/GatewayAdmin/GetTokensByIdentifier',
    ]) {
      expect(doc.paths[path]?.post?.requestBody, path).toBeDefined();
      expect(doc.paths[path]?.post?.responses['200'], path).toBeDefined();
    }
    expect(doc.paths['/health']).toBeUndefined();
    // Aliases are served but not listed: each operation's description names its own.
    expect(Object.keys(doc.paths).filter((p) => /MonetraAdmin|PreAuthorization/.test(p))).toEqual([]);
    const described = doc.paths['/api/GatewayAdmin/GetTokenForCard']?.post as { description?: string };
    expect(described.description).toBe('Also served at /api/MonetraAdmin/GetTokenForCard.');
    const preauth = doc.paths['/api/Transactions/ProcessPreauth']?.post as { description?: string };
    expect(preauth.description).toContain('Also served at /api/Transactions/PreAuthorization.');
  });

  it('shows the credential envelope once, as a shared component every envelope body references', async () => {
    const doc = (await gw.get('/openapi.json')).body as {
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    expect(Object.keys(doc.components.schemas.Envelope?.properties ?? {})).toEqual(
      expect.arrayContaining(['AppKey', 'AppType', 'mid', 'cid', 'UserName', 'Password']),
    );
    const envelopeRef = '"$ref":"#/components/schemas/Envelope"';
    const sale = JSON.stringify(doc.paths['/api/Transactions/Sale']?.post?.requestBody);
    expect(sale).toContain(envelopeRef);
    expect(sale).not.toContain('"Password"');
    // Every body but the Reporting group's (no envelope) references it instead of copying its fields.
    const bodies = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.values(methods).map((op) => ({ path, body: JSON.stringify(op.requestBody ?? null) })),
    );
    const withBody = bodies.filter((b) => b.body !== 'null' && !b.path.startsWith('/api/Reporting/'));
    expect(withBody.length).toBeGreaterThan(50);
    expect(withBody.filter((b) => !b.body.includes(envelopeRef)).map((b) => b.path)).toEqual([]);
    expect(bodies.filter((b) => b.body.includes('"UserName"')).map((b) => b.path)).toEqual([]);
  });

  it('passes a standard OpenAPI validator', async () => {
    const r = await gw.get('/openapi.json');
    const validator = new Validator();
    const result = await validator.validate(r.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // Control: the same validator refuses a broken document.
    const broken = await new Validator().validate({ ...(r.body as object), paths: 5 });
    expect(broken.valid).toBe(false);
  });

  it('serves a browsable page at /docs', async () => {
    const res = await fetch(`${gw.baseUrl}/docs/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<html');
  });
});
