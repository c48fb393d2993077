import { randomInt } from 'node:crypto';
import { decryptTdesDukptPinBlock } from '../../native/protocols/dukpt-tdes';
import { ResponseCode } from '../contract/response-codes';
import type { AuthorizationRequest, AuthorizationResult, AvsResult, CvnResult, Processor } from './processor';
import {
  AVS_FAIL_STREET_PREFIX,
  AVS_FAIL_ZIP,
  SANDBOX_BDK,
  SANDBOX_PIN,
  sandboxBehaviour,
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

/**
 * The simulated issuer and acquirer: test cards decide the outcome (test-cards.ts), PIN blocks are
 * decrypted with the sandbox BDK by TDES DUKPT and must hold the sandbox PIN.
 */
export function createSandboxProcessor(
  options: SandboxProcessorOptions = { slowMs: 3_000, latencyMs: 0 },
  now: () => Date = () => new Date(),
): Processor {
  return {
    name: 'sandbox',
    supportsTokenLookup: true,
    async authorize(req): Promise<AuthorizationResult> {
      if (options.latencyMs > 0) await sleep(options.latencyMs);
      const behaviour = sandboxBehaviour(req.card.pan);
      const avs = avsOf(req);
      const cvn: CvnResult = req.card.cvn === undefined ? 'P' : behaviour.kind === 'cvn-fail' ? 'N' : 'M';
      const decline = (code: number, message: string): AuthorizationResult => ({
        approved: false,
        code,
        message,
        avs,
        cvn,
      });

      if (behaviour.kind === 'slow') await sleep(options.slowMs);
      if (behaviour.kind === 'unavailable') {
        return decline(ResponseCode.ProcessorUnavailable, 'Processor unavailable (sandbox trigger card)');
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
          return decline(ResponseCode.IncorrectPin, 'PIN block does not verify');
        }
        if (pin !== SANDBOX_PIN) return decline(ResponseCode.IncorrectPin, 'Incorrect PIN');
      }
      if (behaviour.kind === 'decline') return decline(behaviour.code, behaviour.message);
      if (expired(req.card.expiryYYMM, now())) return decline(ResponseCode.ExpiredCard, 'Expired card');
      if (cvn === 'N') return decline(ResponseCode.CvnMismatch, 'CVN does not match');
      if (behaviour.kind === 'partial' && req.totalCents > behaviour.availableCents) {
        if (!req.allowPartial || req.cashbackCents > 0) {
          return decline(ResponseCode.InsufficientFunds, 'Insufficient funds');
        }
        return {
          approved: true,
          approvedCents: behaviour.availableCents,
          authCode: authorizationNumber(),
          avs,
          cvn,
          message: 'Partially approved',
          balanceCents: 0,
        };
      }
      return {
        approved: true,
        approvedCents: req.totalCents,
        authCode: authorizationNumber(),
        avs,
        cvn,
        message: 'Approved',
      };
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
