/**
 * An address worth sending a receipt to: one `@`, something before it, a dotted domain after it, no
 * spaces, at most 254 characters (RFC 5321's path limit). Deliverability is the mail server's to say; this
 * only stops a typo the customer can still see. The customer display checks as it is typed, the core
 * before it queues.
 */
export function emailAddressProblem(address: string): string | undefined {
  const a = address.trim();
  if (a.length === 0) return 'Type the email address.';
  if (a.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(a)) return 'Check the email address.';
  return undefined;
}
