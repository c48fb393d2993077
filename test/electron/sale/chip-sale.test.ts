import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SaleProgress, TenderRequest } from '../../../common/bridge/contract';
import type { TransactionReportRecord } from '../../../gateway/contract/report';
import { DeclineCode } from '../../../gateway/contract/decline-codes';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import type { ChipCompletion, ChipHostResponse } from '../../../native/drivers/roles';
import { decodeTlvHex } from '../../../native/protocols/ber-tlv';
import { bytesToHex } from '../../../native/protocols/hex';
import { merchant1, startGateway, type TestGateway } from '../../support/gateway-harness';
import { eventually, startLane, value, type Lane } from '../helpers';

/**
 * The terminal half of a contact chip sale (issue 14; docs/chip.md, docs/terminal.md "Chip sales"):
 * the real core, the simulated NGA reader (a chip card computing real ARQCs) and the sandbox gateway's
 * issuer over real HTTP. The card has the final say; an approval it does not confirm is reversed.
 */

const VISA_CHIP = '4012888888881881'; // signature CVM
const VISA_DEBIT_CHIP = '4000000000000408'; // online PIN CVM
const MC_CHIP = '5100000000000016'; // signature CVM
const DECLINES_AFTER_APPROVAL = '4000000000000416';
const SCRIPT_CARD = '4000000000000424';
const PIN_CHANGE_CARD = '5100000000000024';
const UNREADABLE_CHIP = '4000000000000432';

/** What the gateway stored for a payment (its own SQLite file, read-only). */
function gatewayPayment(
  gw: TestGateway,
  utn: string,
): { status: string; entry_mode: string; transaction_type: number } | undefined {
  const db = new Database(join(gw.dataDir, 'gateway.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT status, entry_mode, transaction_type FROM payments WHERE utn = ?').get(utn) as
      { status: string; entry_mode: string; transaction_type: number } | undefined;
  } finally {
    db.close();
  }
}

async function reportStatus(gw: TestGateway, utn: string): Promise<string | undefined> {
  const r = await gw.post('/api/Report/GetReportByMerchant', merchant1);
  return (r.body.Transactions as TransactionReportRecord[]).find((t) => t.UserTransactionNumber === utn)
    ?.Status;
}

type Told = { answer: ChipHostResponse | 'unable-to-go-online'; completion: ChipCompletion };

/** Records what the sale engine tells the card and what the card answers (the reader facade the core uses). */
function watchCompletions(lane: Lane): Told[] {
  const told: Told[] = [];
  const reader = lane.core.devices.devices.chipReader;
  const complete = reader.complete.bind(reader);
  reader.complete = async (answer) => {
    const completion = await complete(answer);
    told.push({ answer, completion });
    return completion;
  };
  return told;
}

describe('chip sales through the real core, the simulated NGA reader and the sandbox issuer', () => {
  let lane: Lane;
  let told: Told[];
  const prompts: SaleProgress[] = [];
  const sim = () => {
    const s = lane.core.devices.simulated;
    if (!s) throw new Error('no simulated devices');
    return s.controls;
  };
  const waitFor = (what: 'chip' | 'contactless') =>
    eventually(() =>
      what === 'chip' ? sim().state().chip.waitingForCard : sim().state().contactless.waitingForCard,
    );

  beforeAll(async () => {
    lane = await startLane();
    told = watchCompletions(lane);
    lane.bridge.on('sale.progress', (p) => prompts.push(p));
  });
  afterAll(async () => {
    await lane.close();
  });

  async function pay(subtotalCents: number, tender: TenderRequest) {
    const t = value(await lane.bridge.send('sale.open', { subtotalCents, taxCents: 0 }));
    prompts.length = 0;
    told.length = 0;
    return { ticket: t, outcome: lane.bridge.send('sale.pay', { ticketId: t.ticketId, tender }) };
  }

  it('TC: the card goes online with its ARQC, the issuer answers, the card confirms; PosEntryMode Chip; a signature as its CVM asks, even below the floor', async () => {
    const { outcome } = await pay(1200, { kind: 'credit', entry: 'present' });
    await waitFor('chip');
    expect(sim().insert(VISA_CHIP)).toBe(true);
    const out = value(await outcome);
    expect(out.tender.status).toBe('approved');
    expect(out.tender.card?.entry).toBe('chip');
    // 12.00 is under the signature floor (50.00): the card's CVM list asked for the signature.
    expect(out.signatureRequired).toBe(true);
    const words = prompts.map((p) => p.prompt);
    expect(words).toContain('Do not remove the card');
    expect(words).toContain('Authorizing… Do not remove the card');
    expect(words.at(-2)).toBe('Remove card');
    // The issuer's answer reached the card: 8A 00 with its ARPC (91), and the card answered TC.
    expect(told).toHaveLength(1);
    const answer = told[0]?.answer;
    if (!answer || answer === 'unable-to-go-online') throw new Error('the card was not given the answer');
    expect(answer.arc).toBe('00');
    expect(answer.issuerAuthData).toMatch(/^[0-9A-F]{16,32}$/);
    expect(told[0]?.completion).toMatchObject({ kind: 'completed', decision: 'TC' });
    const utn = out.tender.userTransactionNumber as string;
    const row = await lane.core.journal.get(utn);
    expect(row).toMatchObject({
      state: 'approved',
      cardDecision: 'TC',
      entryMode: 'chip',
      operation: 'sale',
    });
    expect(gatewayPayment(lane.gw, utn)).toMatchObject({ status: 'approved', entry_mode: 'Chip' });
    expect(sim().state().chip.cardInserted).toBe(false);
  });

  it('a debit chip card (online PIN CVM) on a credit tender: the PIN on the pad, SaleDebit with the EmvData, TC, no signature', async () => {
    const { outcome } = await pay(2300, { kind: 'credit', entry: 'chip' });
    await waitFor('chip');
    expect(sim().insert(VISA_DEBIT_CHIP)).toBe(true);
    await eventually(() => sim().state().pinPad.awaitingPin);
    expect(prompts.map((p) => p.step)).toContain('pin-entry');
    expect(sim().typePin('1234')).toBe(true);
    const out = value(await outcome);
    expect(out.tender.status).toBe('approved');
    expect(out.signatureRequired).toBe(false);
    expect(told[0]?.completion).toMatchObject({ kind: 'completed', decision: 'TC' });
    const utn = out.tender.userTransactionNumber as string;
    expect(await lane.core.journal.get(utn)).toMatchObject({ operation: 'debit', cardDecision: 'TC' });
    expect(gatewayPayment(lane.gw, utn)).toMatchObject({
      status: 'approved',
      entry_mode: 'Chip',
      transaction_type: 5,
    });
  });

  it('AAC after an online approval: "Declined by card", the journal reverses the approval and the gateway agrees', async () => {
    const { outcome } = await pay(3100, { kind: 'credit', entry: 'present' });
    await waitFor('chip');
    expect(sim().insert(DECLINES_AFTER_APPROVAL)).toBe(true);
    const out = value(await outcome);
    expect(out.tender.status).toBe('reversed');
    expect(out.tender.cardRefusal).toBe('declined-by-card');
    expect(out.tender.message).toContain('Declined by card');
    expect(out.signatureRequired).toBe(false);
    expect(out.ticket.paidCents).toBe(0);
    expect(out.needsAnotherTender).toBe(true);
    // The issuer approved (8A 00) and the card still said AAC.
    const answer = told[0]?.answer;
    expect(answer !== 'unable-to-go-online' && answer?.arc).toBe('00');
    expect(told[0]?.completion).toMatchObject({ kind: 'completed', decision: 'AAC' });
    const utn = out.tender.userTransactionNumber as string;
    expect(await lane.core.reversalsDrained(15_000)).toBe(true);
    expect(await lane.core.journal.get(utn)).toMatchObject({ state: 'reversed', cardDecision: 'AAC' });
    expect(await reportStatus(lane.gw, utn)).toBe('reversed');
  });

  it('a card pulled out while the gateway answers: reversed at the gateway, the cashier reads why', async () => {
    const off = lane.bridge.on('sale.progress', (p) => {
      if (p.step === 'authorizing') sim().removeCard();
    });
    try {
      const { outcome } = await pay(3200, { kind: 'credit', entry: 'chip' });
      await waitFor('chip');
      expect(sim().insert(MC_CHIP)).toBe(true);
      const out = value(await outcome);
      expect(out.tender.status).toBe('reversed');
      expect(out.tender.cardRefusal).toBe('card-removed');
      expect(out.tender.message).toContain('removed');
      expect(told[0]?.completion).toEqual({ kind: 'card-removed' });
      const utn = out.tender.userTransactionNumber as string;
      expect(await lane.core.reversalsDrained(15_000)).toBe(true);
      expect(await lane.core.journal.get(utn)).toMatchObject({ state: 'reversed', cardDecision: null });
      expect(await reportStatus(lane.gw, utn)).toBe('reversed');
    } finally {
      off();
    }
  });

  it('a gateway decline goes to the card as the issuer sent it (8A 55 with its ARPC): the card closes with AAC, nothing to reverse', async () => {
    const { outcome } = await pay(2400, { kind: 'debit', entry: 'chip' });
    await waitFor('chip');
    expect(sim().insert(VISA_DEBIT_CHIP)).toBe(true);
    await eventually(() => sim().state().pinPad.awaitingPin);
    expect(sim().typePin('9999')).toBe(true);
    const out = value(await outcome);
    expect(out.tender.status).toBe('declined');
    expect(out.tender.gatewayCode).toBe(ResponseCode.Declined);
    expect(out.tender.declineCode).toBe(DeclineCode.IncorrectPin);
    const answer = told[0]?.answer;
    if (!answer || answer === 'unable-to-go-online') throw new Error('the card was not given the decline');
    expect(answer.arc).toBe('55');
    expect(answer.issuerAuthData).toMatch(/^[0-9A-F]{16,32}$/);
    expect(told[0]?.completion).toMatchObject({ kind: 'completed', decision: 'AAC' });
    const row = await lane.core.journal.get(out.tender.userTransactionNumber as string);
    expect(row?.state).toBe('declined');
    expect((await lane.core.journal.pendingReversals()).length).toBe(0);
  });

  it('issuer scripts: the card runs them and its results (9F5B) are kept with the transaction — never the cryptogram', async () => {
    const { outcome } = await pay(2500, { kind: 'credit', entry: 'chip' });
    await waitFor('chip');
    expect(sim().insert(SCRIPT_CARD)).toBe(true);
    const out = value(await outcome);
    expect(out.tender.status).toBe('approved');
    const answer = told[0]?.answer;
    if (!answer || answer === 'unable-to-go-online') throw new Error('no issuer answer');
    expect(answer.scripts).toMatch(/^(71|72)/);
    const completion = told[0]?.completion;
    if (completion?.kind !== 'completed') throw new Error('the card did not complete');
    const utn = out.tender.userTransactionNumber as string;
    const row = await lane.core.journal.get(utn);
    // Two scripts (71 before, 72 after the 2nd GENERATE AC): 5 bytes of results each.
    expect(row?.scriptResults).toBe(completion.scriptResults?.toUpperCase());
    expect(row?.scriptResults).toMatch(/^[0-9A-F]{20}$/);
    const listed = value(await lane.bridge.send('transactions.list', { limit: 20 })).find(
      (x) => x.userTransactionNumber === utn,
    );
    expect(listed?.scriptResults).toBe(row?.scriptResults);
    // The card's final cryptogram (9F26, a TC) is nowhere in the journal's file.
    const tc = decodeTlvHex(completion.emvTlvHex).find((n) => n.tag === '9F26');
    if (!tc) throw new Error('no 9F26 in the completion');
    const files = ['journal.sqlite', 'journal.sqlite-wal'].map((f) =>
      readFileSync(join(lane.dataDir, f), { flag: 'a+' }),
    );
    expect(files[0]?.length).toBeGreaterThan(0);
    for (const bytes of files) {
      expect(bytes.includes(Buffer.from(tc.value))).toBe(false);
      expect(bytes.toString('latin1')).not.toContain(bytesToHex(tc.value));
    }
  });

  it('a PIN change script: the card applies it, and its result (9F5B, successful) is kept with the transaction', async () => {
    const { outcome } = await pay(2700, { kind: 'credit', entry: 'chip' });
    await waitFor('chip');
    expect(sim().insert(PIN_CHANGE_CARD)).toBe(true);
    const out = value(await outcome);
    expect(out.tender.status).toBe('approved');
    const answer = told[0]?.answer;
    if (!answer || answer === 'unable-to-go-online') throw new Error('no issuer answer');
    // One script, 72, carrying the PIN CHANGE/UNBLOCK command (84 24 00 02).
    expect(answer.scripts).toMatch(/^72[0-9A-F]{2}9F18040000000386[0-9A-F]{2}8424000210/);
    const row = await lane.core.journal.get(out.tender.userTransactionNumber as string);
    expect(row).toMatchObject({ state: 'approved', cardDecision: 'TC', scriptResults: '2000000003' });
  });

  it('fallback: a chip card is refused at the swipe until its chip failed; then the swipe goes as ChipFallbackSwipe', async () => {
    const { outcome } = await pay(2600, { kind: 'credit', entry: 'present' });
    await waitFor('chip');
    // The stripe of a chip card (service code 201) first: refused, "insert the card".
    await sim().swipe(UNREADABLE_CHIP);
    await eventually(() => prompts.some((p) => p.prompt === 'Chip card: insert the card'));
    expect(prompts.some((p) => p.step === 'authorizing')).toBe(false);
    await waitFor('chip');
    expect(sim().insert(UNREADABLE_CHIP)).toBe(true);
    await eventually(() => prompts.some((p) => p.prompt === 'Chip could not be read — swipe the card'));
    await sim().swipe(UNREADABLE_CHIP);
    const out = value(await outcome);
    expect(out.tender.status).toBe('approved');
    expect(out.tender.card?.entry).toBe('swipe');
    const utn = out.tender.userTransactionNumber as string;
    expect(gatewayPayment(lane.gw, utn)).toMatchObject({
      status: 'approved',
      entry_mode: 'ChipFallbackSwipe',
    });
    // Nothing was left open on the reader.
    expect(lane.core.devices.devices.chipReader.inTransaction()).toBe(false);
  });

  it('the fallback setting: with 2 failures required, one failed chip asks for the card again; a stripe card swipes as before', async () => {
    const mgr = lane.core.connect();
    value(await mgr.send('session.signIn', { pin: '9999' }));
    const bad = await mgr.send('business.update', { chipFallbackAfterFailures: 0 });
    expect(bad.ok ? 'ok' : bad.error.code).toBe('invalid');
    expect(
      value(await mgr.send('business.update', { chipFallbackAfterFailures: 2 })).chipFallbackAfterFailures,
    ).toBe(2);
    try {
      const { outcome } = await pay(2700, { kind: 'credit', entry: 'present' });
      await waitFor('chip');
      expect(sim().insert(UNREADABLE_CHIP)).toBe(true);
      await eventually(() =>
        prompts.some((p) => p.prompt === 'Chip could not be read — insert the card again'),
      );
      await sim().swipe(UNREADABLE_CHIP);
      await eventually(() => prompts.some((p) => p.prompt === 'Chip card: insert the card'));
      await waitFor('chip');
      expect(sim().insert(UNREADABLE_CHIP)).toBe(true);
      await eventually(() => prompts.some((p) => p.prompt === 'Chip could not be read — swipe the card'));
      await sim().swipe(UNREADABLE_CHIP);
      const out = value(await outcome);
      expect(out.tender.status).toBe('approved');
      expect(gatewayPayment(lane.gw, out.tender.userTransactionNumber as string)?.entry_mode).toBe(
        'ChipFallbackSwipe',
      );
      // A stripe-only card (service code 101) swipes at once, as a plain swipe.
      const plain = await pay(2800, { kind: 'credit', entry: 'present' });
      await waitFor('chip');
      await sim().swipe('4242424242424242');
      const swiped = value(await plain.outcome);
      expect(swiped.tender.status).toBe('approved');
      expect(gatewayPayment(lane.gw, swiped.tender.userTransactionNumber as string)?.entry_mode).toBe(
        'Swiped',
      );
    } finally {
      value(await mgr.send('business.update', { chipFallbackAfterFailures: 1 }));
      mgr.close();
    }
  });

  it('a tap stays contactless: one start listens for insert or tap, the gateway records Contactless', async () => {
    const { outcome } = await pay(2900, { kind: 'credit', entry: 'present' });
    await waitFor('contactless');
    expect(sim().state().chip.waitingForCard).toBe(true);
    expect(sim().tap('5555555555554444')).toBe(true);
    const out = value(await outcome);
    expect(out.tender.status).toBe('approved');
    expect(out.tender.card?.entry).toBe('contactless');
    // Nothing to complete with a tapped card.
    expect(told).toHaveLength(0);
    const utn = out.tender.userTransactionNumber as string;
    expect(gatewayPayment(lane.gw, utn)).toMatchObject({ status: 'approved', entry_mode: 'Contactless' });
  });

  it('a hold on a chip card: the card confirms the pre-authorization (TC); a card that asks for its PIN cannot be held', async () => {
    const { outcome } = await pay(3400, { kind: 'preauth', entry: 'chip' });
    await waitFor('chip');
    expect(sim().insert(MC_CHIP)).toBe(true);
    const held = value(await outcome);
    expect(held.tender.status).toBe('approved');
    expect(told[0]?.completion).toMatchObject({ kind: 'completed', decision: 'TC' });
    const utn = held.tender.userTransactionNumber as string;
    expect(await lane.core.journal.get(utn)).toMatchObject({ operation: 'preauth', cardDecision: 'TC' });
    expect(gatewayPayment(lane.gw, utn)).toMatchObject({ status: 'approved', entry_mode: 'Chip' });

    const before = await lane.core.journal.lastSequence();
    const pinCard = await pay(3500, { kind: 'preauth', entry: 'chip' });
    await waitFor('chip');
    expect(sim().insert(VISA_DEBIT_CHIP)).toBe(true);
    const refused = value(await pinCard.outcome);
    expect(refused.tender.status).toBe('declined');
    expect(refused.tender.message).toContain('PIN');
    // Nothing was sent, and the card's transaction was ended on the reader.
    expect(await lane.core.journal.lastSequence()).toBe(before);
    expect(lane.core.devices.devices.chipReader.inTransaction()).toBe(false);
    expect(sim().state().chip.cardInserted).toBe(false);
  });

  it('cancelled at the PIN: nothing is sent and the card’s transaction ends on the reader', async () => {
    const before = await lane.core.journal.lastSequence();
    const { ticket, outcome } = await pay(3600, { kind: 'credit', entry: 'chip' });
    await waitFor('chip');
    expect(sim().insert(VISA_DEBIT_CHIP)).toBe(true);
    await eventually(() => sim().state().pinPad.awaitingPin);
    expect(lane.core.devices.devices.chipReader.inTransaction()).toBe(true);
    value(await lane.bridge.send('sale.cancel', { ticketId: ticket.ticketId }));
    const out = value(await outcome);
    expect(out.tender.status).toBe('cancelled');
    expect(told).toHaveLength(0);
    expect(await lane.core.journal.lastSequence()).toBe(before);
    await eventually(() => !lane.core.devices.devices.chipReader.inTransaction());
    expect(sim().state().chip.cardInserted).toBe(false);
  });

  it('offline: the card is told "unable to go online" and declines (AAC), so store-and-forward does not keep it', async () => {
    const offline = await startLane({
      gateway: { ...lane.gw, baseUrl: 'http://127.0.0.1:9' },
      signIn: '9999',
    });
    try {
      const offlineTold = watchCompletions(offline);
      value(
        await offline.bridge.send('saf.setPolicy', {
          enabled: true,
          perTransactionLimitCents: 5000,
          totalLimitCents: 5000,
          maxAgeHours: 24,
        }),
      );
      const t = value(await offline.bridge.send('sale.open', { subtotalCents: 3300, taxCents: 0 }));
      const paying = offline.bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: { kind: 'credit', entry: 'chip' },
      });
      const controls = offline.core.devices.simulated?.controls;
      await eventually(() => controls?.state().chip.waitingForCard === true);
      expect(controls?.insert(VISA_CHIP)).toBe(true);
      const out = value(await paying);
      expect(out.tender.status).toBe('offline-refused');
      expect(out.tender.message).toContain('the card declined offline');
      expect(offlineTold.map((x) => x.answer)).toEqual(['unable-to-go-online']);
      expect(offlineTold[0]?.completion).toMatchObject({ kind: 'completed', decision: 'AAC' });
      expect(value(await offline.bridge.send('saf.get', {})).count).toBe(0);
      expect((await offline.core.journal.get(out.tender.userTransactionNumber as string))?.state).toBe(
        'failed',
      );
    } finally {
      await offline.close();
    }
  });
});

describe('a crash between the issuer approval and the card answer', () => {
  let gw: TestGateway;
  let dataDir: string;
  beforeAll(async () => {
    gw = await startGateway();
    dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-chip-crash-'));
  });
  afterAll(async () => {
    await gw.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the restarted terminal reverses the approval the card never confirmed; the card keeps counting', async () => {
    const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const child = spawn(
      process.execPath,
      ['--import', loader, join(import.meta.dirname, '..', 'support', 'chip-crash-lane.ts')],
      {
        env: {
          ...process.env,
          TP_DATA: dataDir,
          TP_GATEWAY: gw.baseUrl,
          TP_CARD: MC_CHIP,
          TP_AMOUNT: '4100',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let out = '';
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const utn = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /awaiting-card (\S+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      void exited.then(() => reject(new Error(`the lane exited early:\n${out}`)));
    });
    child.kill('SIGKILL');
    await exited;
    // The issuer approved it: the gateway has it approved while the lane is dead.
    expect(await reportStatus(gw, utn)).toBe('approved');

    const lane = await startLane({ gateway: gw, dataDir });
    try {
      expect(await lane.core.reversalsDrained(15_000)).toBe(true);
      expect(await lane.core.journal.get(utn)).toMatchObject({ state: 'reversed' });
      expect(await reportStatus(gw, utn)).toBe('reversed');
      // The same card again on the restarted lane: its counter went on from the data folder's file, so
      // the issuer takes it (a counter from 1 again would be declined as a replay).
      const t = value(await lane.bridge.send('sale.open', { subtotalCents: 4200, taxCents: 0 }));
      const paying = lane.bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: { kind: 'credit', entry: 'chip' },
      });
      const controls = lane.core.devices.simulated?.controls;
      await eventually(() => controls?.state().chip.waitingForCard === true);
      expect(controls?.insert(MC_CHIP)).toBe(true);
      const second = value(await paying);
      expect(second.tender.status).toBe('approved');
    } finally {
      await lane.close();
    }
  }, 60_000);
});
