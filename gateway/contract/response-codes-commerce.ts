/**
 * ResponseCodes of the commerce groups (range 600-649). Rendered with the core catalog; a number never
 * changes meaning once shipped. Conditions the core catalog already names (404 unknown id, 506 bad amount,
 * 400 bad field, 403 another merchant's id, 426 already exists) keep the core number.
 */
export const commerceCodes = {
  PaymentLinkPaid: 600,
  PaymentLinkDisabled: 601,
  PaymentLinkBusy: 602,
  ScheduleNotAllowed: 603,
  InvalidFrequency: 604,
  InvalidSchedule: 605,
  BillingInactive: 606,
  InvalidSignature: 607,
  SignatureTooLarge: 608,
  PaymentMethodNotOffered: 609,
} as const;

type CatalogEntry = { meaning: string; verbiage: string };

export const commerceCatalog: Record<(typeof commerceCodes)[keyof typeof commerceCodes], CatalogEntry> = {
  600: {
    verbiage: 'LINK ALREADY PAID',
    meaning: 'The payment link is Paid: it cannot be paid again or edited.',
  },
  601: {
    verbiage: 'LINK DISABLED',
    meaning: 'The payment link is disabled: enable it before it can be paid.',
  },
  602: {
    verbiage: 'LINK PAYMENT IN PROGRESS',
    meaning: 'A payment of this link is in progress; try again once it has finished.',
  },
  603: {
    verbiage: 'SCHEDULE NOT ALLOWED',
    meaning:
      "The payment schedule (Single, Recurring, Installment) is not one the link's AllowedPaymentSchedule allows.",
  },
  604: {
    verbiage: 'INVALID FREQUENCY',
    meaning: 'FrequencyId is missing or not in the FrequencyId table (1 daily … 7 annual).',
  },
  605: {
    verbiage: 'INVALID SCHEDULE',
    meaning:
      'The dates or counts of a schedule do not fit: StartDate in the past, EndDate before StartDate, InstallmentTotal out of range, or a start that can no longer change.',
  },
  606: {
    verbiage: 'BILLING INACTIVE',
    meaning: 'The recurring billing is deactivated, completed or suspended.',
  },
  607: {
    verbiage: 'INVALID SIGNATURE',
    meaning:
      'SignatureData is not a valid PNG (base64, signature and IHDR checked) or a safe SVG (no script, no event handler, no external reference).',
  },
  608: {
    verbiage: 'SIGNATURE TOO LARGE',
    meaning: 'The decoded signature exceeds 256 KiB, or its image exceeds 4096×4096 pixels.',
  },
  609: {
    verbiage: 'PAYMENT METHOD NOT OFFERED',
    meaning: "The link's ForcedPaymentMethod is not a card: the hosted checkout takes credit cards only.",
  },
};
