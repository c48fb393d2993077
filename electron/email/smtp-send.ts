import { rootCertificates } from 'node:tls';
import { createTransport } from 'nodemailer';
import type { StoredEmailSettings } from './email-settings';
import { smtpFailure, type SmtpFailure } from './smtp-failure';

/**
 * One email through the store's mail server, with nodemailer (its SMTP client: EHLO, STARTTLS, AUTH,
 * pipelining, MIME, punycode domains). One connection per email: a lane sends a few receipts an hour, and
 * a fresh connection picks up changed settings without a pool to drain.
 *
 * TLS is verified as Node verifies it (the system's trust store, the host name): nothing here turns
 * verification off. A store whose own mail server has a self-signed certificate adds that certificate in
 * the settings, and it is trusted beside the system's, for this server only.
 */

export type SmtpTimeouts = {
  /** To open the TCP (and, for implicit TLS, the TLS) connection. */
  connectionMs: number;
  /** For the server's first line once connected. */
  greetingMs: number;
  /** Any later silence of the server. */
  socketMs: number;
};

export const defaultSmtpTimeouts: SmtpTimeouts = {
  connectionMs: 10_000,
  greetingMs: 10_000,
  socketMs: 30_000,
};

export type SmtpMessage = {
  from: { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Fixed per queue row: a retry after a lost answer sends the same Message-ID (RFC 5322 §3.6.4). */
  messageId?: string;
  /** When the email was written (RFC 5322 §3.6.1 "origination date"): the same on every retry. */
  date?: Date;
};

export type SmtpResult = { ok: true; response: string } | ({ ok: false } & SmtpFailure);

export function smtpTransportOptions(
  s: Readonly<StoredEmailSettings>,
  password: string,
  timeouts: SmtpTimeouts,
) {
  return {
    host: s.host,
    port: s.port,
    secure: s.security === 'tls',
    requireTLS: s.security === 'starttls',
    // "none" is no encryption at all: an offered STARTTLS is not taken, so an untrusted certificate on a
    // server the store chose to use in clear does not stop its receipts.
    ignoreTLS: s.security === 'none',
    ...(s.user ? { auth: { user: s.user, pass: password } } : {}),
    tls: {
      minVersion: 'TLSv1.2' as const,
      ...(s.trustedCertificatePem ? { ca: [...rootCertificates, s.trustedCertificatePem] } : {}),
    },
    connectionTimeout: timeouts.connectionMs,
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.socketMs,
    dnsTimeout: timeouts.connectionMs,
    // The library's own logger would print envelopes (addresses): nothing of it reaches the lane's log.
    logger: false,
    debug: false,
  };
}

export async function sendSmtp(
  settings: Readonly<StoredEmailSettings>,
  password: string,
  timeouts: SmtpTimeouts,
  message: SmtpMessage,
  signal?: AbortSignal,
): Promise<SmtpResult> {
  const transport = createTransport(smtpTransportOptions(settings, password, timeouts));
  try {
    const info = await transport.sendMail({
      from: message.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html !== undefined ? { html: message.html } : {}),
      ...(message.messageId !== undefined ? { messageId: message.messageId } : {}),
      ...(message.date !== undefined ? { date: message.date } : {}),
      // RFC 3834: a message a machine sent on someone's request; auto-responders must not answer it.
      headers: { 'Auto-Submitted': 'auto-generated' },
      ...(signal ? { signal } : {}),
    });
    return { ok: true, response: info.response };
  } catch (error) {
    return {
      ok: false,
      ...smtpFailure(error, { host: settings.host, port: settings.port, address: message.to }),
    };
  } finally {
    transport.close();
  }
}
