import { hasValidGs1CheckDigit } from './gs1-check-digit';

/**
 * UPC-E zero suppression (GS1 General Specifications §5.2.2.4.2, "UPC-E ... zero-suppressed GTIN-12"): an
 * eight-digit UPC-E symbol stands for a GTIN-12 whose zeros were left out. The last of its six data digits
 * says where they were:
 *
 *   data d1..d6, last digit 0, 1 or 2 : manufacturer d1 d2 d6 0 0   item 0 0 d3 d4 d5
 *                         3          : manufacturer d1 d2 d3 0 0   item 0 0 0 d4 d5
 *                         4          : manufacturer d1 d2 d3 d4 0  item 0 0 0 0 d5
 *                         5 to 9     : manufacturer d1 .. d5       item 0 0 0 0 d6
 *
 * The number system (first digit) is 0 or 1, and the check digit is the GTIN-12's, so a UPC-E is validated
 * on its expansion.
 */

export type UpcEExpansion = { ok: true; upcA: string } | { ok: false; reason: string };

/** Expands an eight-digit UPC-E (number system, six data digits, check digit) to its twelve-digit UPC-A. */
export function expandUpcE(upcE: string): UpcEExpansion {
  if (!/^\d{8}$/.test(upcE)) return { ok: false, reason: 'a UPC-E code is 8 digits' };
  const ns = upcE[0] as string;
  if (ns !== '0' && ns !== '1') return { ok: false, reason: 'a UPC-E code starts with 0 or 1' };
  const d = upcE.slice(1, 7);
  const check = upcE[7] as string;
  const last = d.charCodeAt(5) - 48;
  let body: string;
  if (last <= 2) body = `${d.slice(0, 2)}${d[5]}0000${d.slice(2, 5)}`;
  else if (last === 3) body = `${d.slice(0, 3)}00000${d.slice(3, 5)}`;
  else if (last === 4) body = `${d.slice(0, 4)}00000${d[4]}`;
  else body = `${d.slice(0, 5)}0000${d[5]}`;
  const upcA = `${ns}${body}${check}`;
  return hasValidGs1CheckDigit(upcA)
    ? { ok: true, upcA }
    : { ok: false, reason: 'the check digit does not match: a misread, scan it again' };
}
