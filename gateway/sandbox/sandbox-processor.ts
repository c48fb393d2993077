import { randomInt } from 'node:crypto';
import { decryptTdesDukptPinBlock } from '../../native/protocols/dukpt-tdes';
import { ResponseCode } from '../contract/response-codes';
import { DeclineCode } from '../contract/decline-codes';
import { type AtcRegister, memoryAtcRegister } from './atc-register';
import { type ChipRefusal, type VerifiedArqc, arcOnly, checkChipCryptogram } from './emv-issuer';
import type {
  AuthorizationRequest,
  AuthorizationResult,
  AvsResult,
  CvnResult,
  Processor,
} from '../domain/processor-port';
import {
  AVS_FAIL_STREET_PREFIX,
  AVS_FAIL_ZIP,
  SANDBOX_BDK,
  SANDBOX_PIN,
  sandboxBehaviour,
  issuerScriptsOf,
} from './test-cards';

export type SandboxProcessorOptions = {
  /** Delay of the "slow processor" test card. */
  slowMs: number;
  /** Delay of every authorization, to mimic a network hop (0 in tests and benchmarks). */
  latencyMs: number;
};

const AUTH_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** Six characters, as issuers return them; no I/O/0-confusable letters. */
export function authorizationNumber(): string {
  let s = '';
  for (let i = 0; i < 6; i += 1) s += AUTH_ALPHABET[randomInt(AUTH_ALPHABET.length)];
  return s;
}

function avsOf(req: AuthorizationRequest): AvsResult {
  const { street, zip } = req.card;
  if (street === undefined && zip === undefined) return 'U';
  const zipOk = zip === undefined ? null : zip.trim() !== AVS_FAIL_ZIP;
  const streetOk = street === undefined ? null : !street.trim().startsWith(AVS_FAIL_STREET_PREFIX);
  if (zipOk !== false && streetOk !== false) return 'Y';
  if (zipOk === false && streetOk === false) return 'N';
  return zipOk === false ? 'A' : 'Z';
}

function expired(expiryYYMM: string, now: Date): boolean {
  const yy = Number(expiryYYMM.slice(0, 2));
  const mm = Number(expiryYYMM.slice(2, 4));
  const year = 2000 + yy;
  const nowYear = now.getUTCFullYear();
  const nowMonth = now.getUTCMonth() + 1;
  return year < nowYear || (year === nowYear && mm < nowMonth);
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const REFUSAL: Readonly<Record<ChipRefusal, { code: number; message: string }>> = {
  'cryptogram-missing': {
    code: DeclineCode.EmvCryptogramMissing,
    message: 'Chip data without its cryptogram (ARQC) or the data it covers',
  },
  'cryptogram-invalid': {
    code: DeclineCode.EmvCryptogramInvalid,
    message: 'The chip cryptogram does not verify',
  },
  'amount-mismatch': {
    code: DeclineCode.EmvAmountMismatch,
    message: 'The chip cryptogram covers another amount than the one charged',
  },
  'cryptogram-version-unsupported': {
    code: DeclineCode.EmvCryptogramVersionUnsupported,
    message: "The issuer has no keys for this chip card's cryptogram version",
  },
};

/** The scripts an approval carries for the card (test-cards.ts): the pair, or a PIN change to the sandbox PIN. */
function scriptsFor(pan: string): { scripts?: boolean; pinChange?: string } {
  const scripts = issuerScriptsOf(pan);
  if (scripts === 'put-data-and-unblock') return { scripts: true };
  if (scripts === 'pin-change') return { pinChange: SANDBOX_PIN };
  return {};
}

/** 8A for a decline (ISO 8583 field 39 values the card understands: Book 4 Annex A6). */
function declineArc(code: number): string {
  if (code === DeclineCode.InsufficientFunds) return '51';
  if (code === DeclineCode.ExpiredCard) return '54';
  if (code === DeclineCode.IncorrectPin) return '55';
  return '05';
}

/**
 * The simulated issuer and acquirer: test cards decide the outcome (test-cards.ts), PIN blocks are
 * decrypted with the sandbox BDK by TDES DUKPT and must hold the sandbox PIN.
 */
export function createSandboxProcessor(
  options: SandboxProcessorOptions = { slowMs: 3_000, latencyMs: 0 },
  now: () => Date = () => new Date(),
  /** Where the issuer remembers each chip card's highest ATC; the gateway passes its database's. */
  atcRegister: AtcRegister = memoryAtcRegister(),
): Processor {
  return {
    name: 'sandbox',
    supportsTokenLookup: true,
    async authorize(req): Promise<AuthorizationResult> {
      if (options.latencyMs > 0) await sleep(options.latencyMs);
      const behaviour = sandboxBehaviour(req.card.pan);
      const avs = avsOf(req);
      const cvn: CvnResult = req.card.cvn === undefined ? 'P' : behaviour.kind === 'cvn-fail' ? 'N' : 'M';
      let chip: VerifiedArqc | undefined;
      // A contact chip read gets the issuer's answer for its card; a tapped card has left the field.
      let contactChip = false;
      const decline = (code: number, message: string): AuthorizationResult => {
        const out: AuthorizationResult = { approved: false, code, message, avs, cvn };
        // A verified ARQC gets an ARPC with the decline, so the card can authenticate it (Book 2 §8.2).
        if (contactChip) out.issuerEmvData = chip ? chip.answer(declineArc(code)) : arcOnly(declineArc(code));
        return out;
      };

      if (behaviour.kind === 'slow') await sleep(options.slowMs);
      if (behaviour.kind === 'unavailable') {
        const down: AuthorizationResult = {
          approved: false,
          code: ResponseCode.ProcessorUnavailable,
          message: 'Processor unavailable (sandbox trigger card)',
          avs,
          cvn,
        };
        return down;
      }
      if (req.emv) {
        // docs/chip.md: every EmvData — a contact read, a tap, or one without 9F39 — carries the card's
        // ARQC, checked the same way.
        const check = checkChipCryptogram(req.emv.tlvHex, req.card.pan, {
          totalCents: req.totalCents,
          cashbackCents: req.cashbackCents,
        });
        contactChip = check.contact;
        if (check.kind === 'refused')
          return decline(REFUSAL[check.reason].code, REFUSAL[check.reason].message);
        const fresh = await atcRegister.advance(
          { pan: check.arqc.pan, panSequenceNumber: check.arqc.panSequenceNumber },
          check.arqc.atc,
        );
        if (!fresh)
          return decline(
            DeclineCode.EmvTransactionCounterReplayed,
            'The chip transaction counter was already used: a replayed or stale cryptogram',
          );
        chip = check.arqc;
      }
      if (req.pin) {
        let pin: string;
        try {
          pin = decryptTdesDukptPinBlock({
            bdk: SANDBOX_BDK,
            ksn: req.pin.ksn,
            pinBlock: req.pin.pinBlock,
            pan: req.card.pan,
          });
        } catch {
          return decline(DeclineCode.IncorrectPin, 'PIN block does not verify');
        }
        if (pin !== SANDBOX_PIN) return decline(DeclineCode.IncorrectPin, 'Incorrect PIN');
      }
      if (behaviour.kind === 'decline') return decline(behaviour.code, behaviour.message);
      if (expired(req.card.expiryYYMM, now())) return decline(DeclineCode.ExpiredCard, 'Expired card');
      if (cvn === 'N') return decline(DeclineCode.CvnMismatch, 'CVN does not match');
      if (behaviour.kind === 'partial' && req.totalCents > behaviour.availableCents) {
        if (!req.allowPartial || req.cashbackCents > 0) {
          return decline(DeclineCode.InsufficientFunds, 'Insufficient funds');
        }
        const partial: AuthorizationResult = {
          approved: true,
          approvedCents: behaviour.availableCents,
          authCode: authorizationNumber(),
          avs,
          cvn,
          message: 'Partially approved',
          balanceCents: 0,
        };
        // ARC 10: partial approval (ISO 8583), an approval to the card.
        if (chip && contactChip) partial.issuerEmvData = chip.answer('10');
        return partial;
      }
      const approved: AuthorizationResult = {
        approved: true,
        approvedCents: req.totalCents,
        authCode: authorizationNumber(),
        avs,
        cvn,
        message: 'Approved',
      };
      if (chip && contactChip) approved.issuerEmvData = chip.answer('00', scriptsFor(req.card.pan));
      return approved;
    },
    reverse() {
      return Promise.resolve();
    },
    refund() {
      return Promise.resolve({ ok: true as const });
    },
    reverseRefund() {
      return Promise.resolve({ ok: true as const });
    },
    capture(req) {
      // The sandbox acquirer takes any completion of a positive amount; the gateway bounds the tip.
      if (req.amountCents <= 0) {
        return Promise.resolve({
          ok: false as const,
          code: ResponseCode.InvalidAmount,
          message: 'A capture must be positive',
        });
      }
      return Promise.resolve({ ok: true as const });
    },
  };
}
