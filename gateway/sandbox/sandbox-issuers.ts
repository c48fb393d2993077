import { decryptTdesDukptPinBlock } from '../../native/protocols/dukpt-tdes';
import type { Issuers } from '../domain/issuer-port';
import { authorizationNumber } from './sandbox-processor';
import { SANDBOX_BDK, SANDBOX_PIN } from './test-cards';
import {
  GIFT_CARD_MAX_BALANCE_CENTS,
  sandboxBankTriggers,
  sandboxDepositAccount,
  sandboxEbtCards,
  sandboxGiftCards,
} from './tender-test-data';

const giftByPan = new Map(sandboxGiftCards.map((c) => [c.pan, c]));
const ebtByPan = new Map(sandboxEbtCards.map((c) => [c.pan, c]));

/**
 * The sandbox EBT issuer's PIN check: TDES DUKPT under the sandbox BDK, ISO 9564 format 0, the sandbox
 * PIN — the same check the sandbox card processor makes for PIN debit. The PIN never leaves this function.
 */
function ebtPinVerifies(pan: string, pin: { ksn: string; pinBlock: string }): boolean {
  try {
    return (
      decryptTdesDukptPinBlock({ bdk: SANDBOX_BDK, ksn: pin.ksn, pinBlock: pin.pinBlock, pan }) ===
      SANDBOX_PIN
    );
  } catch {
    // A block that does not decrypt to a format-0 PIN is what a wrong key or a forged block looks like.
    return false;
  }
}

/** The sandbox's issuers (domain/issuer-port.ts), with the documented test data of docs/gateway-tenders.md. */
export function createSandboxIssuers(): Issuers {
  return {
    giftCard: (pan) => giftByPan.get(pan),
    giftCardMaxBalanceCents: GIFT_CARD_MAX_BALANCE_CENTS,
    ebtAccount: (pan) => ebtByPan.get(pan),
    ebtPinVerifies,
    authorizationNumber,
    bankVerification: sandboxBankTriggers,
    depositAccount: sandboxDepositAccount,
  };
}
