import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import Database from 'better-sqlite3';

/**
 * A stand-in for the network between a terminal and its gateway that checks the terminal's write-ahead
 * promise (DESIGN.md "Write-ahead journal") at the only moment it matters: when a money-moving request
 * arrives, the journal's SQLite file — read from a separate connection, as another process would — must
 * already hold that UserTransactionNumber's row in `sending`. Then it forwards the request to the real
 * gateway, or plays a fault: the answer late (after the terminal gave up), the answer dropped after the
 * gateway committed, the connection reset before anything was forwarded, or the request held until the
 * test releases it (the terminal stops meanwhile: a crash point).
 */

export type ProxyFault = 'pass' | 'timeout' | 'drop-response' | 'reset' | 'hold';

/** The journal operation each money-moving endpoint must have journaled (reversals and reads excluded). */
const MONEY: readonly [RegExp, string][] = [
  [/^\/api\/Transactions\/Sale$/i, 'sale'],
  [/^\/api\/Transactions\/(PreAuthorization|ProcessPreauth)$/i, 'preauth'],
  [/^\/api\/Transactions\/ClosePreauth$/i, 'preauth-complete'],
  [/^\/api\/Transactions\/SaleDebit$/i, 'debit'],
  [/^\/api\/Transactions\/SaleWithToken$/i, 'token-sale'],
  [/^\/api\/Transactions\/(DoRefund|DoFullRefund)$/i, 'refund'],
  [/^\/api\/Transactions\/DoVoid$/i, 'void'],
  [/^\/api\/GiftCard\/Sale$/i, 'gift-sale'],
  [/^\/api\/GiftCard\/Reload$/i, 'gift-reload'],
  [/^\/api\/EbtTransaction\/EbtFoodStampSale$/i, 'ebt-food'],
  [/^\/api\/EbtTransaction\/EbtCashBenefits(Sale|Withdrawal)$/i, 'ebt-cash'],
];

export type CheckedRequest = { path: string; utn: string; operation: string };

export type CheckingProxy = {
  readonly url: string;
  /** The journal file the next requests are checked against. */
  useJournal(path: string): void;
  /** Plays `fault` on the next money-moving request (then `pass` again). */
  nextFault(fault: ProxyFault, delayMs?: number): void;
  /** Money-moving requests seen, each checked. */
  readonly checked: CheckedRequest[];
  /** What broke the promise; empty while it holds. */
  readonly violations: string[];
  /** Resolves once a request is held (fault `hold`). */
  held(timeoutMs: number): Promise<void>;
  /** Forwards the held request to the gateway (its answer goes nowhere: the terminal is gone). */
  release(): void;
  idle(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
};

export async function startCheckingProxy(target: string): Promise<CheckingProxy> {
  const upstream = new URL(target);
  let db: Database.Database | undefined;
  let planned: { fault: ProxyFault; delayMs: number } = { fault: 'pass', delayMs: 0 };
  let inFlight = 0;
  let releaseHeld: (() => void) | undefined;
  let onHeld: (() => void) | undefined;
  const checked: CheckedRequest[] = [];
  const violations: string[] = [];
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  const check = (path: string, body: Buffer): boolean => {
    const operation = MONEY.find(([re]) => re.test(path))?.[1];
    if (!operation) return false;
    let utn: unknown;
    try {
      utn = (JSON.parse(body.toString('utf8')) as { UserTransactionNumber?: unknown }).UserTransactionNumber;
    } catch {
      violations.push(`${path}: a money-moving request that is not JSON`);
      return true;
    }
    if (typeof utn !== 'string' || utn === '') {
      violations.push(`${path}: a money-moving request without a UserTransactionNumber`);
      return true;
    }
    checked.push({ path, utn, operation });
    const row = db
      ?.prepare<[string], { state: string; operation: string }>(
        'SELECT state, operation FROM journal WHERE utn = ?',
      )
      .get(utn);
    if (!row) violations.push(`${path} ${utn}: left the terminal with no journal row`);
    else if (row.state !== 'sending')
      violations.push(`${path} ${utn}: journal row in ${row.state}, not sending, when it arrived`);
    else if (row.operation !== operation)
      violations.push(`${path} ${utn}: journaled as ${row.operation}, sent as ${operation}`);
    return true;
  };

  const forward = (
    req: IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; type: string; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const out = httpRequest(
        {
          hostname: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: {
            'content-type': req.headers['content-type'] ?? 'application/json',
            'content-length': body.length,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 502,
              type: String(res.headers['content-type'] ?? 'application/json'),
              body: Buffer.concat(chunks),
            }),
          );
          res.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = new URL(req.url ?? '/', 'http://proxy').pathname;
      // Checked synchronously, before anything is forwarded: the request has left the terminal.
      const money = check(path, body);
      const { fault, delayMs } = money ? planned : { fault: 'pass' as const, delayMs: 0 };
      if (money) planned = { fault: 'pass', delayMs: 0 };
      if (fault === 'reset') {
        req.socket.destroy();
        return;
      }
      inFlight += 1;
      void (async () => {
        try {
          if (fault === 'hold') {
            await new Promise<void>((resolve) => {
              releaseHeld = resolve;
              onHeld?.();
            });
          }
          const answer = await forward(req, body);
          if (fault === 'drop-response') {
            req.socket.destroy();
            return;
          }
          if (fault === 'timeout') await sleep(delayMs);
          if (res.writableEnded || req.socket.destroyed) return;
          res.writeHead(answer.status, { 'content-type': answer.type, 'content-length': answer.body.length });
          res.end(answer.body);
        } catch {
          req.socket.destroy();
        } finally {
          inFlight -= 1;
        }
      })();
    });
  };

  const server: Server = createServer(handle);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    useJournal(path) {
      db?.close();
      db = new Database(path, { readonly: true, fileMustExist: true });
    },
    nextFault(fault, delayMs = 0) {
      planned = { fault, delayMs };
    },
    checked,
    violations,
    held: (timeoutMs) =>
      new Promise<void>((resolve, reject) => {
        if (releaseHeld) return resolve();
        const timer = setTimeout(() => reject(new Error('no request was held in time')), timeoutMs);
        onHeld = () => {
          clearTimeout(timer);
          onHeld = undefined;
          resolve();
        };
      }),
    release() {
      const r = releaseHeld;
      releaseHeld = undefined;
      r?.();
    },
    async idle(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (inFlight > 0) {
        if (Date.now() > deadline) return false;
        await sleep(20);
      }
      return true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        db?.close();
        db = undefined;
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
