/**
 * ResponseCodes of the money and role safeguards (range 700-719): refusals that keep the books, the
 * processor and stored-value balances consistent against an adversarial cashier, client or network.
 * Rendered with the core catalog. Refusals the real service's catalog names answer its numbers instead, as
 * its clients act on them: a cancel of spent gift/EBT value is "void impossible" (7), a refund of a force
 * post before its batch settled is "refund impossible" (6, whose clients then void: the right way back).
 */
export const safeguardCodes = {
  TipExceedsLimit: 701,
  CancelInProgress: 703,
} as const;

export const safeguardCatalog: Record<number, { meaning: string; verbiage: string }> = {
  701: {
    verbiage: 'TIP EXCEEDS LIMIT',
    meaning:
      "ClosePreauth's AdditionalTip is larger than the allowed share of what the preauthorization held (20 % unless the gateway is configured otherwise). Nothing was captured.",
  },
  703: {
    verbiage: 'CANCEL IN PROGRESS',
    meaning:
      'A void or reversal of this transaction is already at the processor; its outcome decides. Nothing was changed: ask again in a moment.',
  },
};
