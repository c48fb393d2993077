import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { connectBridge, readBridgeFile } from '../../electron/bridge/ws-client';
import {
  axeSerious,
  buildRenderer,
  chooseCard,
  freshLane,
  launchBrowser,
  screenshot,
  signIn,
  startTerminal,
  toolBridge,
  type Browser,
  type Terminal,
} from './harness';

/**
 * The sale screen follows the terminal core, whatever happens to the window: a reload or a second window
 * re-attaches to the tender the core is running (prompt, countdown, Cancel, then its outcome); a
 * signature confirmed too early leaves the pad capturing; a lost answer shows what the terminal is doing
 * and ends on the final state. Driven as a cashier does: role and label locators, the simulator panel.
 */

const VISA = '4111111111111111';
const SIGNATURE_CHIP = '4012888888881881'; // its CVM list asks for a signature
const SLOW = '4000000000000119'; // approves after --sandbox-slow-ms

const sandboxEnvelope = {
  AppKey: 'sandbox-app-key',
  AppType: 1,
  mid: 1001,
  cid: 1,
  UserName: 'sandbox',
  Password: 'sandbox-pass',
};

let terminal: Terminal;
let browser: Browser;
let page: Page;

/** Types an amount on the keyboard (digits shift in from the right: "2500" is 25.00). */
async function typeAmount(p: Page, digits: string): Promise<void> {
  await p.getByRole('textbox', { name: 'Amount' }).waitFor();
  for (const d of digits) await p.keyboard.press(d);
}

function prompt(p: Page) {
  return p.locator('#prompt-text');
}

async function startCredit(p: Page, card: string, digits: string): Promise<void> {
  await chooseCard(p, card);
  await typeAmount(p, digits);
  await p.getByRole('button', { name: /^Credit/ }).click();
  await expect.poll(() => prompt(p).textContent()).toContain('Insert, tap or swipe');
}

async function newSale(p: Page): Promise<void> {
  await p.getByRole('button', { name: /^New sale/ }).click();
  await p.getByRole('heading', { name: 'Choose the tender' }).waitFor();
}

/** The lane journal's newest row (its own file, read-only). */
function lastJournalUtn(dataDir: string): string | undefined {
  const db = new Database(join(dataDir, 'journal.sqlite'), { readonly: true });
  try {
    return (
      db.prepare('SELECT utn FROM journal ORDER BY seq DESC LIMIT 1').get() as { utn: string } | undefined
    )?.utn;
  } finally {
    db.close();
  }
}

function journalState(dataDir: string, utn: string): string | undefined {
  const db = new Database(join(dataDir, 'journal.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT state FROM journal WHERE utn = ?').get(utn) as { state: string } | undefined)
      ?.state;
  } finally {
    db.close();
  }
}

/** The processes a process started (the terminal's embedded gateway). */
function childPids(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => /^\d+$/.test(l.trim()))
      .map(Number);
  } catch {
    return [];
  }
}

/** The tech's gateway timeouts, set through the bridge a store's tools use. */
async function setGatewayTimeouts(saleMs: number, otherMs: number): Promise<void> {
  const tech = await toolBridge(terminal.dataDir, '7777');
  try {
    const r = await tech.send('gateway.update', { timeouts: { saleMs, otherMs } });
    if (!r.ok) throw new Error(r.error.message);
  } finally {
    await tech.close();
  }
}

describe('the sale screen follows the core (Chromium, browser mode, sandbox)', () => {
  beforeAll(async () => {
    buildRenderer();
    terminal = await startTerminal(['--sandbox-slow-ms', '8000']);
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(terminal.url);
    await signIn(page, '1111');
  }, 180_000);

  beforeEach(() => freshLane(terminal, page), 60_000);

  afterAll(async () => {
    await browser?.close();
    await terminal?.stop();
  }, 60_000);

  it('a reload during the card wait re-attaches: prompt, countdown and Cancel, then the tap’s outcome', async () => {
    await startCredit(page, VISA, '1234');
    await page.reload();
    await signIn(page, '1111');
    // The wait the core is running is back on screen, with what is left of its countdown.
    await expect.poll(() => prompt(page).textContent()).toContain('Insert, tap or swipe');
    await page.getByText(/Times out in \d+ s/).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel', exact: true }).isEnabled()).toBe(true);
    await screenshot(page, 'follow-01-reattached-after-reload');
    expect(await axeSerious(page)).toEqual([]);
    await page.getByRole('button', { name: 'Tap', exact: true }).click();
    const outcome = page.getByRole('heading', { level: 2, name: 'Approved' });
    await outcome.waitFor();
    expect(await page.getByRole('status', { name: 'Approved' }).textContent()).toContain('$12.34');
    await screenshot(page, 'follow-01-outcome-after-reload');
    await newSale(page);
  }, 60_000);

  it('a reload, then the card answers while nobody is signed in: the outcome is there after sign-in', async () => {
    await startCredit(page, VISA, '1357');
    await page.reload();
    await page.getByLabel('Your PIN').waitFor();
    // The customer taps while the window waits for a PIN.
    await page.getByRole('button', { name: 'Tap', exact: true }).click();
    await expect
      .poll(async () => (await page.getByTestId('sim-reader').textContent()) ?? '')
      .toContain('idle');
    await signIn(page, '1111');
    await page.getByRole('heading', { level: 2, name: 'Approved' }).waitFor();
    expect(await page.getByRole('status', { name: 'Approved' }).textContent()).toContain('$13.57');
    await newSale(page);
  }, 60_000);

  it('a second window shows the payment the first one started, and its Cancel stops it in both', async () => {
    const second = await browser.context.newPage();
    try {
      await second.goto(await terminal.launchUrl());
      await signIn(second, '1111');
      await startCredit(page, VISA, '2468');
      await expect.poll(() => prompt(second).textContent()).toContain('Insert, tap or swipe');
      await second.getByRole('button', { name: 'Cancel', exact: true }).click();
      for (const p of [page, second]) await p.getByRole('heading', { level: 2, name: 'Cancelled' }).waitFor();
      await screenshot(second, 'follow-02-second-window-cancelled');
    } finally {
      await second.close();
    }
    await page.getByRole('button', { name: 'Cancel sale' }).click();
    await page.getByRole('heading', { name: 'Choose the tender' }).waitFor();
  }, 60_000);

  it('“Customer has signed” before the customer signed: the pad keeps capturing, and its signature completes the sale', async () => {
    await chooseCard(page, SIGNATURE_CHIP);
    await typeAmount(page, '1250');
    await page.getByRole('button', { name: /^Credit/ }).click();
    await page.getByRole('button', { name: 'Insert chip' }).click();
    const confirm = page.getByRole('button', { name: 'Customer has signed on the pad' });
    await confirm.click();
    await page.getByText('Nothing was signed on the pad').waitFor();
    await page.getByRole('button', { name: 'Customer signs' }).click();
    await confirm.click();
    await page.getByRole('heading', { name: 'Receipt' }).waitFor();
    // The sale is paid: the signature the customer wrote on the pad after the refusal was taken.
    expect(await page.getByRole('status', { name: 'Approved' }).textContent()).toContain('$12.50');
    await screenshot(page, 'follow-03-signed-after-refusal');
    await newSale(page);
  }, 60_000);

  it('the same after a reload: the restored “Sign here” takes the pad’s signature', async () => {
    await chooseCard(page, SIGNATURE_CHIP);
    await typeAmount(page, '1375');
    await page.getByRole('button', { name: /^Credit/ }).click();
    await page.getByRole('button', { name: 'Insert chip' }).click();
    await page.getByRole('button', { name: 'Customer has signed on the pad' }).click();
    await page.getByText('Nothing was signed on the pad').waitFor();
    await page.reload();
    await signIn(page, '1111');
    const confirm = page.getByRole('button', { name: 'Customer has signed on the pad' });
    await confirm.waitFor();
    await page.getByRole('button', { name: 'Customer signs' }).click();
    await confirm.click();
    await page.getByRole('heading', { name: 'Receipt' }).waitFor();
    expect(await page.getByRole('status', { name: 'Approved' }).textContent()).toContain('$13.75');
    await newSale(page);
  }, 60_000);

  it('a lost answer: the wait counts down and says what it does; the reversal ends on the final state', async () => {
    // Shorter than the slow card's 8 s: the answer is lost, GetTransaction finds it still pending.
    await setGatewayTimeouts(3_000, 3_000);
    try {
      await startCredit(page, SLOW, '2222');
      // What the screen shows, as it shows it: the inquiry on loopback lasts milliseconds, and so may the
      // reversal of a payment the processor had not answered yet. Each prompt and headline is recorded
      // with the tender that had the keyboard focus at that moment.
      await page.evaluate(() => {
        const seen: { prompt?: string; headline?: string; focusedTender: string | null }[] = [];
        Object.assign(window, { shown: seen });
        const focusedTender = () => document.activeElement?.getAttribute('data-tender') ?? null;
        const look = () => {
          const prompt = document.getElementById('prompt-text')?.textContent ?? undefined;
          const headline = document.getElementById('outcome-title')?.textContent ?? undefined;
          seen.push({
            ...(prompt ? { prompt } : {}),
            ...(headline ? { headline } : {}),
            focusedTender: focusedTender(),
          });
        };
        new MutationObserver(look).observe(document.body, {
          childList: true,
          characterData: true,
          subtree: true,
        });
        document.addEventListener('focusin', look);
      });
      await page.getByRole('button', { name: 'Tap', exact: true }).click();
      await expect.poll(() => prompt(page).textContent()).toContain('Authorizing');
      await page.getByText(/Answer due in \d+ s/).waitFor();
      await screenshot(page, 'follow-04-authorizing-countdown');
      const final = page.getByRole('heading', {
        level: 2,
        name: 'Reversed: the customer is not charged — take payment again',
      });
      await final.waitFor({ timeout: 45_000 });
      const shown = await page.evaluate(
        () =>
          (
            window as unknown as {
              shown: { prompt?: string; headline?: string; focusedTender: string | null }[];
            }
          ).shown,
      );
      // Between the lost answer and the reversal, the screen said it was asking the gateway…
      expect(shown.map((x) => x.prompt)).toContain(
        'No answer yet — asking the gateway whether the payment went through',
      );
      // …then that it was reversing, and while it did, no tender had the focus (the card must not run again).
      const whileReversing = shown.filter(
        (x) => x.headline === 'Do not retry — the terminal is reversing this sale',
      );
      expect(whileReversing.length).toBeGreaterThan(0);
      expect(whileReversing.filter((x) => x.focusedTender !== null)).toEqual([]);
      // The final state replaced the warning: no "reversing" headline, no "do not run the card again".
      expect(
        await page
          .getByRole('heading', { name: 'Do not retry — the terminal is reversing this sale' })
          .count(),
      ).toBe(0);
      expect(await page.getByText('Do not run the card again').count()).toBe(0);
      await screenshot(page, 'follow-04-reversed');
      expect(await axeSerious(page)).toEqual([]);
    } finally {
      await setGatewayTimeouts(30_000, 15_000);
    }
    await page.getByRole('button', { name: 'Cancel sale' }).click();
    await page.getByRole('heading', { name: 'Choose the tender' }).waitFor();
  }, 120_000);
});

describe('after a crash between the request and its answer (Chromium, a killed terminal)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tillpoint-e2e-crash-'));
  let first: Terminal | undefined;
  let second: Terminal | undefined;
  let crashBrowser: Browser | undefined;
  beforeAll(() => void buildRenderer(), 180_000);
  afterAll(async () => {
    await crashBrowser?.close();
    await second?.stop();
    await first?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('the restarted terminal asks the gateway, keeps the approval, and the screen says the sale is paid', async () => {
    // The slow card: the processor answers after 4 s, the terminal is killed before that.
    first = await startTerminal(['--sandbox-slow-ms', '4000'], 60_000, { dataDir: dir });
    const b = readBridgeFile(dir);
    const tech = await connectBridge(b.wsUrl, b.secret);
    const signedIn = await tech.send('session.signIn', { pin: '7777' });
    if (!signedIn.ok) throw new Error(signedIn.error.message);
    const gatewayUrlOf = async (bridge: typeof tech): Promise<string> => {
      const g = await bridge.send('gateway.get', {});
      if (!g.ok) throw new Error(g.error.message);
      return g.value.baseUrl;
    };
    let gatewayUrl = await gatewayUrlOf(tech);
    await tech.close();
    const standing = async (utn: string): Promise<string | undefined> => {
      const r = await fetch(`${gatewayUrl}/api/Transactions/GetTransaction`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...sandboxEnvelope, UserTransactionNumber: utn }),
      });
      return ((await r.json()) as { TransactionStatus?: string }).TransactionStatus;
    };

    crashBrowser = await launchBrowser();
    const p = await crashBrowser.context.newPage();
    await p.goto(first.url);
    await signIn(p, '1111');
    await chooseCard(p, SLOW);
    await typeAmount(p, '4321');
    await p.getByRole('button', { name: /^Credit/ }).click();
    await p.getByRole('button', { name: 'Tap', exact: true }).click();
    await expect.poll(() => prompt(p).textContent()).toContain('Authorizing');
    await expect.poll(() => lastJournalUtn(dir)).toBeDefined();
    const utn = lastJournalUtn(dir) ?? '';
    await expect.poll(() => standing(utn), { timeout: 10_000 }).toBe('Pending');
    // The terminal dies between the request and its answer. Its gateway (a child process) watches its
    // parent: it stops taking requests, answers the one in flight (the processor approves the sale) and
    // exits — so the answer is committed at the gateway and lost to the terminal.
    const gatewayPids = childPids(first.child.pid);
    expect(gatewayPids.length).toBeGreaterThan(0);
    first.child.kill('SIGKILL');
    const alive = (pid: number): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await expect.poll(() => gatewayPids.filter(alive), { timeout: 20_000 }).toEqual([]);
    await p
      .getByRole('alert')
      .filter({ hasText: 'Lost the connection to the terminal core' })
      .first()
      .waitFor();

    second = await startTerminal([], 60_000, { dataDir: dir });
    // The relaunched terminal's gateway, on the same database, holds the approval the crash left unheard.
    const again = readBridgeFile(dir);
    const tech2 = await connectBridge(again.wsUrl, again.secret);
    const signedIn2 = await tech2.send('session.signIn', { pin: '7777' });
    if (!signedIn2.ok) throw new Error(signedIn2.error.message);
    gatewayUrl = await gatewayUrlOf(tech2);
    await tech2.close();
    expect(await standing(utn)).toBe('Approved');
    await p.goto(second.url);
    await signIn(p, '1111');
    // The sale in flight at the crash comes back as what it is: paid, confirmed with the gateway.
    const approved = p.getByRole('status', { name: 'Approved' });
    await approved.waitFor();
    const text = (await approved.textContent()) ?? '';
    expect(text).toContain('$43.21');
    expect(text).toContain('the gateway confirmed this payment');
    await screenshot(p, 'follow-05-after-crash-kept');
    expect(journalState(dir, utn)).toBe('approved');
  }, 120_000);
});
