import { Type, type Static } from 'typebox';
import { LANGUAGES } from '../store-locale';
import { Text } from './schema-kit';

/**
 * Emailed receipts (docs/terminal.md "Emailed receipts"): the store's mail server (a manager's settings),
 * the receipt screen's "email it to", and the queue the Offline & queues screen shows. An address is
 * personal data: the bridge carries it in one direction only — typed into `email.receipt` or the test —
 * and every view names it masked (`a***@example.com`).
 */

/**
 * How the terminal talks to the mail server:
 * - `starttls`: STARTTLS is required (usually port 587); the server's certificate must be trusted.
 * - `tls`: TLS from the first byte (usually port 465); the certificate must be trusted.
 * - `none`: no encryption (port 25 on a trusted network); refused with a password unless the server is
 *   on this machine, so a password never crosses a network in clear.
 */
export const EmailSecuritySchema = Type.Enum(['none', 'starttls', 'tls'], {
  problem: 'Security is none, starttls or tls.',
});
export type EmailSecurity = Static<typeof EmailSecuritySchema>;

export type EmailSettingsView = {
  /** A host and a sender address are set: receipts can be queued. */
  configured: boolean;
  host: string;
  port: number;
  security: EmailSecurity;
  user: string;
  /** Write-only: a password is stored (sealed with the terminal's key); it is never read back. */
  passwordSet: boolean;
  senderAddress: string;
  senderName: string;
  /** A certificate the terminal trusts for this server besides the system's (a store's own mail server). */
  trustedCertificate?: { subject: string; validTo: string; fingerprint256: string };
};

export const EmailSettingsUpdateSchema = Type.Object({
  host: Type.Optional(
    Type.String({ maxLength: 253, problem: 'The mail server is a host name or an address.' }),
  ),
  port: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 65535, problem: 'The port is a number from 1 to 65535.' }),
  ),
  security: Type.Optional(EmailSecuritySchema),
  user: Type.Optional(Type.String({ maxLength: 256, problem: 'The user name is at most 256 characters.' })),
  /** Write-only; an empty string removes the stored password. */
  password: Type.Optional(
    Type.String({ maxLength: 256, problem: 'The password is at most 256 characters.' }),
  ),
  senderAddress: Type.Optional(
    Type.String({ maxLength: 254, problem: 'The sender is an email address such as receipts@example.com.' }),
  ),
  senderName: Type.Optional(
    Type.String({ maxLength: 100, problem: 'The sender name is at most 100 characters.' }),
  ),
  /** PEM of a certificate to trust for this server (a self-signed one, or the store's own CA); '' removes it. */
  trustedCertificatePem: Type.Optional(
    Type.String({ maxLength: 20_000, problem: 'The certificate is PEM text (-----BEGIN CERTIFICATE-----).' }),
  ),
});
export type EmailSettingsUpdate = Static<typeof EmailSettingsUpdateSchema>;

export const EmailAddressSchema = Type.String({
  maxLength: 320,
  problem: 'Type the email address (like name@example.com).',
});

/** A test email to `to` through the saved settings, sent now (not queued). */
export const EmailTestRequestSchema = Type.Object({ to: EmailAddressSchema });

export type EmailTestResult = {
  ok: boolean;
  /** In people's words: "Test email sent to a***@example.com." or what the server answered and what to check. */
  message: string;
};

/**
 * The customer copy of a receipt to email: a ticket's (sale), or the receipt of a transaction by its
 * UserTransactionNumber (a sale's tender: its ticket's receipt).
 */
export const EmailReceiptRequestSchema = Type.Object({
  to: EmailAddressSchema,
  ticketId: Type.Optional(Text(64, 'ticketId')),
  userTransactionNumber: Type.Optional(Text(64, 'userTransactionNumber')),
  /**
   * A sale's receipt in this language (the customer display's choice) rather than the store's; the
   * email's words follow the receipt's. A refund's or a void's is the store's.
   */
  language: Type.Optional(
    Type.Enum([...LANGUAGES], { problem: 'A receipt is in English (en) or Spanish (es).' }),
  ),
});
export type EmailReceiptRequest = Static<typeof EmailReceiptRequestSchema>;

export type EmailQueueState = 'queued' | 'sending' | 'sent' | 'failed';

/** What `email.receipt` answers at once: the email is queued (or already was), never sent yet. */
export type EmailReceiptQueuedView = {
  id: number;
  /** `a***@example.com`. */
  to: string;
  state: EmailQueueState;
  /** True when this receipt was already queued or sent to this address: nothing new was queued. */
  duplicate: boolean;
  /** For the screen: "Receipt queued for ana@example.com." (the address as typed, to the one who typed it). */
  message: string;
};

export type EmailQueueItemView = {
  id: number;
  /** Which receipt: "Ticket T-…". */
  receipt: string;
  to: string;
  state: EmailQueueState;
  attempts: number;
  createdAt: number;
  nextAttemptAt?: number;
  /** A waiting email is given up on after this. */
  giveUpAt: number;
  finishedAt?: number;
  lastError?: string;
  /** Retry can send it (a queued or failed email whose address is still kept). */
  retryable: boolean;
};

export type EmailQueueView = {
  /** Waiting to be sent (queued or being sent). */
  waiting: number;
  /** Given up on in the last 7 days. */
  failed: number;
  items: EmailQueueItemView[];
};

export const EmailQueueQuerySchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, problem: 'The limit is 1 to 200.' })),
});

export const EmailRetrySchema = Type.Object({
  id: Type.Integer({ minimum: 1, problem: 'Choose an email to retry.' }),
});
