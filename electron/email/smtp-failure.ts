import { maskEmailAddress } from '../../common/email-address';

/**
 * What a failed SMTP attempt means, for the manager who reads it and for the queue that decides what to
 * do next. The mail library (nodemailer) reports a stable `code` (EAUTH, ETLS, EENVELOPE…), the SMTP
 * `command` in flight, the server's `responseCode` and `response`, and the socket's own code in
 * `originalCode` (ECONNREFUSED, a certificate error…).
 *
 * Permanent — the queue gives up at once — only when the server refused this email itself: the recipient
 * (5yz to RCPT TO: the mailbox does not exist) or the message (5yz after DATA). RFC 5321 §4.2.1 makes
 * every 5yz a permanent failure of that command; a 5yz to AUTH or MAIL FROM is the store's settings (user,
 * password, sender), which a manager fixes and every waiting email then goes, so those are retried until
 * the queue's deadline, like anything the network does.
 */

export type SmtpFailure = {
  permanent: boolean;
  /** The send was stopped by the terminal (it is stopping): the email goes back to the queue untouched. */
  aborted: boolean;
  /** In people's words, with the server's own answer where it gave one (the address masked in it). */
  reason: string;
};

/** The error fields this reads (nodemailer's NodemailerError; anything else reads as "lost"). */
export type SmtpErrorLike = {
  code?: string | undefined;
  command?: string | undefined;
  responseCode?: number | undefined;
  response?: string | undefined;
  permanent?: boolean | undefined;
  originalCode?: string | undefined;
  message?: string | undefined;
};

const WORDS = {
  aborted: 'The terminal stopped before the mail server answered; the email stays queued.',
  auth: (said: string) =>
    `The mail server refused the user name or password (${said}). Check them in Settings.`,
  noAuth: 'The mail server asks for a user name and password. Add them in Settings.',
  noStartTls: (said: string) =>
    `The mail server does not offer STARTTLS (${said}). Check the port, or choose TLS in Settings.`,
  untrusted: (detail: string) =>
    `The mail server’s certificate is not trusted (${detail}). If it is the store’s own server, add its certificate in Settings; otherwise check the server name.`,
  wrongName: (host: string) =>
    `The mail server’s certificate is not for ${host}. Check the server name in Settings.`,
  expired: 'The mail server’s certificate has expired. Ask whoever runs the mail server to renew it.',
  notTls: (port: number) =>
    `The mail server did not answer with TLS on port ${port}. Check the port and the security in Settings (465 is usually TLS, 587 STARTTLS).`,
  refused: (where: string) =>
    `Could not reach the mail server at ${where}: the connection was refused. Check the server and the port, and that it is running.`,
  notFound: (host: string) => `The mail server ${host} was not found. Check its name, or the network.`,
  timedOut: (where: string) => `The mail server at ${where} did not answer in time.`,
  lost: (detail: string) => `The connection to the mail server was lost (${detail}).`,
  recipientRefused: (said: string) => `The mail server refused the address: ${said}`,
  recipientLater: (said: string) => `The mail server cannot take the address right now: ${said}`,
  senderRefused: (said: string) =>
    `The mail server refused the sender address (${said}). Check it in Settings.`,
  messageRefused: (said: string) => `The mail server refused the email: ${said}`,
  messageLater: (said: string) => `The mail server cannot take the email right now: ${said}`,
  other: (said: string) => `The mail server said: ${said}`,
} as const;

const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

/** The server's answer, short, with the recipient's address masked (a server often echoes it). */
function said(e: SmtpErrorLike, address: string | undefined): string {
  let text = (e.response ?? e.message ?? 'no answer').replace(/\s+/g, ' ').trim();
  if (address) {
    const pattern = new RegExp(address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
    text = text.replace(pattern, maskEmailAddress(address));
  }
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

export function smtpFailure(
  error: unknown,
  where: { host: string; port: number; address?: string | undefined },
): SmtpFailure {
  const e: SmtpErrorLike = typeof error === 'object' && error !== null ? error : {};
  const at = `${where.host}:${where.port}`;
  const answer = said(e, where.address);
  const transient = (reason: string): SmtpFailure => ({ permanent: false, aborted: false, reason });
  const command = (e.command ?? '').toUpperCase();
  const original = e.originalCode ?? '';

  if (e.code === 'EABORT') return { permanent: false, aborted: true, reason: WORDS.aborted };
  if (e.code === 'EAUTH') return transient(WORDS.auth(answer));
  if (e.code === 'ENOAUTH') return transient(WORDS.noAuth);
  if (command === 'STARTTLS' && e.responseCode !== undefined) return transient(WORDS.noStartTls(answer));
  if (CERTIFICATE_CODES.has(original) || /self[- ]signed|unable to verify/i.test(e.message ?? ''))
    return transient(WORDS.untrusted(e.message ?? original));
  if (original === 'ERR_TLS_CERT_ALTNAME_INVALID') return transient(WORDS.wrongName(where.host));
  if (original === 'CERT_HAS_EXPIRED') return transient(WORDS.expired);
  if (original === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number/i.test(e.message ?? ''))
    return transient(WORDS.notTls(where.port));
  if (original === 'ECONNREFUSED') return transient(WORDS.refused(at));
  if (e.code === 'EDNS') return transient(WORDS.notFound(where.host));
  if (e.code === 'ETIMEDOUT') return transient(WORDS.timedOut(at));
  if (command.startsWith('RCPT'))
    return e.permanent
      ? { permanent: true, aborted: false, reason: WORDS.recipientRefused(answer) }
      : transient(WORDS.recipientLater(answer));
  if (command.startsWith('MAIL')) return transient(WORDS.senderRefused(answer));
  if (command === 'DATA' && e.responseCode !== undefined)
    return e.permanent
      ? { permanent: true, aborted: false, reason: WORDS.messageRefused(answer) }
      : transient(WORDS.messageLater(answer));
  if (e.code === 'ESOCKET' || e.code === 'ECONNECTION' || e.code === 'ETLS')
    return transient(WORDS.lost(original || answer));
  return transient(WORDS.other(answer));
}
