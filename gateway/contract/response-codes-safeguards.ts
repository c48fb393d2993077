/**
 * ResponseCodes of the money and role safeguards (range 700-719): refusals that keep the books, the
 * processor and stored-value balances consistent against an adversarial cashier, client or network.
 * Rendered with the core catalog.
 */
export const safeguardCodes = {
  CancelWouldOverdrawBalance: 700,
  TipExceedsLimit: 701,
  ForcePostNotSettled: 702,
  CancelInProgress: 703,
} as const;

export const safeguardCatalog: Record<number, { meaning: string; verbiage: string }> = {
  700: {
    verbiage: 'BALANCE WOULD GO NEGATIVE',
    meaning:
      'Voiding or reversing this gift card or EBT credit (a reload, an activation load or a return) would take back value that was already spent: the balance would fall below zero. Nothing was changed.',
  },
  701: {
    verbiage: 'TIP EXCEEDS LIMIT',
    meaning:
      "ClosePreauth's AdditionalTip is larger than the allowed share of what the preauthorization held (20 % unless the gateway is configured otherwise). Nothing was captured.",
  },
  702: {
    verbiage: 'FORCE POST NOT SETTLED',
    meaning:
      'A ForceRetailSale (a voice authorization the processor has not seen) can be refunded only once its batch has settled; until then, void it. Nothing was refunded.',
  },
  703: {
    verbiage: 'CANCEL IN PROGRESS',
    meaning:
      'A void or reversal of this transaction is already at the processor; its outcome decides. Nothing was changed: ask again in a moment.',
  },
};
