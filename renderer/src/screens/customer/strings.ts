import type {
  CustomerOutcomeView,
  CustomerPromptStep,
  CustomerReceiptChoiceView,
} from '../../../../electron/bridge/contract';

/**
 * Every word the customer display shows, in one place: the display's language may differ from the
 * cashier's, and these move to the translation catalogs as they stand. Money arrives formatted.
 */
export const customerText = {
  welcome: 'Welcome',
  yourOrder: 'Your order',
  subtotal: 'Subtotal',
  tax: 'Tax',
  tip: 'Tip',
  total: 'Total',
  paid: 'Paid',
  due: 'Still to pay',
  each: (price: string) => `${price} each`,
  discount: (amount: string) => `Discount ${amount}`,
  ringing: 'Your items appear here as they are rung up.',

  tipTitle: 'Add a tip?',
  tipFor: (subtotal: string) => `Tips are on ${subtotal} before tax.`,
  tipPreset: (percent: number) => `${percent}%`,
  customTip: 'Custom amount',
  noTip: 'No tip',
  customTitle: 'Enter a tip',
  customKeypad: 'Tip keypad',
  customUpTo: (max: string) => `Up to ${max}.`,
  customTooHigh: (max: string) => `That is more than this sale allows: at most ${max}.`,
  addTip: (amount: string) => `Add ${amount} tip`,
  back: 'Back',
  newTotal: (total: string) => `Total with tip: ${total}`,

  signTitle: 'Please sign',
  signFor: (amount: string) => `Sign below to approve ${amount}.`,
  signBox: 'Signature box: sign with your finger or the mouse',
  signClear: 'Clear',
  signDone: 'Done',

  receiptTitle: 'Would you like a receipt?',
  print: 'Print',
  email: 'Email',
  noReceipt: 'No receipt',
  emailNotSetUp: 'Email receipts are not set up here. Choose Print or No receipt.',
  emailTitle: 'Your email address',
  emailKeyboard: 'Email keyboard',
  emailSend: 'Send receipt',
  emailDelete: 'Delete',
  emailCancel: 'Cancel',
  thankYou: 'Thank you',
  comeAgain: 'Please come again.',

  somethingWrong: 'That did not go through. Please ask the cashier.',
  connecting: 'Connecting to the register…',
} as const;

/** What the customer is asked to do while the card is read and the payment approved. */
export const promptText: Record<CustomerPromptStep, string> = {
  'present-card': 'Insert, tap or swipe your card',
  'reading-card': 'Reading your card…',
  pin: 'Enter your PIN on the PIN pad',
  wait: 'Please wait…',
  'remove-card': 'Please remove your card',
  sign: 'Please sign',
};

export const outcomeText: Record<CustomerOutcomeView['kind'], string> = {
  approved: 'Approved',
  partial: 'Partly approved',
  declined: 'Not approved',
  cancelled: 'Payment cancelled',
  wait: 'Please wait for the cashier',
  cash: 'Cash received',
  offline: 'Card payments are unavailable right now',
  reversed: 'Payment cancelled',
};

export const outcomeDetail = {
  partial: (approved: string) => `${approved} was approved. Please pay the rest another way.`,
  declined: 'Please try another card or ask the cashier.',
  change: (change: string) => `Your change: ${change}`,
  card: (brand: string, last4: string | undefined) => (last4 ? `${brand} •••• ${last4}` : brand),
  anyCard: 'Card',
} as const;

export const receiptResultText: Record<CustomerReceiptChoiceView['result'], string> = {
  printed: 'Your receipt is printing.',
  'not-printed': 'The receipt could not be printed. Please ask the cashier.',
  'email-queued': 'Your receipt is on its way to your inbox.',
  'email-failed': 'The receipt could not be sent. Please ask the cashier.',
  'email-not-set-up': 'Email receipts are not set up here.',
  none: 'No receipt.',
};
