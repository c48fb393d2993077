/**
 * A simulated contact EMV card: the application data its records hold, and the card's side of GENERATE
 * AC, EXTERNAL AUTHENTICATE and issuer script processing (EMV 4.4 Book 3 §6.5.5, §10.9-10.10), computed
 * with real keys: ICC master keys derived from the sandbox issuer master keys of its scheme, ARQC/TC/AAC
 * by its cryptogram version (Visa CVN 18, Mastercard CVN 16), ARPC and script MACs checked the way the
 * sandbox issuer makes them. No I/O: the chip simulator drives it.
 *
 * The card keeps an offline PIN that an issuer PIN change script (84 24 00 01/02) replaces once its MAC
 * verifies and its PIN block deciphers (emv-cryptogram-versions.ts `readPinChangeCommand`).
 *
 * Not modelled: offline data authentication (no certificates, so SDA/DDA/CDA are off in the AIP),
 * offline PIN verification (the sandbox's CVMs are online PIN and signature; the PIN try counter a PIN
 * UNBLOCK resets is not kept), the card's own risk management (every transaction goes online),
 * application blocking.
 */
import { type TlvNode } from '../protocols/ber-tlv';
import { arpcMethod1, arpcMethod2 } from '../protocols/emv-arpc';
import {
  type AcTransactionData,
  type CryptogramVersion,
  type MasterKeys,
  CRYPTOGRAM_VERSIONS,
  acDataTailFromIad,
  applicationCryptogram,
  arpcKeyFor,
  deriveIccMasterKeys,
  readPinChangeCommand,
  scriptCommandMac,
} from '../protocols/emv-cryptogram-versions';
import { CVM_CODE, CVM_CONDITION, encodeCvmList } from '../protocols/emv-cvm';
import { type ScriptResult, parseIssuerScript } from '../protocols/emv-issuer-script';
import { hexToBytes } from '../protocols/hex';
import { toBcd } from '../protocols/vivotech2';
import { type ChipProfile, SANDBOX_ISSUER_MASTER_KEYS, SANDBOX_PIN, type TestCard } from './test-cards';

/** The terminal's CDOL1 values (Book 2 Table 26 order without the card's 82 and 9F36). */
export type TerminalAcData = Readonly<
  Record<'9F02' | '9F03' | '9F1A' | '95' | '5F2A' | '9A' | '9C' | '9F37', Uint8Array>
>;

/** CDOL1 of every simulated card: exactly the terminal half of Table 26, in its order. */
export const SIMULATED_CDOL1 = '9F02069F03069F1A0295055F2A029A039C019F3704';

/** 9F27 (Book 3 Table 14): the type of cryptogram in bits 8-7. */
export const CID = { aac: 0x00, tc: 0x40, arqc: 0x80 } as const;

/** ARCs (Book 4 Annex A6; ISO 8583 field 39) a card treats as an issuer approval. */
const APPROVING_ARCS = new Set(['00', '08', '10', '11']);

/** CSU byte 2 bit 8 (Book 2 §8.2.2): "issuer approves online transaction". */
const CSU_APPROVES = 0x80;

export type GenerateAcResult = {
  cid: number;
  ac: Uint8Array;
  atc: Uint8Array;
  iad: Uint8Array;
};

export type SimulatedChipCardOptions = {
  /** The card's next ATC; a card's counter only ever goes up. */
  nextAtc: () => number;
  /** Issuer master keys of the card's scheme. Default: the sandbox issuer's. */
  issuerKeys?: MasterKeys;
  /**
   * Where the card keeps its offline PIN between insertions (the simulator's memory): `current` is what
   * it holds, `change` what a PIN change script sets. Default: the profile's PIN, kept by this object.
   */
  offlinePin?: { current(): string; change(pin: string): void };
};

type Transaction = {
  terminal: TerminalAcData;
  atc: Uint8Array;
  arqc: Uint8Array;
  issuerAuth: 'not-performed' | 'passed' | 'failed';
  /** Method 2's card status update, from 91. */
  csu: Uint8Array | undefined;
  scriptCommands: number;
  scriptFailed: boolean;
};

function isoTrack2(card: TestCard): Uint8Array {
  const t2 = `${card.pan}D${card.expiryYYMM}${card.serviceCode}0000000000000`.slice(0, 37);
  return hexToBytes(t2.length % 2 === 0 ? t2 : `${t2}F`);
}

function cn(digits: string): Uint8Array {
  return hexToBytes(digits.length % 2 === 0 ? digits : `${digits}F`);
}

function lastDay(yymm: string): string {
  const d = new Date(Date.UTC(2000 + Number(yymm.slice(0, 2)), Number(yymm.slice(2, 4)), 0));
  return String(d.getUTCDate()).padStart(2, '0');
}

export class SimulatedChipCard {
  readonly card: TestCard;
  readonly profile: ChipProfile;
  readonly version: CryptogramVersion;
  private readonly keys: MasterKeys;
  private readonly nextAtc: () => number;
  private readonly pin: { current(): string; change(pin: string): void };
  private tx: Transaction | undefined;

  constructor(card: TestCard, opts: SimulatedChipCardOptions) {
    if (!card.chip) throw new Error('not a chip card');
    this.card = card;
    this.profile = card.chip;
    this.version = CRYPTOGRAM_VERSIONS[card.chip.cryptogramVersion];
    const scheme = this.version.scheme === 'mastercard' ? 'mastercard' : 'visa';
    this.keys = deriveIccMasterKeys(
      this.version,
      opts.issuerKeys ?? SANDBOX_ISSUER_MASTER_KEYS[scheme],
      card.pan,
      card.chip.panSequenceNumber,
    );
    this.nextAtc = opts.nextAtc;
    let own = card.chip.offlinePin ?? SANDBOX_PIN;
    this.pin = opts.offlinePin ?? {
      current: () => own,
      change: (pin) => {
        own = pin;
      },
    };
  }

  /** AIP (82): cardholder verification, terminal risk management and issuer authentication supported; no ODA. */
  static readonly AIP = hexToBytes('1C00');

  /** What READ RECORD returns (and SELECT's FCI): the card's application data. */
  applicationData(): TlvNode[] {
    const p = this.profile;
    const cvm =
      p.cvm === 'online-pin'
        ? {
            code: CVM_CODE.encipheredPinOnline,
            applyNextIfUnsuccessful: false,
            condition: CVM_CONDITION.always,
          }
        : {
            code: CVM_CODE.signature,
            applyNextIfUnsuccessful: true,
            condition: CVM_CONDITION.ifTerminalSupports,
          };
    return [
      { tag: '84', value: hexToBytes(p.aid) },
      { tag: '4F', value: hexToBytes(p.aid) },
      { tag: '50', value: Uint8Array.from(Buffer.from(p.label, 'ascii')) },
      { tag: '57', value: isoTrack2(this.card) },
      { tag: '5A', value: cn(this.card.pan) },
      { tag: '5F24', value: toBcd(`${this.card.expiryYYMM}${lastDay(this.card.expiryYYMM)}`, 3) },
      { tag: '5F20', value: Uint8Array.from(Buffer.from(this.card.name, 'ascii')) },
      { tag: '5F34', value: toBcd(p.panSequenceNumber, 1) },
      { tag: '5F28', value: toBcd(840, 2) },
      { tag: '82', value: SimulatedChipCard.AIP },
      { tag: '8C', value: hexToBytes(SIMULATED_CDOL1) },
      { tag: '8D', value: hexToBytes(`8A02${SIMULATED_CDOL1}`) },
      {
        tag: '8E',
        value: encodeCvmList({
          amountX: 0,
          amountY: 0,
          rules: [
            cvm,
            {
              code: CVM_CODE.noCvmRequired,
              applyNextIfUnsuccessful: false,
              condition: CVM_CONDITION.ifTerminalSupports,
            },
          ],
        }),
      },
      { tag: '9F07', value: hexToBytes('FF00') },
      { tag: '9F08', value: hexToBytes('0096') },
      // IACs: decline nothing by default, go online on everything (the sandbox authorises every chip sale).
      { tag: '9F0D', value: hexToBytes('0000000000') },
      { tag: '9F0E', value: hexToBytes('0000000000') },
      { tag: '9F0F', value: hexToBytes('FFFFFFFFFF') },
      { tag: '9F42', value: toBcd(840, 2) },
    ];
  }

  /**
   * 1st GENERATE AC asking for an ARQC: the ATC goes up, the ARQC covers the terminal's CDOL1 data, the
   * AIP, the new ATC and the card's data (CVR or the whole 9F10, by CVN).
   */
  firstGenerateAc(terminal: TerminalAcData): GenerateAcResult {
    const atcValue = this.nextAtc() & 0xffff;
    const atc = Uint8Array.of(atcValue >> 8, atcValue & 0xff);
    const tx: Transaction = {
      terminal,
      atc,
      arqc: new Uint8Array(8),
      issuerAuth: 'not-performed',
      csu: undefined,
      scriptCommands: 0,
      scriptFailed: false,
    };
    const iad = this.iad(undefined, tx);
    tx.arqc = this.cryptogram(terminal, atc, iad);
    this.tx = tx;
    return { cid: CID.arqc, ac: tx.arqc, atc, iad };
  }

  /**
   * EXTERNAL AUTHENTICATE (Book 3 §6.5.4): checks the ARPC in 91 against this transaction's ARQC, by the
   * CVN's method and key. The verdict is kept for the 2nd GENERATE AC and reported in the CVR.
   */
  externalAuthenticate(issuerAuthData: Uint8Array): 'passed' | 'failed' {
    const tx = this.current();
    const ok = this.verifyArpc(tx, issuerAuthData);
    tx.issuerAuth = ok ? 'passed' : 'failed';
    tx.csu =
      this.version.arpcMethod === 2 && issuerAuthData.length >= 8 ? issuerAuthData.slice(4, 8) : undefined;
    return tx.issuerAuth;
  }

  /**
   * One issuer script (Book 3 §10.10): each command's MAC is checked under the SM integrity session key;
   * the first bad command stops the script and is reported by its sequence number (Book 4 Annex A5).
   * Commands this card knows: APPLICATION UNBLOCK (84 18), PIN UNBLOCK (84 24 00 00), PIN CHANGE/UNBLOCK
   * with a new PIN (84 24 00 01/02: MAC, then the PIN block deciphered and read; the PIN changes only when
   * all of that holds), PUT DATA (04 DA).
   */
  runScript(node: TlvNode): ScriptResult {
    const tx = this.current();
    const parsed = parseIssuerScript(node);
    if (!parsed.ok) {
      tx.scriptFailed = true;
      return { outcome: 'not-performed', failedCommand: 0, scriptId: parsed.scriptId ?? new Uint8Array(4) };
    }
    const scriptId = parsed.script.scriptId ?? new Uint8Array(4);
    let n = 0;
    for (const command of parsed.script.commands) {
      n += 1;
      if (!this.runCommand(tx, command)) {
        tx.scriptFailed = true;
        return { outcome: 'failed', failedCommand: Math.min(15, n), scriptId };
      }
      tx.scriptCommands += 1;
    }
    return { outcome: 'successful', failedCommand: 0, scriptId };
  }

  private runCommand(tx: Transaction, command: Uint8Array): boolean {
    const header = command.subarray(0, 5);
    if (header[0] === 0x84 && header[1] === 0x24 && (header[3] === 0x01 || header[3] === 0x02)) {
      // P2 01: the new PIN is masked with the current one (Visa), which only the card and issuer know.
      const read = readPinChangeCommand(this.version, this.keys, {
        command,
        atc: tx.atc,
        arqc: tx.arqc,
        currentPin: this.pin.current(),
      });
      if (!read.ok) return false;
      this.pin.change(read.pin);
      return true;
    }
    const known =
      (header[0] === 0x84 && (header[1] === 0x18 || header[1] === 0x24)) ||
      (header[0] === 0x04 && header[1] === 0xda);
    const body = command.subarray(5);
    const mac = body.subarray(body.length - 8);
    return (
      known &&
      body.length >= 8 &&
      Buffer.from(
        scriptCommandMac(
          this.version,
          this.keys.smi,
          header,
          tx.atc,
          tx.arqc,
          body.subarray(0, body.length - 8),
        ),
      ).equals(Buffer.from(mac))
    );
  }

  /**
   * 2nd GENERATE AC (Book 3 §10.9): a TC when the issuer approved online (an approving ARC, and, with
   * ARPC method 2, a CSU that approves) and its ARPC did not fail; an AAC otherwise, and always an AAC
   * from the `declines-after-approval` trigger card or under `forceAac`. Unable to go online: AAC (the
   * sandbox cards' IAC-Default declines).
   */
  secondGenerateAc(arc: Uint8Array | undefined, tvr: Uint8Array, forceAac = false): GenerateAcResult {
    const tx = this.current();
    const csuApproves = tx.csu === undefined || ((tx.csu[1] ?? 0) & CSU_APPROVES) !== 0;
    const approve =
      arc !== undefined &&
      APPROVING_ARCS.has(Buffer.from(arc).toString('latin1')) &&
      tx.issuerAuth !== 'failed' &&
      csuApproves &&
      this.profile.behaviour !== 'declines-after-approval' &&
      !forceAac;
    const cid = approve ? CID.tc : CID.aac;
    const iad = this.iad(approve ? 'tc' : 'aac', tx);
    const ac = this.cryptogram({ ...tx.terminal, '95': tvr }, tx.atc, iad);
    // The transaction stays open: scripts in 72 run after this command (endTransaction closes it).
    return { cid, ac, atc: tx.atc, iad };
  }

  /** Ends the transaction: completed, or abandoned by the terminal (card removed, cancel). */
  endTransaction(): void {
    this.tx = undefined;
  }

  get inTransaction(): boolean {
    return this.tx !== undefined;
  }

  private current(): Transaction {
    if (!this.tx) throw new Error('no transaction in progress on the card');
    return this.tx;
  }

  private cryptogram(terminal: TerminalAcData, atc: Uint8Array, iad: Uint8Array): Uint8Array {
    const tags: AcTransactionData = { ...terminal, '82': SimulatedChipCard.AIP, '9F36': atc };
    return applicationCryptogram(this.version, this.keys.ac, tags, acDataTailFromIad(this.version, iad));
  }

  /**
   * 9F10. CVR byte "cryptogram types" (VIS and M/Chip alike): bits 8-7 the 2nd GENERATE AC's (00 AAC,
   * 01 TC, 10 not requested), bits 6-5 the 1st's (10 ARQC). Then issuer authentication failed, and the
   * number of script commands processed with "script failed". Visa: `06 | DKI 01 | CVN | 03 | CVR(3)`;
   * Mastercard: `KDI 01 | CVN | CVR(6) | DAC 0000 | counters(8)`.
   */
  private iad(second: 'tc' | 'aac' | undefined, tx: Transaction): Uint8Array {
    // The 1st GENERATE AC of a simulated card always returns an ARQC (bits 6-5 = 10).
    const types = (second === undefined ? 0x80 : second === 'tc' ? 0x40 : 0x00) | 0x20;
    const flags = tx.issuerAuth === 'failed' ? 0x80 : 0x00;
    const scripts = (Math.min(15, tx.scriptCommands) << 4) | (tx.scriptFailed ? 0x08 : 0);
    const cvn = this.version.cvn;
    if (this.version.scheme === 'visa') return Uint8Array.of(0x06, 0x01, cvn, 0x03, types, flags, scripts);
    return Uint8Array.of(0x01, cvn, types, flags, scripts, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff);
  }

  private verifyArpc(tx: Transaction, iad91: Uint8Array): boolean {
    const key = arpcKeyFor(this.version, this.keys.ac, tx.atc, tx.terminal['9F37']);
    if (this.version.arpcMethod === 1) {
      if (iad91.length < 10) return false;
      const expected = arpcMethod1(key, tx.arqc, iad91.subarray(8, 10));
      return Buffer.from(expected).equals(Buffer.from(iad91.subarray(0, 8)));
    }
    if (iad91.length < 8 || iad91.length > 16) return false;
    const expected = arpcMethod2(key, tx.arqc, iad91.subarray(4, 8), iad91.subarray(8));
    return Buffer.from(expected).equals(Buffer.from(iad91.subarray(0, 4)));
  }
}
