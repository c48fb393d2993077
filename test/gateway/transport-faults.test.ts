import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { merchant1, startGateway, type TestGateway } from '../support/gateway-harness';

/**
 * Issue 21, item 7: faults below the router — a path Fastify cannot decode, and HTTP the parser refuses
 * (short body, NUL in a header, unknown method, bad chunking, oversized headers) — answered Fastify's own
 * bodies. They answer in the interface's shape like every other transport fault, keep their HTTP status,
 * never repeat what the request carried, and change nothing. Raw sockets: no HTTP client sends these.
 */

type RawAnswer = { status: number; headers: string; body: string };

/** Parses what arrived, once a whole answer has (by Content-Length, or the last chunk), else undefined. */
function answerIn(received: string): RawAnswer | undefined {
  const split = received.indexOf('\r\n\r\n');
  if (split < 0) return undefined;
  const head = received.slice(0, split);
  const body = received.slice(split + 4);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  const length = /content-length:\s*(\d+)/i.exec(head)?.[1];
  const complete =
    length !== undefined ? Buffer.byteLength(body) >= Number(length) : body.endsWith('0\r\n\r\n');
  return complete ? { status, headers: head, body } : undefined;
}

/** Writes bytes to the gateway, optionally half-closes, and reads one answer (5 s at most). */
function exchange(port: number, data: string, halfClose = false): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(data);
      if (halfClose) socket.end();
    });
    let received = '';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const answer = answerIn(received);
      if (answer) resolve(answer);
      else reject(new Error(`no whole HTTP answer: ${JSON.stringify(received.slice(0, 200))}`));
    };
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      if (answerIn(received)) finish();
    });
    socket.on('error', () => undefined);
    socket.on('close', finish);
    const timer = setTimeout(finish, 5_000);
  });
}

/** Drops a chunked transfer's framing, if the server chose it. */
function unchunk(answer: RawAnswer): string {
  if (!/transfer-encoding:\s*chunked/i.test(answer.headers)) return answer.body;
  let rest = answer.body;
  let out = '';
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

const PAN = '4111111111111111';

describe('transport faults outside the router answer in the interface shape (issue 21, item 7)', () => {
  let gw: TestGateway;
  let port: number;
  beforeAll(async () => {
    gw = await startGateway();
    port = Number(new URL(gw.baseUrl).port);
  });
  afterAll(async () => {
    await gw.close();
  });

  const reportSize = async () =>
    ((await gw.post('/api/Report/GetReportByMerchant', merchant1)).body.Transactions as unknown[]).length;

  const body = JSON.stringify({ ...merchant1, Amount: 10, TransactionType: 1, CardNumber: PAN });
  const post = (path: string, extra = '') =>
    `POST ${path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n${extra}\r\n${body}`;

  const cases: { name: string; data: string; halfClose?: boolean; status: number; code: number }[] = [
    { name: 'bad percent-escape in the path', data: post('/api/Transactions/%'), status: 400, code: 400 },
    {
      name: 'bad percent-escape beside a card number in the path',
      data: post(`/api/Transactions/${PAN}%zz`),
      status: 400,
      code: 400,
    },
    {
      name: 'bad UTF-8 escape in the path',
      data: post('/api/Transactions/%E0%A4%A'),
      status: 400,
      code: 400,
    },
    {
      name: 'short body',
      data: `POST /api/Transactions/Sale HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 50}\r\n\r\n${body}`,
      halfClose: true,
      status: 400,
      code: 400,
    },
    {
      name: 'NUL in a header',
      data: post('/api/Transactions/Sale', 'X-Note: a\0b\r\n'),
      status: 400,
      code: 400,
    },
    {
      name: 'unknown method',
      data: `BREW /api/Transactions/Sale HTTP/1.1\r\nHost: t\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      status: 400,
      code: 400,
    },
    {
      name: 'bad chunking',
      data: `POST /api/Transactions/Sale HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n${body}\r\n0\r\n\r\n`,
      status: 400,
      code: 400,
    },
    { name: 'not HTTP at all', data: `${PAN}\r\n\r\n`, status: 400, code: 400 },
    {
      name: 'headers over the limit',
      data: `GET /health HTTP/1.1\r\nHost: t\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      status: 431,
      code: ResponseCode.RequestTooLarge,
    },
    {
      name: 'a path parameter over the length limit',
      data: `GET /pay/${'a'.repeat(300)} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n`,
      status: 414,
      code: 400,
    },
  ];

  for (const c of cases) {
    it(`${c.name}: HTTP ${c.status}, ResponseCode ${c.code}, Msg, displayMessage, verbiage; nothing changed`, async () => {
      const before = await reportSize();
      const answer = await exchange(port, c.data, c.halfClose);
      expect(answer.status).toBe(c.status);
      expect(answer.headers).toMatch(/content-type:\s*application\/json/i);
      const text = unchunk(answer);
      const parsed = JSON.parse(text) as Record<string, unknown>;
      expect(Object.keys(parsed).sort()).toEqual(['Msg', 'ResponseCode', 'displayMessage', 'verbiage']);
      expect(parsed.ResponseCode).toBe(c.code);
      expect(Array.isArray(parsed.Msg) && parsed.Msg.every((m) => typeof m === 'string')).toBe(true);
      expect((parsed.Msg as string[]).length).toBeGreaterThan(0);
      expect(typeof parsed.displayMessage).toBe('string');
      expect(typeof parsed.verbiage).toBe('string');
      expect(parsed.verbiage).not.toMatch(/APPROV/);
      // Never what the request carried (a path may hold a card number; a header anything).
      expect(text).not.toContain(PAN);
      expect(text).not.toContain('%');
      expect(await reportSize()).toBe(before);
    });
  }
});
