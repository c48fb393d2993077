/**
 * Where the terminal may send card data. Every gateway request carries the merchant's password, and a sale
 * the PAN, track data or a PIN block: over a network they must be encrypted (PCI DSS 4.2.1, strong
 * cryptography for cardholder data over open, public networks). Plain `http://` is allowed only to this
 * machine — the embedded sandbox gateway, or a gateway behind a local TLS-terminating proxy.
 *
 * The caller parses the address with its platform's WHATWG URL (Node's or the browser's) and hands in
 * `protocol` and `hostname`: that parser has already normalized the tricks (`http://2130706433/` is
 * 127.0.0.1, `http://127.0.0.1@example.com/` is example.com, `[0:0::1]` is `[::1]`).
 */

/** The one sentence both the Gateway screen and the core answer with. */
export const PLAIN_HTTP_REFUSED =
  'A remote gateway must use https:// (PCI DSS 4.2.1: card data and the password never cross a network in clear). ' +
  'Plain http:// is allowed only on this machine: 127.0.0.1 (127.0.0.0/8), ::1 or localhost.';

/** 127.0.0.0/8, ::1 or localhost, as a WHATWG URL's `hostname` writes them. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  if (h === 'localhost' || h === '[::1]' || h === '::1') return true;
  const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return octets !== null && octets.slice(1).every((o) => Number(o) <= 255) && octets[1] === '127';
}

// rule: gateway-address
/** Why the terminal will not talk to a gateway at this address, or undefined when it may. */
export function gatewayAddressProblem(protocol: string, hostname: string): string | undefined {
  if (protocol === 'https:') return undefined;
  if (protocol === 'http:') return isLoopbackHost(hostname) ? undefined : PLAIN_HTTP_REFUSED;
  return 'The gateway address must start with https:// (or http:// on this machine only).';
}
