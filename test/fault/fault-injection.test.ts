import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionReportRecord } from '../../gateway/contract/report';
import { merchant1, startGateway, type TestGateway } from '../support/gateway-harness';
import { startFaultProxy, passThrough, type Fault, type FaultProxy } from './fault-proxy';

/**
 * The terminal's promise under faults (issue 5, "Done means"): at least 200 randomized sales through a
 * proxy that delays, drops responses after the gateway committed and resets connections, with the lane
 * process killed by SIGKILL at random moments and restarted on the same data folder. About a third are
 * chip sales on the simulated reader, with the card's own faults (issue 14): a card that declines after
 * the issuer's approval, a card pulled out before it answers — and kills between the approval and the
 * card's answer. At the end every sale is approved exactly once at the gateway or not charged there
 * (reversed, blocked, declined), the journal and the gateway's report agree, and no UserTransactionNumber
 * was used twice. A lost answer is first asked about (GetTransaction) while the ticket is open, so kills
 * also land during inquiries.
 */

const TARGET_SALES = Number(process.env.FAULT_SALES ?? '200');
const SEED = Number(process.env.FAULT_SEED ?? String(Date.now() % 1_000_000));
const SALE_TIMEOUT_MS = 700;

let seed = SEED;
function random(): number {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const childScript = join(import.meta.dirname, 'lane-child.ts');

type Run = {
  child: ChildProcess;
  sales: number;
  exited: Promise<void>;
  ready: Promise<void>;
  lines: string[];
};

function startChild(dataDir: string, gatewayUrl: string, mode: 'sell' | 'drain', childSeed: number): Run {
  // Node itself with the tsx loader, not the tsx CLI: the CLI runs the script in a grandchild that a
  // SIGKILL of the CLI would leave running.
  const child = spawn(process.execPath, ['--import', tsxLoader, childScript], {
    env: {
      ...process.env,
      TP_DATA: dataDir,
      TP_GATEWAY: gatewayUrl,
      TP_MODE: mode,
      TP_SEED: String(childSeed),
      TP_TIMEOUT_MS: String(SALE_TIMEOUT_MS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run: Run = {
    child,
    sales: 0,
    lines: [],
    exited: new Promise((resolve) => child.once('exit', () => resolve())),
    ready: Promise.resolve(),
  };
  run.ready = new Promise((resolve) => {
    let buffer = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      buffer += chunk;
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      for (const line of parts) {
        run.lines.push(line);
        if (line === 'ready' || line === 'drained' || line === 'not-drained') resolve();
        if (line.startsWith('{')) run.sales += 1;
      }
    });
    void run.exited.then(() => resolve());
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    if (!chunk.includes('ExperimentalWarning')) process.stderr.write(`[lane] ${chunk}`);
  });
  return run;
}

type JournalEntry = {
  utn: string;
  seq: number;
  state: string;
  amount_cents: number;
  tip_cents: number;
  approved_cents: number;
  gateway_code: number | null;
  message: string | null;
};

describe('fault injection: proxy faults and kill -9 of the lane', () => {
  let gw: TestGateway;
  let proxy: FaultProxy;
  let dataDir: string;

  beforeAll(async () => {
    gw = await startGateway({ sandboxSlowMs: 300 });
    proxy = await startFaultProxy(gw.baseUrl);
    dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-fault-'));
  });
  afterAll(async () => {
    await proxy.close();
    await gw.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    `rings ${TARGET_SALES}+ randomized sales and ends consistent (seed ${SEED})`,
    { timeout: 600_000 },
    async () => {
      // Faults on roughly a third of sale requests; reversals get fewer so the queue drains.
      proxy.setPolicy((path) => {
        const r = random();
        const isReversal = path.includes('DoReversal');
        const p = isReversal ? r * 2.5 : r;
        const delay = SALE_TIMEOUT_MS + 200 + Math.floor(random() * 900);
        let fault: Fault = 'pass';
        if (p < 0.06) fault = 'delay-request';
        else if (p < 0.12) fault = 'delay-response';
        else if (p < 0.2) fault = 'drop-response';
        else if (p < 0.25) fault = 'reset';
        return { fault, delayMs: delay };
      });

      let sales = 0;
      let kills = 0;
      const chipTally = { chipSales: 0, declinedByCard: 0, cardRemoved: 0 };
      const refusedByCard: string[] = [];
      const started = Date.now();
      while (sales < TARGET_SALES) {
        const run = startChild(dataDir, proxy.url, 'sell', Math.floor(random() * 1e9));
        if (random() < 0.15) {
          // Some lanes die while starting: during recovery of the previous run's unknown outcomes.
          await Promise.race([new Promise((r) => setTimeout(r, Math.floor(random() * 1_500))), run.ready]);
        } else {
          await run.ready;
          // Kill at a random moment: mid-request, between commit and send, during a reversal...
          const lifetime = 200 + Math.floor(random() * 1_800);
          await Promise.race([new Promise((r) => setTimeout(r, lifetime)), run.exited]);
        }
        run.child.kill('SIGKILL');
        await run.exited;
        kills += 1;
        sales += run.sales;
        for (const line of run.lines) {
          if (!line.startsWith('{')) continue;
          const o = JSON.parse(line) as { utn?: string; chip?: boolean; cardRefusal?: string };
          if (o.chip) chipTally.chipSales += 1;
          if (o.cardRefusal === 'declined-by-card') chipTally.declinedByCard += 1;
          if (o.cardRefusal === 'card-removed') chipTally.cardRemoved += 1;
          if (o.cardRefusal && o.utn) refusedByCard.push(o.utn);
        }
        if (Date.now() - started > 480_000) break;
      }

      // Recovery with a clean network: every unknown outcome left behind gets its reversal acknowledged.
      proxy.setPolicy(passThrough);
      const drain = startChild(dataDir, proxy.url, 'drain', 1);
      await drain.ready;
      await drain.exited;
      expect(drain.lines).toContain('drained');
      // Requests the proxy still holds from killed lanes reach the gateway before it is compared.
      expect(await proxy.idle(10_000)).toBe(true);

      const db = new Database(join(dataDir, 'journal.sqlite'), { readonly: true });
      const journal = db
        .prepare(
          'SELECT utn, seq, state, amount_cents, tip_cents, approved_cents, gateway_code, message FROM journal ORDER BY seq',
        )
        .all() as JournalEntry[];
      const lastSeq = (db.prepare('SELECT last_seq FROM lane_counter').get() as { last_seq: number })
        .last_seq;
      const pendingReversals = (
        db.prepare("SELECT COUNT(*) AS n FROM reversals WHERE state != 'done'").get() as { n: number }
      ).n;
      db.close();

      const report = await gw.post('/api/Report/GetReportByMerchant', merchant1);
      const records = (report.body.Transactions as TransactionReportRecord[]).filter((t) =>
        t.UserTransactionNumber.startsWith('F1-'),
      );
      const numbers = await gw.post('/api/Report/GetTransactionNumbers', merchant1);
      const used = (numbers.body.UserReferenceNumbers as string[]).filter((u) => u.startsWith('F1-'));

      // --- no UserTransactionNumber reused
      const utns = journal.map((j) => j.utn);
      expect(new Set(utns).size).toBe(utns.length);
      expect(journal.map((j) => j.seq)).toEqual(Array.from({ length: lastSeq }, (_, i) => i + 1));
      expect(journal.filter((j) => j.gateway_code === 409)).toEqual([]);
      const gatewayUtns = records.map((r) => r.UserTransactionNumber);
      expect(new Set(gatewayUtns).size).toBe(gatewayUtns.length);
      const journalSet = new Set(utns);
      for (const u of used) expect(journalSet.has(u)).toBe(true);

      // --- every sale ends approved exactly once or not charged, and both sides agree
      const byUtn = new Map(records.map((r) => [r.UserTransactionNumber, r]));
      const counts = {
        approved: 0,
        approvedByInquiry: 0,
        declined: 0,
        declinedByInquiry: 0,
        reversedAtGateway: 0,
        blockedBeforeArrival: 0,
        failedBeforeSending: 0,
        other: 0,
      };
      const disagreements: string[] = [];
      for (const j of journal) {
        const g = byUtn.get(j.utn);
        switch (j.state) {
          case 'approved':
          case 'partial':
            counts.approved += 1;
            // The answer was lost and GetTransaction said approved: kept, never reversed.
            if (j.message?.includes('confirmed by GetTransaction')) counts.approvedByInquiry += 1;
            if (g?.Status !== 'approved')
              disagreements.push(`${j.utn}: journal ${j.state}, gateway ${g?.Status ?? 'absent'}`);
            else if (Math.round(g.TotalAmount * 100) !== j.approved_cents)
              disagreements.push(`${j.utn}: amounts differ`);
            break;
          case 'declined':
            counts.declined += 1;
            if (j.message?.includes('confirmed by GetTransaction')) counts.declinedByInquiry += 1;
            if (g && g.Status === 'approved')
              disagreements.push(`${j.utn}: declined locally, approved at the gateway`);
            break;
          case 'reversed':
            if (g && g.Status === 'approved')
              disagreements.push(`${j.utn}: reversed locally, approved at the gateway`);
            if (g) counts.reversedAtGateway += 1;
            else counts.blockedBeforeArrival += 1;
            break;
          case 'failed':
            counts.failedBeforeSending += 1;
            if (g && g.Status === 'approved')
              disagreements.push(`${j.utn}: failed locally, approved at the gateway`);
            break;
          default:
            counts.other += 1;
            disagreements.push(`${j.utn}: left in state ${j.state}`);
        }
      }
      for (const r of records) {
        if (!journalSet.has(r.UserTransactionNumber))
          disagreements.push(`${r.UserTransactionNumber}: at the gateway, not in the journal`);
      }
      // An approval the card refused is never a sale: reversed in the journal, not approved at the gateway.
      const journalByUtn = new Map(journal.map((j) => [j.utn, j]));
      for (const utn of refusedByCard) {
        if (journalByUtn.get(utn)?.state !== 'reversed')
          disagreements.push(
            `${utn}: refused by the card, journal ${journalByUtn.get(utn)?.state ?? 'absent'}`,
          );
        if (byUtn.get(utn)?.Status === 'approved')
          disagreements.push(`${utn}: refused by the card, approved at the gateway`);
      }
      const approvedAtGateway = records.filter((r) => r.Status === 'approved').length;

      process.stdout.write(
        `\nfault suite (seed ${SEED}): ${journal.length} sales in ${kills} lane runs killed with SIGKILL, ` +
          `${Math.round((Date.now() - started) / 1000)} s\n` +
          `  proxy faults: ${JSON.stringify(proxy.counts)}\n` +
          `  outcomes: approved ${counts.approved} (gateway approved ${approvedAtGateway}; ${counts.approvedByInquiry} ` +
          `after a lost answer, by GetTransaction), declined ${counts.declined} (${counts.declinedByInquiry} by GetTransaction), ` +
          `reversed at the gateway ${counts.reversedAtGateway}, blocked before arrival ${counts.blockedBeforeArrival}, ` +
          `failed before sending ${counts.failedBeforeSending}, left unresolved ${counts.other}\n` +
          `  UserTransactionNumbers: ${utns.length} unique of ${utns.length}, counter ${lastSeq}, reused 0\n` +
          `  chip sales ${chipTally.chipSales}: declined by the card after approval ${chipTally.declinedByCard}, ` +
          `card removed before completion ${chipTally.cardRemoved} (each reversed)\n`,
      );

      expect(disagreements).toEqual([]);
      expect(pendingReversals).toBe(0);
      expect(approvedAtGateway).toBe(counts.approved);
      // Dropped answers of approved sales happen in every run of this size: the inquiry path ran and, by
      // the checks above, kept those sales approved exactly once on both sides.
      expect(counts.approvedByInquiry).toBeGreaterThan(0);
      expect(journal.length).toBeGreaterThanOrEqual(TARGET_SALES);
      expect(kills).toBeGreaterThan(5);
      // The card faults were really exercised: a run without them would prove nothing about them.
      expect(chipTally.declinedByCard).toBeGreaterThan(0);
      expect(chipTally.cardRemoved).toBeGreaterThan(0);
    },
  );
});
