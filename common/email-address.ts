/**
 * A customer's email address for an emailed receipt: the one rule the receipt screen checks as it is typed
 * and the core checks before anything is queued.
 *
 * The shape is RFC 5322's addr-spec in its dot-atom form (§3.4.1, §3.2.3) within RFC 5321's limits (a
 * local part of at most 64 octets, §4.5.3.1.1; a path of at most 256 with its angle brackets, so 254 for
 * the address, §4.5.3.1.3; a domain label of at most 63, RFC 1035 §2.3.4). Deliberately narrower than the
 * RFCs where a counter has no use for the rest: no quoted local part, no comments, no address literal
 * (`[127.0.0.1]`), no single-label domain, and an ASCII local part (a non-ASCII one needs SMTPUTF8 from
 * every server on the way). A domain may be internationalized; the mail library sends it as punycode.
 * One address only: a comma, a space or a line break is refused, so nothing typed here can add a recipient
 * or a header.
 */

export const EMAIL_ADDRESS_PROBLEM =
  'That is not an email address. Check it with the customer: it looks like name@example.com.';

const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LOCAL = new RegExp(`^${ATEXT}(?:\\.${ATEXT})*$`);
// A label of letters (any script), digits and hyphens, not starting or ending with a hyphen.
const LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;
const TOP_LABEL = /^(?:[\p{L}]{2,63}|xn--[a-z0-9-]{1,59})$/iu;

/** The address as it is sent: trimmed, its domain in lower case (domains are case-blind; local parts, by the letter of RFC 5321, are not). */
export function normalizeEmailAddress(text: string): string {
  const t = text.trim();
  const at = t.lastIndexOf('@');
  return at < 0 ? t : `${t.slice(0, at)}@${t.slice(at + 1).toLowerCase()}`;
}

/** Why this is no address to send a receipt to, or undefined when it is one. */
export function emailAddressProblem(text: string): string | undefined {
  const address = normalizeEmailAddress(text);
  if (address.length === 0 || address.length > 254) return EMAIL_ADDRESS_PROBLEM;
  const parts = address.split('@');
  if (parts.length !== 2) return EMAIL_ADDRESS_PROBLEM;
  const [local = '', domain = ''] = parts;
  if (local.length === 0 || local.length > 64 || !LOCAL.test(local)) return EMAIL_ADDRESS_PROBLEM;
  const labels = domain.split('.');
  if (labels.length < 2 || domain.length > 253) return EMAIL_ADDRESS_PROBLEM;
  if (!labels.every((l) => LABEL.test(l))) return EMAIL_ADDRESS_PROBLEM;
  // The last label names a top-level domain: letters, or an IDN one in punycode; never all digits (an IP).
  if (!TOP_LABEL.test(labels[labels.length - 1] ?? '')) return EMAIL_ADDRESS_PROBLEM;
  return undefined;
}

/**
 * The address as people other than its owner see it — the manager's queue, the log: its first character
 * and its domain (`a***@example.com`), enough to spot a mistyped domain, not enough to write to.
 */
export function maskEmailAddress(text: string): string {
  const address = normalizeEmailAddress(text);
  const at = address.lastIndexOf('@');
  if (at < 1 || emailAddressProblem(address)) return '***';
  return `${address.slice(0, 1)}***${address.slice(at)}`;
}

/**
 * What makes two typed addresses the same mailbox for "one email per receipt and address": case-blind as
 * every mail provider a customer uses is, and without the spaces a finger adds.
 */
export function emailIdentity(text: string): string {
  return normalizeEmailAddress(text).toLowerCase();
}
