import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SaleResponse } from '../../gateway/contract/card-sale';
import { GatewayClient } from '../../electron/gateway-client/client';
import type { HttpAnswer, HttpTransport } from '../../electron/gateway-client/http';
import { openJournal } from '../../electron/journal/journal';
import { JournalStore } from '../../electron/journal/journal-store';
import { toWire } from '../../electron/util/money';

/**
 * The terminal's own cost per sale, network excluded (issue 5): the write-ahead journal commit before the
 * request leaves, building the request, and handling the answer (parse, schema check, the journal commit of
 * the outcome). The reference is the floor under it: the same two single-row commits done directly on
 * better-sqlite3 in this thread with synchronous=FULL, i.e. the two fsyncs the promise costs by itself.
 */

const SALES = Number(process.env.BENCH_TERMINAL_SALES ?? 2000);
const WARMUP = 200;

const credentials = {
  AppKey: 'sandbox-app-key',
  AppType: 1,
  mid: 1001,
  cid: 1,
  UserName: 'sandbox',
  Password: 'sandbox-pass',
};

/** The gateway's answer as text, parsed per call as the HTTP transport would. */
const answerText = JSON.stringify({
  Msg: ['Approved'],
  ResponseCode: 200,
  displayMessage: 'Approved',
  verbiage: 'APPROVED',
  Amount: 12.34,
  AuthorizationNumber: 'A12345',
  CardType: 'Visa',
  LastFour: '1111',
  ServiceReferenceNumber: 'SRN-0000000001',
  UserTransactionNumber: 'x',
});

/** A transport that answers at once: what is timed is the terminal, not the network. */
const instant: HttpTransport = {
  post: () =>
    Promise.resolve({
      kind: 'response',
      status: 200,
      body: JSON.parse(answerText) as unknown,
    } satisfies HttpAnswer),
  request: () =>
    Promise.resolve({
      kind: 'response',
      status: 200,
      body: JSON.parse(answerText) as unknown,
    } satisfies HttpAnswer),
  close: () => undefined,
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

function summary(samples: number[]): { mean: number; p50: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    mean: samples.reduce((s, x) => s + x, 0) / samples.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
  };
}

const ms = (x: number) => `${x.toFixed(3)} ms`;

export async function run(): Promise<{
  perSaleMs: number;
  referenceMs: number;
  commitsPerSecond: number;
  groupCommitsPerSecond: number;
}> {
  console.log('\n== terminal: overhead per sale, network excluded (journal synchronous=FULL) ==');
  // BENCH_DIR puts the databases on another disk (the data folder's disk is what matters).
  const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'tillpoint-terminal-bench-'));
  try {
    // --- reference: the two durable commits alone, in-thread
    const ref = JournalStore.open(join(dir, 'reference.sqlite'));
    const refSamples: number[] = [];
    for (let i = 0; i < SALES + WARMUP; i++) {
      const t = performance.now();
      const row = ref.allocate({
        laneId: 'R1',
        operation: 'sale',
        amountCents: 1234,
        last4: '1111',
        cardType: 'Visa',
        now: Date.now(),
      });
      ref.update(
        row.utn,
        { state: 'approved', approvedCents: 1234, authCode: 'A12345', srn: `S${i}` },
        Date.now(),
      );
      if (i >= WARMUP) refSamples.push(performance.now() - t);
    }
    ref.close();
    const reference = summary(refSamples);
    console.log(
      `reference  two single-row commits in-thread:   mean ${ms(reference.mean)}  p50 ${ms(reference.p50)}  p99 ${ms(reference.p99)}`,
    );

    // --- the terminal's path: worker-thread journal + request build + answer handling
    const journal = await openJournal(join(dir, 'journal.sqlite'));
    const client = new GatewayClient({ baseUrl: 'http://127.0.0.1:9', credentials, transport: instant });
    const samples: number[] = [];
    for (let i = 0; i < SALES + WARMUP; i++) {
      const t = performance.now();
      const row = await journal.allocate({
        laneId: 'L1',
        operation: 'sale',
        amountCents: 1234,
        last4: '1111',
        cardType: 'Visa',
        entryMode: 'swipe',
        now: Date.now(),
      });
      const result = await client.callPath<SaleResponse>(
        '/api/Transactions/Sale',
        SaleResponse,
        {
          Amount: toWire(1234),
          TransactionType: 1,
          UserTransactionNumber: row.utn,
          Track2: '4111111111111111=28121010000000000000',
          PosEntryMode: 'Swiped',
          PosCode: 'Retail',
        },
        { movesMoney: true },
      );
      if (!result.ok) throw new Error(result.failure.message);
      await journal.update(
        row.utn,
        {
          state: 'approved',
          approvedCents: Math.round((result.response.Amount ?? 0) * 100),
          authCode: result.response.AuthorizationNumber ?? null,
          srn: result.response.ServiceReferenceNumber ?? null,
          gatewayCode: result.code,
        },
        Date.now(),
      );
      if (i >= WARMUP) samples.push(performance.now() - t);
    }
    const sale = summary(samples);
    console.log(
      `(a) terminal overhead per sale:                mean ${ms(sale.mean)}  p50 ${ms(sale.p50)}  p99 ${ms(sale.p99)}  (target < 2 ms)`,
    );
    console.log(
      `    ratio to the reference: mean ${(sale.mean / reference.mean).toFixed(2)}, p50 ${(sale.p50 / reference.p50).toFixed(2)} ` +
        "(above 1: the worker hop, request build and answer check; the means follow the disk's fsync stalls)",
    );

    // --- request build and answer handling alone (no journal): the CPU part of the overhead
    const cpuStart = performance.now();
    for (let i = 0; i < SALES; i++) {
      const body = client.buildBody({
        Amount: 12.34,
        TransactionType: 1,
        UserTransactionNumber: `L1-x-${i}`,
        Track2: '4111111111111111=28121010000000000000',
      });
      if (body.length === 0) throw new Error('empty body');
      client.interpret(
        { kind: 'response', status: 200, body: JSON.parse(answerText) as unknown },
        SaleResponse,
        { movesMoney: true },
      );
    }
    console.log(
      `(b) request build + answer handling alone:     ${ms((performance.now() - cpuStart) / SALES)} per sale`,
    );

    // --- journal commits per second: one at a time, and many in flight (group commit in the worker)
    const n = SALES;
    let t = performance.now();
    for (let i = 0; i < n; i++)
      await journal.allocate({ laneId: 'L1', operation: 'sale', amountCents: 100, now: Date.now() });
    const sequential = n / ((performance.now() - t) / 1000);
    t = performance.now();
    const inFlight = 32;
    let next = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < n) {
          next += 1;
          await journal.allocate({ laneId: 'L1', operation: 'sale', amountCents: 100, now: Date.now() });
        }
      }),
    );
    const grouped = n / ((performance.now() - t) / 1000);
    console.log(`(c) journal commits/s, one at a time:          ${Math.round(sequential)}/s`);
    console.log(`    journal commits/s, ${inFlight} in flight (group commit): ${Math.round(grouped)}/s`);
    await journal.close();
    client.close();
    return {
      perSaleMs: sale.mean,
      referenceMs: reference.mean,
      commitsPerSecond: sequential,
      groupCommitsPerSecond: grouped,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await run();
}
