import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { chromiumArgs, chromiumExecutable } from '../../build/chromium';
import type { TenderRequest } from '../../common/bridge/contract';
import { connectBridge, readBridgeFile, type RemoteBridge } from '../../electron/bridge/ws-client';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const artifacts = join(repoRoot, 'test-artifacts', 'e2e');
export const chromiumPath = chromiumExecutable;

const buildLock = join(repoRoot, 'test-artifacts', 'renderer-build.lock');
const buildMarker = join(repoRoot, 'test-artifacts', 'renderer-build.json');

/**
 * Builds the renderer once for the run; returns Vite's output lines that carry the sizes. Several e2e
 * files run in parallel forks of one vitest process: a second build would empty renderer/dist while the
 * first file's terminal is serving it, so the first fork builds (under a lock directory) and records the
 * run's id — the forks' common parent — and the others reuse that build.
 */
export function buildRenderer(): string[] {
  mkdirSync(dirname(buildLock), { recursive: true });
  const deadline = Date.now() + 170_000;
  for (;;) {
    try {
      mkdirSync(buildLock);
      break;
    } catch {
      // A lock left by a run that was killed mid-build: a build takes well under two minutes.
      const heldSince = statSync(buildLock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - heldSince > 120_000) rmSync(buildLock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`renderer build lock held too long: ${buildLock}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (existsSync(buildMarker)) {
      const marker = JSON.parse(readFileSync(buildMarker, 'utf8')) as { run: number; lines: string[] };
      if (marker.run === process.ppid && existsSync(join(repoRoot, 'renderer', 'dist', 'index.html')))
        return marker.lines;
    }
    const lines = viteBuild();
    writeFileSync(buildMarker, JSON.stringify({ run: process.ppid, lines }));
    return lines;
  } finally {
    rmSync(buildLock, { recursive: true, force: true });
  }
}

function viteBuild(): string[] {
  const r = spawnSync(
    process.execPath,
    [
      join(repoRoot, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      'renderer/vite.config.ts',
      '--logLevel',
      'info',
    ],
    // vitest sets NODE_ENV=test, which would bundle React's development build.
    { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production', NO_COLOR: '1' } },
  );
  if (r.status !== 0) throw new Error(`renderer build failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout.split('\n').filter((l) => /bundle size|dist\/.*kB/.test(l));
}

export type Terminal = {
  /** The address the terminal printed: its page with a one-time launch token, for the first window. */
  url: string;
  /** The page's origin, without a token (opening it alone gets no bridge). */
  base: string;
  /** A fresh launch address for another window (POST /launch with the secret of bridge.json). */
  launchUrl(): Promise<string>;
  /** A customer display's launch address: its own token (POST /launch?for=customer-display). */
  customerLaunchUrl(): Promise<string>;
  dataDir: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
};

/**
 * Starts the real terminal as `npm start` does (electron/start.ts in browser mode: no Electron binary
 * here) on a free port and a fresh data folder — or `options.dataDir`, which it then leaves in place (a
 * restart on the same folder) — and waits for its one ready line.
 */
export function startTerminal(
  extraArgs: string[] = [],
  timeoutMs = 60_000,
  options: { dataDir?: string } = {},
): Promise<Terminal> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tillpoint-e2e-'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'electron/start.ts', '--port', '0', '--data', dataDir, ...extraArgs],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  let stopping = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A terminal that dies mid-run would otherwise show only as refused connections in later tests.
  void exited.then(() => {
    if (!stopping)
      console.error(
        `the terminal exited during the run (${String(child.exitCode ?? child.signalCode)}):\n${out.slice(-4000)}`,
      );
  });
  const stop = async (): Promise<void> => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`terminal not ready in ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = () => {
      const m = /terminal ready at ((http:\/\/127\.0\.0\.1:\d+)\/#launch=[\w-]+)/.exec(out);
      if (!m?.[1] || !m[2]) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      const base = m[2];
      const launchUrl = async (query = ''): Promise<string> => {
        const { secret } = JSON.parse(readFileSync(join(dataDir, 'bridge.json'), 'utf8')) as {
          secret: string;
        };
        const res = await fetch(`${base}/launch${query}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}` },
        });
        if (res.status !== 200) throw new Error(`no launch URL from the terminal (HTTP ${res.status})`);
        return ((await res.json()) as { url: string }).url;
      };
      resolve({
        url: m[1],
        base,
        launchUrl: () => launchUrl(),
        customerLaunchUrl: () => launchUrl('?for=customer-display'),
        dataDir,
        child,
        output: () => out,
        stop,
      });
    };
    child.stdout?.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(
        new Error(
          `terminal exited (${String(child.exitCode ?? child.signalCode)}) before it was ready:\n${out}`,
        ),
      );
    });
  });
}

export type Browser = { context: BrowserContext; close(): Promise<void> };

/** Chromium with the flags the build machines need and a fresh profile (no state between runs). */
export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'tillpoint-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1366, height: 900 },
    args: [...chromiumArgs],
  });
  // A step that cannot happen should fail the test quickly, not after Playwright's 30 s default.
  context.setDefaultTimeout(15_000);
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
}

let axeCode: string | undefined;
async function axeSource(): Promise<string> {
  axeCode ??= await readFile(join(repoRoot, 'node_modules/axe-core/axe.min.js'), 'utf8');
  return axeCode;
}

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/** Runs axe-core in the page; returns the serious and critical violations. */
export async function axeSerious(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(
    () => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined',
  );
  // The page's CSP (script-src 'self') refuses an injected <script>; the DevTools protocol's evaluate is
  // not subject to it, so axe runs under the terminal's real policy.
  if (!loaded) await page.evaluate(await axeSource());
  const violations = await page.evaluate(async () => {
    type AxeRun = (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }>;
    const axe = (window as unknown as { axe: { run: AxeRun } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The screens with serious or critical violations, one readable line each (empty when all are clean). */
export function describeViolations(byScreen: ReadonlyMap<string, AxeViolation[]>): string[] {
  return [...byScreen.entries()]
    .filter(([, v]) => v.length > 0)
    .map(
      ([s, v]) =>
        `${s}: ${v.map((x) => `${x.id}: ${x.help} ${JSON.stringify(x.nodes.slice(0, 3))}`).join('; ')}`,
    );
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

// Steps every screen test takes, shared by the e2e files.

/** Types the PIN on the sign-in screen and waits for the tabs, in whatever language the window speaks. */
export async function signIn(p: Page, pin: string): Promise<void> {
  await p.waitForSelector('#pin:enabled');
  await p.focus('#pin');
  await p.keyboard.type(pin);
  await p.keyboard.press('Enter');
  await p.waitForSelector('nav.nav');
}

export async function signOut(p: Page): Promise<void> {
  await p.getByRole('button', { name: 'Sign out' }).click();
  await p.waitForSelector('#pin:enabled');
}

const headings: Readonly<Record<string, string>> = { Transactions: 'Today’s transactions' };

export async function go(p: Page, screen: string): Promise<void> {
  await p.locator('nav[aria-label="Screens"]').getByRole('button', { name: screen, exact: true }).click();
  await p.getByRole('heading', { level: 1, name: headings[screen] ?? screen, exact: true }).waitFor();
}

/** Picks the simulator's test card by its masked number (the page never holds a full number). */
export async function chooseCard(p: Page, pan: string): Promise<void> {
  const masked = `${pan.slice(0, 6)}${'*'.repeat(pan.length - 10)}${pan.slice(-4)}`;
  const value = await p.$eval(
    '#sim-card',
    (el, m) => [...(el as HTMLSelectElement).options].find((o) => o.text.includes(m))?.value ?? '',
    masked,
  );
  expect(value, `test card ${masked} in the simulator`).not.toBe('');
  await p.selectOption('#sim-card', value);
}

/** Every text and attribute of the page outside scripts: where a full card number must never appear. */
export function pageText(p: Page): Promise<string> {
  return p.evaluate(() => {
    const parts: string[] = [document.body.innerText];
    for (const el of document.body.querySelectorAll('*')) {
      if (el.tagName === 'SCRIPT') continue;
      for (const a of el.attributes) parts.push(a.value);
      if (el instanceof HTMLInputElement) parts.push(el.value);
    }
    return parts.join('\n');
  });
}

/** A tool's connection to a running terminal (docs/bridge.md "Automation"), signed in with `pin`. */
export async function toolBridge(dataDir: string, pin: string): Promise<RemoteBridge> {
  const b = readBridgeFile(dataDir);
  const bridge = await connectBridge(b.wsUrl, b.secret);
  const signedIn = await bridge.send('session.signIn', { pin });
  if (!signedIn.ok) {
    await bridge.close();
    throw new Error(signedIn.error.message);
  }
  return bridge;
}

/**
 * Leaves the lane with no open ticket, whatever a test before left behind: the manager cancels a running
 * tender and gives up the open tickets, as a store would. Then the window reloads and the cashier signs in.
 */
export async function freshLane(t: Terminal, p: Page): Promise<void> {
  const manager = await toolBridge(t.dataDir, '9999');
  try {
    for (let i = 0; i < 50; i++) {
      const open = await manager.send('sale.current', {});
      if (!open.ok || !open.value) break;
      await manager.send('sale.cancel', { ticketId: open.value.ticketId });
      await manager.send('sale.abandon', { ticketId: open.value.ticketId });
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await manager.close();
  }
  await p.reload();
  await signIn(p, '1111');
}

/**
 * Opens a till in the lane's drawer (cash and cash back are refused until one is open: docs/terminal.md
 * "Tills") as a tool holding the terminal's secret would, signed in with `pin`: for tests of other
 * screens that take cash. test/e2e/till.test.ts opens tills on the Till screen itself.
 */
export async function openTillFor(t: Terminal, floatCents = 10_000, pin = '1111'): Promise<void> {
  const b = readBridgeFile(t.dataDir);
  const tool = await connectBridge(b.wsUrl, b.secret);
  try {
    const signedIn = await tool.send('session.signIn', { pin });
    if (!signedIn.ok) throw new Error(signedIn.error.message);
    const opened = await tool.send('till.open', { float: { totalCents: floatCents } });
    if (!opened.ok) throw new Error(opened.error.message);
  } finally {
    await tool.close();
  }
}

/**
 * The day's payments, taken as a tool holding the terminal's secret would (signed in with `pin`): a till
 * opened in the drawer for the cash, then each amount on its own ticket with its tender, a signature given
 * where one is asked. Answers the tickets' ids in order. For tests of the screens that show a day's work.
 */
export async function ringSales(
  t: Terminal,
  sales: readonly (readonly [cents: number, tender: TenderRequest])[],
  pin = '1111',
): Promise<string[]> {
  const cashier = await toolBridge(t.dataDir, pin);
  const tickets: string[] = [];
  try {
    const opened = await cashier.send('till.open', { float: { totalCents: 10_000 } });
    if (!opened.ok) throw new Error(opened.error.message);
    for (const [cents, tender] of sales) {
      const sale = await cashier.send('sale.open', { subtotalCents: cents });
      if (!sale.ok) throw new Error(sale.error.message);
      const paid = await cashier.send('sale.pay', { ticketId: sale.value.ticketId, tender });
      if (!paid.ok) throw new Error(paid.error.message);
      if (paid.value.signatureRequired) {
        const signed = await cashier.send('sale.signature', {
          ticketId: sale.value.ticketId,
          tenderId: paid.value.tender.tenderId,
          signature: { source: 'pad' },
        });
        if (!signed.ok) throw new Error(signed.error.message);
      }
      tickets.push(sale.value.ticketId);
    }
  } finally {
    await cashier.close();
  }
  return tickets;
}

/** The element is inside the window without scrolling, and nothing is drawn over its middle. */
export function inViewUncovered(target: Locator): Promise<boolean> {
  return target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return r.top >= 0 && r.bottom <= window.innerHeight && hit !== null && (hit === el || el.contains(hit));
  });
}
