import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { emailAddressProblem, normalizeEmailAddress } from '../../common/email-address';
import { isLoopbackHost } from '../../common/gateway-address';
import type { EmailSecurity, EmailSettingsUpdate, EmailSettingsView } from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import type { Journal } from '../journal/journal-protocol';
import type { Sealer } from '../util/key-file';

/**
 * The store's mail server, a manager's settings: kept in the journal's settings table under `email` (one
 * JSON value, like the lane's other settings), the password sealed with the data folder's key as the
 * gateway's is (util/key-file.ts: AES-256-GCM, `terminal.key` owner-only) and never read back over the
 * bridge, never logged, never in the diagnostics bundle (which holds the lane's settings, not these).
 */

export type SealedText = { ciphertext: string; iv: string; tag: string };

export type StoredEmailSettings = {
  host: string;
  port: number;
  security: EmailSecurity;
  user: string;
  sealedPassword?: SealedText;
  senderAddress: string;
  senderName: string;
  /** PEM of a certificate trusted for this server besides the system's (a self-signed or a private CA). */
  trustedCertificatePem?: string;
};

export const defaultEmailSettings: StoredEmailSettings = {
  host: '',
  port: 587,
  security: 'starttls',
  user: '',
  senderAddress: '',
  senderName: '',
};

export type EmailSettings = {
  readonly value: Readonly<StoredEmailSettings>;
  /** A host and a sender address are set. */
  configured(): boolean;
  /** The password, unsealed ('' when none, or when the key file was replaced). */
  password(): string;
  view(): EmailSettingsView;
  /** Checks and saves a change; answers the new view and which fields changed (for the audit). */
  update(patch: EmailSettingsUpdate): Promise<{ view: EmailSettingsView; changed: string[] }>;
};

/** Every string a manager reads from these rules, in one place. */
const WORDS = {
  host: 'The mail server is a host name (mail.example.com) or an address.',
  sender: 'The sender is an email address such as receipts@example.com.',
  senderName: 'The sender name is one line of text.',
  certificate:
    'The certificate is not a PEM certificate (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----).',
  privateKey:
    'That text holds a private key: paste only the certificate, and keep the key on the mail server.',
  plainPassword:
    'A password is sent only encrypted: choose STARTTLS or TLS (without encryption only for a mail server on this machine).',
} as const;

const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

function hostProblem(host: string): string | undefined {
  if (host === '') return undefined;
  return HOST_NAME.test(host) || isIP(host) !== 0 ? undefined : WORDS.host;
}

function certificateOf(pem: string): X509Certificate | undefined {
  try {
    return new X509Certificate(pem);
  } catch {
    return undefined;
  }
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The certificates of pasted PEM text, written back by Node (a chain or a CA bundle keeps every one), or
 * why not. Only certificates are kept: anything else pasted with them is dropped, and a private key is
 * refused outright (it has no business on a till).
 */
function trustedPem(text: string): { pem: string } | { problem: string } {
  if (/PRIVATE KEY-----/.test(text)) return { problem: WORDS.privateKey };
  const certificates = (text.match(PEM_CERTIFICATE) ?? []).map(certificateOf);
  if (certificates.length === 0 || certificates.some((c) => c === undefined))
    return { problem: WORDS.certificate };
  return { pem: certificates.map((c) => (c as X509Certificate).toString().trim()).join('\n') };
}

const PASSWORD_CONTEXT = 'smtp-password';

export async function loadEmailSettings(
  journal: Journal,
  sealer: Sealer,
  now: () => number,
): Promise<EmailSettings> {
  let stored: StoredEmailSettings = { ...defaultEmailSettings };
  const raw = await journal.getSetting('email');
  if (raw !== undefined) {
    try {
      stored = { ...defaultEmailSettings, ...(JSON.parse(raw) as Partial<StoredEmailSettings>) };
    } catch {
      // A value that does not parse is no settings at all: the manager sets them again.
    }
  }

  const seal = (password: string): SealedText => {
    const s = sealer.seal(password, PASSWORD_CONTEXT);
    return {
      ciphertext: Buffer.from(s.ciphertext).toString('base64'),
      iv: Buffer.from(s.iv).toString('base64'),
      tag: Buffer.from(s.tag).toString('base64'),
    };
  };
  const unseal = (s: SealedText): string => {
    try {
      return sealer.open(
        {
          ciphertext: Buffer.from(s.ciphertext, 'base64'),
          iv: Buffer.from(s.iv, 'base64'),
          tag: Buffer.from(s.tag, 'base64'),
        },
        PASSWORD_CONTEXT,
      );
    } catch {
      return '';
    }
  };

  const settings: EmailSettings = {
    get value() {
      return stored;
    },
    configured: () => stored.host !== '' && stored.senderAddress !== '',
    password: () => (stored.sealedPassword ? unseal(stored.sealedPassword) : ''),
    view() {
      const cert = stored.trustedCertificatePem ? certificateOf(stored.trustedCertificatePem) : undefined;
      return {
        configured: settings.configured(),
        host: stored.host,
        port: stored.port,
        security: stored.security,
        user: stored.user,
        passwordSet: settings.password().length > 0,
        senderAddress: stored.senderAddress,
        senderName: stored.senderName,
        ...(cert
          ? {
              trustedCertificate: {
                subject: cert.subject.replace(/\n/g, ', '),
                validTo: new Date(cert.validTo).toISOString(),
                fingerprint256: cert.fingerprint256,
              },
            }
          : {}),
      };
    },
    async update(patch) {
      const next: StoredEmailSettings = { ...stored };
      const changed: string[] = [];
      const problems: string[] = [];
      if (patch.host !== undefined) {
        next.host = patch.host.trim();
        const p = hostProblem(next.host);
        if (p) problems.push(p);
      }
      if (patch.port !== undefined) next.port = patch.port;
      if (patch.security !== undefined) next.security = patch.security;
      if (patch.user !== undefined) next.user = patch.user.trim();
      if (patch.senderAddress !== undefined) {
        const address = patch.senderAddress.trim();
        if (address !== '' && emailAddressProblem(address)) problems.push(WORDS.sender);
        next.senderAddress = address === '' ? '' : normalizeEmailAddress(address);
      }
      if (patch.senderName !== undefined) {
        // A line break in a header field would start another header.
        // eslint-disable-next-line no-control-regex
        if (/[\u0000-\u001f\u007f]/.test(patch.senderName)) problems.push(WORDS.senderName);
        next.senderName = patch.senderName.trim();
      }
      if (patch.trustedCertificatePem !== undefined) {
        const text = patch.trustedCertificatePem.trim();
        const trusted = text === '' ? undefined : trustedPem(text);
        if (trusted === undefined) delete next.trustedCertificatePem;
        else if ('problem' in trusted) problems.push(trusted.problem);
        else next.trustedCertificatePem = trusted.pem;
      }
      let passwordWillBeSet = settings.password().length > 0;
      if (patch.password !== undefined) passwordWillBeSet = patch.password.length > 0;
      if (next.security === 'none' && passwordWillBeSet && next.host !== '' && !isLoopbackHost(next.host))
        problems.push(WORDS.plainPassword);
      if (problems.length > 0) throw new BridgeFailure('invalid', problems.join(' '), { problems });

      if (patch.password !== undefined) {
        if (patch.password.length > 0) next.sealedPassword = seal(patch.password);
        else delete next.sealedPassword;
        changed.push(patch.password.length > 0 ? 'password' : 'password removed');
      }
      for (const key of ['host', 'port', 'security', 'user', 'senderAddress', 'senderName'] as const)
        if (next[key] !== stored[key]) changed.push(key);
      if (next.trustedCertificatePem !== stored.trustedCertificatePem) changed.push('trusted certificate');
      await journal.setSetting('email', JSON.stringify(next), now());
      stored = next;
      return { view: settings.view(), changed };
    },
  };
  return settings;
}
