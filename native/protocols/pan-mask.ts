/**
 * PAN truncation for display, receipts and logs: PCI DSS 3.4 allows at most the first six and last four
 * digits to be shown.
 */

const MASK = '*';

// rule: card-data-masking
/** `411111******1111`; PANs under 13 digits show only the last four, as their first six would be most of them. */
export function maskPan(pan: string): string {
  const digits = pan.replace(/[ -]/g, '');
  if (digits.length <= 4) return MASK.repeat(digits.length);
  if (digits.length < 13) return MASK.repeat(digits.length - 4) + digits.slice(-4);
  return digits.slice(0, 6) + MASK.repeat(digits.length - 10) + digits.slice(-4);
}

/** The last four digits (fewer when the PAN is shorter). */
export function lastFour(pan: string): string {
  return pan.replace(/[ -]/g, '').slice(-4);
}

// 12 or more digits, each optionally followed by one space or dash, not touching other digits. Runs longer
// than a PAN (19) are masked too: a hex dump or a concatenated field can hold a PAN inside a longer run.
const CARD_RUN = /(?<!\d)\d(?:[ -]?\d){11,}(?!\d)/g;

/**
 * Masks every run of 12 or more digits (spaces or dashes allowed between digits) in free text as
 * {@link maskPan} does, for loggers and replay recorders. Over-masks order numbers and epoch-millisecond
 * timestamps on purpose: a log line that loses a reference number is cheaper than one that leaks a PAN.
 */
export function maskCardData(text: string): string {
  return text.replace(CARD_RUN, maskPan);
}
