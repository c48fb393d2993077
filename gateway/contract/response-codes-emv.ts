/**
 * ResponseCodes of the sandbox issuer's chip checks (range 720-729; docs/chip.md). Rendered with the core
 * catalog. Each is a decline: nothing is charged, and the card is told so (8A in EmvData).
 */
export const emvCodes = {
  EmvCryptogramMissing: 720,
  EmvCryptogramInvalid: 721,
  EmvTransactionCounterReplayed: 722,
  EmvAmountMismatch: 723,
  EmvCryptogramVersionUnsupported: 724,
} as const;

export const emvCatalog: Record<number, { meaning: string; verbiage: string }> = {
  720: {
    verbiage: 'DECLINED: NO CRYPTOGRAM',
    meaning:
      'A contact chip read (EmvData 9F39 = 05) lacks its ARQC or the data it covers (9F26, 9F27 = ARQC, 9F10, 9F36, 9F37, 82 and the CDOL1 data).',
  },
  721: {
    verbiage: 'DECLINED: CRYPTOGRAM',
    meaning:
      'The ARQC does not verify under the issuer key: a wrong cryptogram, or EmvData altered after the card signed it.',
  },
  722: {
    verbiage: 'DECLINED: REPLAYED',
    meaning:
      "The card's transaction counter (9F36) is not above the highest the issuer has seen for it: a replayed or stale cryptogram.",
  },
  723: {
    verbiage: 'DECLINED: AMOUNT',
    meaning:
      'The ARQC verifies but the card signed another amount (9F02 / 9F03) than the one charged (the total / CashBackAmount).',
  },
  724: {
    verbiage: 'DECLINED: CHIP NOT SUPPORTED',
    meaning: "The issuer holds no keys for this card's scheme or cryptogram version (9F10).",
  },
};
