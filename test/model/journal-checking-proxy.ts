import Database from 'better-sqlite3';
import { startLoopbackProxy, type ProxyPlan } from '../support/loopback-proxy';

/**
 * A stand-in for the network between a terminal and its gateway that checks the terminal's write-ahead
 * promise (docs/decisions.md#write-ahead-journal) at the only moment it matters: when a money-moving request
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
  let db: Database.Database | undefined;
  let planned: { fault: ProxyFault; delayMs: number } = { fault: 'pass', delayMs: 0 };
  let releaseHeld: (() => void) | undefined;
  let onHeld: (() => void) | undefined;
  const checked: CheckedRequest[] = [];
  const violations: string[] = [];
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

  const proxy = await startLoopbackProxy(
    target,
    (req, body): ProxyPlan => {
      const path = new URL(req.url ?? '/', 'http://proxy').pathname;
      // Checked synchronously, before anything is forwarded: the request has left the terminal.
      const money = check(path, body);
      const { fault, delayMs } = money ? planned : { fault: 'pass' as const, delayMs: 0 };
      if (money) planned = { fault: 'pass', delayMs: 0 };
      if (fault === 'reset') return { reset: true };
      return {
        ...(fault === 'hold'
          ? {
              beforeForward: () =>
                new Promise<void>((resolve) => {
                  releaseHeld = resolve;
                  onHeld?.();
                }),
            }
          : {}),
        dropResponse: fault === 'drop-response',
        ...(fault === 'timeout' ? { delayResponseMs: delayMs } : {}),
      };
    },
    () => {
      db?.close();
      db = undefined;
    },
  );
  return {
    url: proxy.url,
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
    idle: proxy.idle,
    close: proxy.close,
  };
}
