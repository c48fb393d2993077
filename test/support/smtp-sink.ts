import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on loopback for the emailed-receipt tests (smtp-server, the mail library's own
 * server side), keeping every message it accepts as raw bytes and as mailparser reads it.
 */

export type ReceivedEmail = {
  from: string;
  to: string[];
  /** The session was encrypted (STARTTLS or implicit TLS) when the message was sent. */
  secure: boolean;
  user?: string;
  raw: string;
  parsed: ParsedMail;
};

export type SmtpSinkOptions = {
  /** A fixed port (a server "coming back" on the address the lane knows); 0 picks a free one. */
  port?: number;
  /** Offer STARTTLS with this key and certificate (or, with `implicitTls`, speak TLS from the start). */
  tls?: { key: string; cert: string };
  implicitTls?: boolean;
  /** Require AUTH with these credentials. */
  auth?: { user: string; pass: string };
  /** An SMTP reply code to refuse a recipient with (e.g. 550), by address. */
  refuseRecipient?: (address: string) => number | undefined;
  /**
   * Keep the first message (it counts as received) but hold its "250 OK" this long: a client whose wait
   * is shorter never hears that it was taken — an answer lost after the final ".".
   */
  holdFirstAnswerMs?: number;
};

export type SmtpSink = {
  port: number;
  messages: ReceivedEmail[];
  /** Resolves once `count` messages arrived (throws at the deadline). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedEmail[]>;
  close(): Promise<void>;
};

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: ReceivedEmail[] = [];
  const held: NodeJS.Timeout[] = [];
  const server = new SMTPServer({
    secure: options.implicitTls === true,
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : { disabledCommands: ['STARTTLS'] }),
    authOptional: !options.auth,
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass)
        callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      const code = options.refuseRecipient?.(address.address);
      if (code === undefined) return callback();
      const error = new Error(`Mailbox unavailable: ${address.address}`) as Error & { responseCode: number };
      error.responseCode = code;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (parsed) => {
            const mailFrom = session.envelope.mailFrom;
            messages.push({
              from: mailFrom ? mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              secure: session.secure,
              ...(typeof session.user === 'string' ? { user: session.user } : {}),
              raw,
              parsed,
            });
            if (messages.length === 1 && options.holdFirstAnswerMs !== undefined)
              held.push(setTimeout(() => callback(), options.holdFirstAnswerMs));
            else callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    messages,
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline)
          throw new Error(`expected ${count} email(s) at the SMTP server, got ${messages.length}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return messages;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of held) clearTimeout(t);
        server.close(() => resolve());
      }),
  };
}

/** A mail server that accepts connections and never says a word (the greeting never comes). */
export async function startSilentSmtp(): Promise<{
  port: number;
  /** Connections accepted and still open. */
  open(): number;
  close(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    open: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nobody listens on right now (taken from the OS, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/**
 * A self-signed certificate for 127.0.0.1 and localhost, made for the run by openssl (present wherever
 * Node's own tests run; `.ci/run`'s Debian has it): a mail server a store runs itself, whose certificate
 * no public authority signed.
 */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tillpoint-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=tillpoint-test-mail',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'pipe' },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
