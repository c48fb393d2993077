import { afterEach, describe, expect, it } from 'vitest';
import { checkChipCryptogram } from '../../../gateway/sandbox/emv-issuer';
import { ChipReaderDriver, type ChipReaderDriverOptions } from '../../../native/drivers/chip-reader';
import type { ChipHostResponse, ChipStartResult } from '../../../native/drivers/roles';
import { decodeTlvHex, findTlv } from '../../../native/protocols/ber-tlv';
import { readIssuerResponse } from '../../../native/protocols/emv-issuer-response';
import { bytesToHex } from '../../../native/protocols/hex';
import { ChipSimulator, type ChipSimulatorOptions } from '../../../native/simulators/chip-simulator';
import { CHIP_TEST_CARDS, TEST_CARDS, type TestCard } from '../../../native/simulators/test-cards';
import { openPtyStreams, until, type PtyStreams } from '../support/pty-streams';
import { assertKind } from '../../support/narrow';

const chip = (pan: string): TestCard => {
  const c = CHIP_TEST_CARDS.find((x) => x.pan === pan);
  if (!c) throw new Error(`no chip card ${pan}`);
  return c;
};
const visaCredit = chip('4012888888881881');
const mastercardDebit = chip('5200828282828210');
const declinesAfterApproval = chip('4000000000000416');
const scriptCard = chip('4000000000000424');
const unreadable = chip('4000000000000432');

type Online = Extract<ChipStartResult, { kind: 'online' }>;

function online(r: ChipStartResult): Online {
  if (r.kind !== 'online') throw new Error(`expected an online request, got ${JSON.stringify(r)}`);
  return r;
}

/** What the sandbox issuer answers for this ARQC (the gateway's own check, not a stand-in). */
function issuerAnswer(
  r: Online,
  card: TestCard,
  amountCents: number,
  arc = '00',
  scripts = false,
): ChipHostResponse {
  const check = checkChipCryptogram(r.emvTlvHex, card.pan, { totalCents: amountCents, cashbackCents: 0 });
  if (check.kind !== 'verified')
    throw new Error(`the issuer did not verify the ARQC: ${JSON.stringify(check)}`);
  const answer = readIssuerResponse(check.arqc.answer(arc, { scripts }));
  if (!answer) throw new Error('no issuer answer');
  return answer;
}

describe('ChipReaderDriver against the contact chip simulator over a socat pty', () => {
  let pty: PtyStreams | undefined;
  let sim: ChipSimulator | undefined;
  let driver: ChipReaderDriver | undefined;
  afterEach(async () => {
    sim?.stop();
    await pty?.close();
    pty = undefined;
    sim = undefined;
    driver = undefined;
  });

  async function setup(
    opts: ChipSimulatorOptions = {},
    driverOpts: ChipReaderDriverOptions = {},
  ): Promise<{ sim: ChipSimulator; driver: ChipReaderDriver }> {
    pty = await openPtyStreams();
    sim = new ChipSimulator(pty.device, { autoInsert: true, insertDelayMs: 20, ...opts });
    driver = new ChipReaderDriver(pty.host, {
      commandTimeoutMs: 500,
      graceMs: 500,
      cardStepTimeoutMs: 3000,
      ...driverOpts,
    });
    return { sim, driver };
  }

  it('Visa CVN 18: ARQC the issuer verifies, ARPC back to the card, TC; the ATC goes up per sale', async () => {
    const { driver } = await setup({ card: visaCredit });
    const r = online(await driver.start({ amountCents: 2500, timeoutMs: 5000 }));
    expect(r.card).toMatchObject({
      maskedPan: '401288******1881',
      last4: '1881',
      brand: 'Visa',
      serviceCode: '201',
    });
    expect(r.card.panSequenceNumber).toBe('01');
    expect(r.card.applicationLabel).toBe('VISA CREDIT');
    expect(r.cvm).toBe('signature');
    expect(r.entryMode).toBe('05');
    const tlv = decodeTlvHex(r.emvTlvHex);
    expect(bytesToHex(findTlv(tlv, '9F39')?.value ?? new Uint8Array(0))).toBe('05');
    expect(bytesToHex(findTlv(tlv, '9F27')?.value ?? new Uint8Array(0))).toBe('80');
    expect(bytesToHex(findTlv(tlv, '9F02')?.value ?? new Uint8Array(0))).toBe('000000002500');
    const safe = decodeTlvHex(r.sanitizedEmvHex);
    for (const tag of ['5A', '57', '5F24', '9F26', '9F10']) expect(findTlv(safe, tag)).toBeUndefined();
    expect(findTlv(safe, '9F27')).toBeDefined();
    expect(r.sanitizedEmvHex).not.toContain(visaCredit.pan);
    expect(driver.inTransaction()).toBe(true);

    const done = await driver.complete(issuerAnswer(r, visaCredit, 2500));
    expect(done).toMatchObject({ kind: 'completed', decision: 'TC' });
    expect(done.kind === 'completed' && done.scriptResults).toBeFalsy();
    expect(driver.inTransaction()).toBe(false);

    const again = online(await driver.start({ amountCents: 100, timeoutMs: 5000 }));
    const atc = (hex: string) => bytesToHex(findTlv(decodeTlvHex(hex), '9F36')?.value ?? new Uint8Array(0));
    expect(parseInt(atc(again.emvTlvHex), 16)).toBe(parseInt(atc(r.emvTlvHex), 16) + 1);
    expect(await driver.complete(issuerAnswer(again, visaCredit, 100))).toMatchObject({ decision: 'TC' });
  });

  it('Mastercard CVN 16 debit: online PIN is the CVM, ARPC method 1, TC', async () => {
    const { driver } = await setup({ card: mastercardDebit });
    const r = online(await driver.start({ amountCents: 4200, timeoutMs: 5000 }));
    expect(r.cvm).toBe('online-pin');
    expect(r.card.brand).toBe('Mastercard');
    expect(await driver.complete(issuerAnswer(r, mastercardDebit, 4200))).toMatchObject({ decision: 'TC' });
  });

  it('issuer scripts: 71 before and 72 after the 2nd GENERATE AC, each reported successful in 9F5B', async () => {
    const { driver } = await setup({ card: scriptCard });
    const r = online(await driver.start({ amountCents: 1000, timeoutMs: 5000 }));
    const answer = issuerAnswer(r, scriptCard, 1000, '00', true);
    expect(answer.scripts).toMatch(/^71/);
    const done = await driver.complete(answer);
    expect(done).toMatchObject({
      kind: 'completed',
      decision: 'TC',
      scriptResults: '2000000001' + '2000000002',
    });
  });

  it('a script whose MAC is wrong is reported failed at its command, and the sale still completes', async () => {
    const { driver } = await setup({ card: scriptCard });
    const r = online(await driver.start({ amountCents: 1000, timeoutMs: 5000 }));
    const answer = issuerAnswer(r, scriptCard, 1000, '00', true);
    const scripts = answer.scripts ?? '';
    // Flip the last byte of the 72 script's MAC.
    const bad =
      scripts.slice(0, -2) +
      (parseInt(scripts.slice(-2), 16) ^ 0xff).toString(16).padStart(2, '0').toUpperCase();
    const done = await driver.complete({ ...answer, scripts: bad });
    expect(done).toMatchObject({
      kind: 'completed',
      decision: 'TC',
      scriptResults: '2000000001' + '1100000002',
    });
  });

  it('the trigger card declines after an approval: AAC with a good ARPC', async () => {
    const { driver } = await setup({ card: declinesAfterApproval });
    const r = online(await driver.start({ amountCents: 1500, timeoutMs: 5000 }));
    expect(await driver.complete(issuerAnswer(r, declinesAfterApproval, 1500))).toMatchObject({
      kind: 'completed',
      decision: 'AAC',
    });
  });

  it('fault declineAfterApproval: any card answers AAC', async () => {
    const { driver } = await setup({ card: visaCredit, faults: { declineAfterApproval: true } });
    const r = online(await driver.start({ amountCents: 1500, timeoutMs: 5000 }));
    expect(await driver.complete(issuerAnswer(r, visaCredit, 1500))).toMatchObject({ decision: 'AAC' });
  });

  it('a bad ARPC is refused by the card: AAC, with issuer authentication failed in the TVR', async () => {
    const { driver } = await setup({ card: visaCredit });
    const r = online(await driver.start({ amountCents: 1500, timeoutMs: 5000 }));
    const answer = issuerAnswer(r, visaCredit, 1500);
    const iad = answer.issuerAuthData ?? '';
    const tampered = `${((parseInt(iad.slice(0, 2), 16) ^ 1) & 0xff).toString(16).padStart(2, '0').toUpperCase()}${iad.slice(2)}`;
    const done = await driver.complete({ ...answer, issuerAuthData: tampered });
    expect(done).toMatchObject({ kind: 'completed', decision: 'AAC' });
    if (done.kind !== 'completed') return;
    const tvr = findTlv(decodeTlvHex(done.emvTlvHex), '95')?.value ?? new Uint8Array(0);
    expect((tvr[4] ?? 0) & 0x40).toBe(0x40);
  });

  it('an issuer decline (ARC 05) with its ARPC: AAC; unable to go online: AAC with ARC Z3', async () => {
    const { driver } = await setup({ card: mastercardDebit });
    const r = online(await driver.start({ amountCents: 900, timeoutMs: 5000 }));
    expect(await driver.complete(issuerAnswer(r, mastercardDebit, 900, '05'))).toMatchObject({
      decision: 'AAC',
    });
    await driver.start({ amountCents: 900, timeoutMs: 5000 });
    const offline = await driver.complete('unable-to-go-online');
    expect(offline).toMatchObject({ kind: 'completed', decision: 'AAC' });
    const completed = assertKind(offline, 'completed');
    expect(Buffer.from(findTlv(decodeTlvHex(completed.emvTlvHex), '8A')?.value ?? []).toString()).toBe('Z3');
  });

  it('a chip that cannot be read falls back to the stripe (result 0007), the trigger card and the fault alike', async () => {
    const { driver, sim } = await setup({ card: unreadable });
    expect(await driver.start({ amountCents: 500, timeoutMs: 5000 })).toEqual({
      kind: 'fallback',
      reason: 'the chip could not be read: swipe the card',
    });
    expect(driver.inTransaction()).toBe(false);
    sim.card = visaCredit;
    sim.setFaults({ chipUnreadable: true });
    expect((await driver.start({ amountCents: 500, timeoutMs: 5000 })).kind).toBe('fallback');
    // A magstripe-only card in the slot has no chip to answer either.
    sim.setFaults({});
    sim.card = TEST_CARDS[0] as TestCard;
    expect((await driver.start({ amountCents: 500, timeoutMs: 5000 })).kind).toBe('fallback');
  });

  it("no card inserted in time: timeout; cancel while waiting, and the late answer is not the next start's", async () => {
    const { driver, sim } = await setup({ autoInsert: false });
    expect(await driver.start({ amountCents: 500, timeoutMs: 1000 })).toEqual({ kind: 'timeout' });
    const pending = driver.start({ amountCents: 500, timeoutMs: 10_000 });
    await until(() => sim.waitingForCard, 3000, 'the reader waiting for a card');
    expect(await driver.start({ amountCents: 1, timeoutMs: 1000 })).toMatchObject({
      kind: 'failed',
      code: 'busy',
    });
    await driver.cancel();
    expect(await pending).toEqual({ kind: 'cancelled' });
    await until(() => !sim.busy, 3000, 'the reader idle');
    const next = driver.start({ amountCents: 700, timeoutMs: 10_000 });
    await until(() => sim.waitingForCard, 3000, 'the reader waiting again');
    expect(sim.insert(visaCredit)).toBe(true);
    const r = online(await next);
    expect(bytesToHex(findTlv(decodeTlvHex(r.emvTlvHex), '9F02')?.value ?? new Uint8Array(0))).toBe(
      '000000000700',
    );
    await driver.cancel();
    expect(driver.inTransaction()).toBe(false);
    await until(() => !sim.busy, 3000, 'the cancelled transaction ended');
  });

  it('a card that stops answering: 3006 at authenticate or at completion ends as card-not-answering', async () => {
    const { driver, sim } = await setup({
      card: visaCredit,
      cardTimeoutMs: 200,
      faults: { cardNotAnswering: 'authenticate' },
    });
    expect(await driver.start({ amountCents: 500, timeoutMs: 5000 })).toMatchObject({
      kind: 'failed',
      code: 'card-not-answering',
    });
    sim.setFaults({ cardNotAnswering: 'complete' });
    const r = online(await driver.start({ amountCents: 500, timeoutMs: 5000 }));
    expect(await driver.complete(issuerAnswer(r, visaCredit, 500))).toMatchObject({
      kind: 'failed',
      code: 'card-not-answering',
    });
    expect(driver.inTransaction()).toBe(false);
  });

  it('a card removed before completion: complete() says card-removed (no TC: the approval must be reversed)', async () => {
    const { driver, sim } = await setup({ card: visaCredit });
    const r = online(await driver.start({ amountCents: 800, timeoutMs: 5000 }));
    expect(sim.removeCard()).toBe(true);
    expect(await driver.complete(issuerAnswer(r, visaCredit, 800))).toEqual({ kind: 'card-removed' });
    sim.setFaults({ removeCardBefore: 'authenticate' });
    expect(await driver.start({ amountCents: 800, timeoutMs: 5000 })).toEqual({ kind: 'card-removed' });
    sim.setFaults({ removeCardBefore: 'complete' });
    const r2 = online(await driver.start({ amountCents: 800, timeoutMs: 5000 }));
    expect(await driver.complete(issuerAnswer(r2, visaCredit, 800))).toEqual({ kind: 'card-removed' });
  });

  it('a reader that never answers authenticate: the host gives up (no-answer) and cancels', async () => {
    const { driver, sim } = await setup(
      { card: visaCredit, faults: { silentOn: 'authenticate' } },
      { cardStepTimeoutMs: 300, graceMs: 100 },
    );
    expect(await driver.start({ amountCents: 500, timeoutMs: 5000 })).toMatchObject({
      kind: 'failed',
      code: 'no-answer',
    });
    await until(() => !sim.busy, 3000, 'the reader cancelled by the host');
  });

  it('02-40 with DFEF37 = contact starts the same transaction', async () => {
    const { driver } = await setup({ card: visaCredit }, { startCommand: '02-40' });
    const r = online(await driver.start({ amountCents: 3300, timeoutMs: 5000 }));
    expect(await driver.complete(issuerAnswer(r, visaCredit, 3300))).toMatchObject({ decision: 'TC' });
    sim?.setFaults({ chipUnreadable: true });
    expect((await driver.start({ amountCents: 3300, timeoutMs: 5000 })).kind).toBe('fallback');
  });

  it('refuses what it cannot send: complete without a transaction, a malformed host response, a bad amount', async () => {
    const { driver } = await setup({ card: visaCredit });
    expect(await driver.complete({ arc: '00' })).toMatchObject({ kind: 'failed', code: 'no-transaction' });
    expect(await driver.start({ amountCents: -1, timeoutMs: 1000 })).toMatchObject({
      kind: 'failed',
      code: 'invalid-request',
    });
    expect(await driver.start({ amountCents: 100, otherAmountCents: 200, timeoutMs: 1000 })).toMatchObject({
      code: 'invalid-request',
    });
    online(await driver.start({ amountCents: 100, timeoutMs: 5000 }));
    expect(await driver.complete({ arc: '0' })).toMatchObject({ code: 'invalid-request' });
    expect(await driver.complete({ arc: '00', issuerAuthData: 'XYZ' })).toMatchObject({
      code: 'invalid-request',
    });
    expect(await driver.complete({ arc: '00', scripts: '8A023030' })).toMatchObject({
      code: 'invalid-request',
    });
    // Still open: the card waits for a valid answer.
    expect(driver.inTransaction()).toBe(true);
    expect(await driver.complete('unable-to-go-online')).toMatchObject({ decision: 'AAC' });
  });

  it('heartbeat pings while idle and stays quiet during a transaction', async () => {
    const { driver, sim } = await setup({ card: visaCredit, autoInsert: false });
    await driver.heartbeat();
    const pending = driver.start({ amountCents: 100, timeoutMs: 10_000 });
    await until(() => sim.waitingForCard, 3000, 'waiting for a card');
    await driver.heartbeat();
    expect(sim.waitingForCard).toBe(true);
    await driver.cancel();
    expect(await pending).toEqual({ kind: 'cancelled' });
  });
});
