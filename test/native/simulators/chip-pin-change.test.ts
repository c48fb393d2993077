import { describe, expect, it } from 'vitest';
import { checkChipCryptogram } from '../../../gateway/sandbox/emv-issuer';
import { decodeTlvHex, encodeTlv, findTlv } from '../../../native/protocols/ber-tlv';
import {
  CRYPTOGRAM_VERSIONS,
  deriveIccMasterKeys,
  scriptCommandMac,
  secureMessagingSessionKey,
} from '../../../native/protocols/emv-cryptogram-versions';
import { readIssuerResponse } from '../../../native/protocols/emv-issuer-response';
import { buildIssuerScript } from '../../../native/protocols/emv-issuer-script';
import { encryptCommandData } from '../../../native/protocols/emv-secure-messaging';
import { bytesToHex, hexToBytes } from '../../../native/protocols/hex';
import { SANDBOX_ISSUER_MASTER_KEYS } from '../../../native/simulators/test-cards';
import { type ChipRead, chipTerminal } from '../../support/chip-terminal';

const PIN_CHANGE_CARD = '5100000000000024';

/** The sandbox issuer's approval of a read, with a PIN change script for `pin` (emv-issuer.ts). */
function approvalWithPinChange(read: ChipRead, pan: string, amountCents: number, pin: string) {
  const check = checkChipCryptogram(read.emvTlvHex, pan, { totalCents: amountCents, cashbackCents: 0 });
  if (check.kind !== 'verified') throw new Error(`the issuer did not verify the ARQC: ${check.reason}`);
  const answer = readIssuerResponse(check.arqc.answer('00', { pinChange: pin }));
  if (!answer) throw new Error('no issuer answer');
  return answer;
}

const tagOf = (hex: string, tag: string) =>
  bytesToHex(findTlv(decodeTlvHex(hex), tag)?.value ?? new Uint8Array(0));

/**
 * The card's side of an issuer PIN change (script 72 after the 2nd GENERATE AC): it checks the command's
 * MAC, deciphers the PIN block under this transaction's SM confidentiality key, reads it as its
 * cryptogram version writes it, changes its offline PIN, and reports the script in 9F5B. A command it
 * cannot trust is reported failed and changes nothing.
 */
describe('a chip card applies an issuer PIN change script', () => {
  it('the PIN change card (Mastercard CVN 16): the new PIN is set, 9F5B reports the script successful', async () => {
    const t = chipTerminal(PIN_CHANGE_CARD);
    try {
      expect(t.sim.offlinePinOf(t.card)).toBe('4321');
      const read = await t.read(1500);
      const answer = approvalWithPinChange(read, PIN_CHANGE_CARD, 1500, '1234');
      // One script, 72, with the PIN CHANGE/UNBLOCK command (84 24 00 02) whose data is enciphered.
      expect(answer.scripts).toMatch(/^721E9F18040000000386158424000210[0-9A-F]{32}$/);
      const done = await t.complete(answer);
      expect(done).toMatchObject({ kind: 'completed', decision: 'TC', scriptResults: '2000000003' });
      expect(t.sim.offlinePinOf(t.card)).toBe('1234');
    } finally {
      await t.close();
    }
  });

  it('a PIN change whose MAC is wrong fails at its command, and the PIN stays', async () => {
    const t = chipTerminal(PIN_CHANGE_CARD);
    try {
      const read = await t.read(700);
      const answer = approvalWithPinChange(read, PIN_CHANGE_CARD, 700, '1234');
      const scripts = answer.scripts ?? '';
      const bad = `${scripts.slice(0, -2)}${(parseInt(scripts.slice(-2), 16) ^ 0x5a).toString(16).padStart(2, '0').toUpperCase()}`;
      const done = await t.complete({ ...answer, scripts: bad });
      expect(done).toMatchObject({ kind: 'completed', decision: 'TC', scriptResults: '1100000003' });
      expect(t.sim.offlinePinOf(t.card)).toBe('4321');
      // The TVR says a script failed after the final GENERATE AC (byte 5 bit 5).
      if (done.kind !== 'completed') throw new Error('not completed');
      expect(parseInt(tagOf(done.emvTlvHex, '95').slice(8, 10), 16) & 0x10).toBe(0x10);
    } finally {
      await t.close();
    }
  });

  it('a well-MACed command whose data is not a PIN block fails, and the PIN stays', async () => {
    const t = chipTerminal(PIN_CHANGE_CARD);
    try {
      const read = await t.read(800);
      const base = approvalWithPinChange(read, PIN_CHANGE_CARD, 800, '1234');
      // The issuer's keys, as a forger who had them would use them: the block is what is wrong.
      const v = CRYPTOGRAM_VERSIONS['mastercard-16'];
      const icc = deriveIccMasterKeys(v, SANDBOX_ISSUER_MASTER_KEYS.mastercard, PIN_CHANGE_CARD, '01');
      const atc = hexToBytes(tagOf(read.emvTlvHex, '9F36'));
      const arqc = hexToBytes(tagOf(read.emvTlvHex, '9F26'));
      const smc = secureMessagingSessionKey(v, icc.smc, atc, arqc);
      const data = encryptCommandData(smc, hexToBytes('34123A4FFFFFFFFF'), v.encryption);
      const header = Uint8Array.of(0x84, 0x24, 0x00, 0x02, data.length + 8);
      const command = Uint8Array.from([
        ...header,
        ...data,
        ...scriptCommandMac(v, icc.smi, header, atc, arqc, data),
      ]);
      const scripts = bytesToHex(
        encodeTlv([
          buildIssuerScript({ template: '72', scriptId: Uint8Array.of(0, 0, 0, 3), commands: [command] }),
        ]),
      );
      const done = await t.complete({ ...base, scripts });
      expect(done).toMatchObject({ kind: 'completed', decision: 'TC', scriptResults: '1100000003' });
      expect(t.sim.offlinePinOf(t.card)).toBe('4321');
    } finally {
      await t.close();
    }
  });

  it('a Visa CVN 18 card takes its PIN change as a VIS PIN block (Visa encipherment)', async () => {
    const pan = '4012888888881881';
    const t = chipTerminal(pan);
    try {
      const before = t.sim.offlinePinOf(t.card);
      const read = await t.read(900);
      const done = await t.complete(approvalWithPinChange(read, pan, 900, '86420'));
      expect(done).toMatchObject({ kind: 'completed', decision: 'TC', scriptResults: '2000000003' });
      expect(t.sim.offlinePinOf(t.card)).toBe('86420');
      expect(before).not.toBe('86420');
    } finally {
      await t.close();
    }
  });
});
