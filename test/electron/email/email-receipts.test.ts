import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bridge, EmailSettingsUpdate } from '../../../common/bridge/contract';
import type { TerminalCoreConfig } from '../../../electron/core/config';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import {
  freePort,
  selfSignedCertificate,
  startSilentSmtp,
  startSmtpSink,
  type SmtpSink,
} from '../../support/smtp-sink';
import { eventually, openTill, startLane, value, type Lane } from '../helpers';

/**
 * Emailed receipts end to end in the core: a real SMTP server on loopback (smtp-server) receives what the
 * terminal's sender (nodemailer) delivers, and mailparser reads it. The store's time zone is the
 * merchant's at the gateway (the sandbox's merchant 1001 is in New York); this machine says Chicago, which
 * must not show.
 */
process.env.TZ = 'America/Chicago';

/** 2026-11-24 15:05 UTC is 10:05 AM in New York (EST), 9:05 AM in Chicago. */
const SALE_INSTANT = Date.UTC(2026, 10, 24, 15, 5, 0);
const started = Date.now();
const clock = { now: () => SALE_INSTANT + (Date.now() - started) };

/** Fast enough for a test to watch it retry and give up; the shape is the production rule's. */
const fastEmail: NonNullable<TerminalCoreConfig['email']> = {
  backoff: { initialMs: 150, maxMs: 600, multiplier: 2, jitter: 0.2 },
  timeouts: { connectionMs: 1_000, greetingMs: 1_000, socketMs: 2_000 },
  idleMs: 200,
};

const SENDER = 'receipts@corner-shop.example';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ sandboxSlowMs: 400 });
});
afterAll(async () => {
  await gw.close();
});

async function lane(over: Partial<TerminalCoreConfig> = {}, dataDir?: string): Promise<Lane> {
  const started = await startLane({
    gateway: gw,
    signIn: '9999',
    ...(dataDir ? { dataDir } : {}),
    core: { clock, merchantName: 'CORNER SHOP', email: fastEmail, ...over },
  });
  // Cash goes through a till; a lane restarted on its folder finds its till still in the drawer.
  if (value(await started.bridge.send('till.status', {})).active === null) await openTill(started.bridge);
  return started;
}

async function configure(bridge: Bridge, port: number, extra: EmailSettingsUpdate = {}): Promise<void> {
  value(
    await bridge.send('email.settings.set', {
      host: '127.0.0.1',
      port,
      security: 'none',
      user: '',
      senderAddress: SENDER,
      senderName: 'Corner Shop',
      ...extra,
    }),
  );
}

/** The lane has learned the merchant's zone from the gateway (it asks when it starts). */
async function storeZoneLearned(bridge: Bridge): Promise<void> {
  await eventually(
    async () => value(await bridge.send('terminal.status', {})).timeZone === 'America/New_York',
  );
}

async function cashSale(bridge: Bridge, cents: number): Promise<string> {
  const t = value(await bridge.send('sale.open', { subtotalCents: cents }));
  const out = value(
    await bridge.send('sale.pay', { ticketId: t.ticketId, tender: { kind: 'cash', tenderedCents: cents } }),
  );
  expect(out.ticket.status).toBe('paid');
  return t.ticketId;
}

async function swipeSale(bridge: Bridge, cents: number, pan: string): Promise<string> {
  const t = value(await bridge.send('sale.open', { subtotalCents: cents }));
  const prompts: string[] = [];
  const off = bridge.on('sale.progress', (p) => prompts.push(p.prompt));
  const pay = bridge.send('sale.pay', { ticketId: t.ticketId, tender: { kind: 'credit', entry: 'present' } });
  await eventually(() => prompts.includes('Insert, tap or swipe'));
  value(await bridge.send('simulator.swipe', { pan }));
  const out = value(await pay);
  off();
  expect(out.ticket.status).toBe('paid');
  return t.ticketId;
}

async function queueItem(bridge: Bridge, id: number) {
  const q = value(await bridge.send('email.queue.get', {}));
  const item = q.items.find((i) => i.id === id);
  if (!item) throw new Error(`email ${id} is not in the queue view`);
  return item;
}

/** Every file of a data folder as one text (journal, WAL, settings), for what must not be kept. */
function folderText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name)).toString('latin1'))
    .join('\n');
}

describe('emailed receipts through the store’s mail server', () => {
  it('a card sale’s receipt arrives: subject, text and HTML, last four only, the store’s time, one Message-ID', async () => {
    const sink = await startSmtpSink();
    const l = await lane();
    try {
      await configure(l.bridge, sink.port);
      await storeZoneLearned(l.bridge);
      const ticketId = await swipeSale(l.bridge, 2345, '5555555555554444');
      const queued = value(await l.bridge.send('email.receipt', { ticketId, to: ' Ana.Lopez@Example.COM ' }));
      expect(queued.message).toBe('Receipt queued for Ana.Lopez@example.com.');
      expect(queued).toMatchObject({ to: 'A***@example.com', state: 'queued', duplicate: false });

      const [mail] = await sink.waitFor(1);
      const m = mail?.parsed;
      expect(mail?.to).toEqual(['Ana.Lopez@example.com']);
      expect(mail?.from).toBe(SENDER);
      // The store's name as its receipts print it (the sandbox's demo store profile).
      const store = value(await l.bridge.send('store.profile.get', {}));
      expect(m?.subject).toBe(`Your receipt from ${store.storeName}`);
      expect(m?.from?.value).toEqual([{ address: SENDER, name: 'Corner Shop' }]);
      expect(m?.messageId).toMatch(/^<receipt\.[0-9a-f-]+@corner-shop\.example>$/);
      expect(m?.headers.get('auto-submitted')).toBe('auto-generated');
      const text = m?.text ?? '';
      const html = typeof m?.html === 'string' ? m.html : '';
      for (const part of [text, html]) {
        // The customer copy the printer prints: total, the card's last four, the copy's name.
        expect(part).toContain('23.45');
        expect(part).toContain('****4444');
        expect(part).toContain('CUSTOMER COPY');
        // The receipt's date line on the store's clock with its zone: not UTC's 3:05 PM, not the machine's.
        expect(part).toMatch(/11\/24\/2026 10:05 AM EST/);
        expect(part).not.toMatch(/3:05 PM|9:05 AM|UTC|CST/);
      }
      // No card data beyond the last four anywhere in what left the terminal: not the PAN, not the first six.
      expect(mail?.raw).not.toContain('5555555555554444');
      expect(mail?.raw).not.toMatch(/555555/);
      for (const part of [text, html]) expect(part).not.toMatch(/\d{12,}/);
      expect(html).toContain('<table role="presentation"');

      await eventually(async () => (await queueItem(l.bridge, queued.id)).state === 'sent');
      const item = await queueItem(l.bridge, queued.id);
      expect(item).toMatchObject({ to: 'A***@example.com', attempts: 1, retryable: false });
    } finally {
      await l.close();
      await sink.close();
    }
  });

  it('in a Spanish store the email speaks Spanish: subject, greeting, the receipt’s words and the footer', async () => {
    const sink = await startSmtpSink();
    const l = await lane();
    try {
      await configure(l.bridge, sink.port);
      value(await l.bridge.send('store.locale.update', { locale: 'es-MX', currency: 'USD' }));
      const store = value(await l.bridge.send('store.profile.get', {}));
      const t = value(await l.bridge.send('sale.open', { subtotalCents: 1500 }));
      value(
        await l.bridge.send('sale.pay', {
          ticketId: t.ticketId,
          tender: { kind: 'cash', tenderedCents: 2000 },
        }),
      );
      value(await l.bridge.send('email.receipt', { ticketId: t.ticketId, to: 'ana@example.com' }));
      const [mail] = await sink.waitFor(1);
      const m = mail?.parsed;
      expect(m?.subject).toBe(`Su recibo de ${store.storeName}`);
      const text = m?.text ?? '';
      const html = typeof m?.html === 'string' ? m.html : '';
      expect(html).toContain('<html lang="es">');
      for (const part of [text, html]) {
        expect(part).toContain(`Gracias por su compra en ${store.storeName}.`);
        // The receipt's own words, in the store's language (receipt-words.ts): tender, change, copy.
        expect(part).toContain('EFECTIVO');
        expect(part).toContain('CAMBIO');
        expect(part).toContain('COPIA DEL CLIENTE');
        expect(part).toContain('Recibió este correo porque pidió su recibo en nuestro mostrador.');
        // (The store's return policy is the manager's own text, in whatever language it was typed: data.)
        expect(part).not.toMatch(
          /Your receipt|Thank you for shopping at|CUSTOMER COPY|\bCASH\b|received this email/,
        );
      }
    } finally {
      await l.close();
      await sink.close();
    }
  });

  it('a refund’s receipt (by its transaction number) arrives too: REFUND, the last four only', async () => {
    const sink = await startSmtpSink();
    const l = await lane();
    try {
      await configure(l.bridge, sink.port);
      const t = value(await l.bridge.send('sale.open', { subtotalCents: 3100 }));
      const paid = value(
        await l.bridge.send('sale.pay', {
          ticketId: t.ticketId,
          tender: {
            kind: 'credit',
            entry: 'keyed',
            keyed: { cardNumber: '4111111111111111', expiry: '1230' },
          },
        }),
      );
      const refund = value(
        await l.bridge.send('transactions.refund', {
          serviceReferenceNumber: paid.tender.serviceReferenceNumber ?? '',
          amountCents: 1000,
        }),
      );
      const utn = refund.transaction.userTransactionNumber;
      const q = value(
        await l.bridge.send('email.receipt', { userTransactionNumber: utn, to: 'refund@example.com' }),
      );
      expect(q.state).toBe('queued');
      const [mail] = await sink.waitFor(1);
      const text = mail?.parsed.text ?? '';
      expect(text).toContain('REFUND');
      expect(text).toContain('10.00');
      expect(text).toContain('****1111');
      expect(mail?.raw).not.toMatch(/411111/);
      await eventually(async () => (await queueItem(l.bridge, q.id)).state === 'sent');
      expect((await queueItem(l.bridge, q.id)).receipt).toBe(`Refund ${utn}`);
    } finally {
      await l.close();
      await sink.close();
    }
  });

  it('once per receipt and address: Send twice (any case) queues nothing new; another address is another email', async () => {
    const sink = await startSmtpSink();
    const l = await lane();
    try {
      await configure(l.bridge, sink.port);
      const ticketId = await cashSale(l.bridge, 1111);
      const first = value(await l.bridge.send('email.receipt', { ticketId, to: 'bo@example.com' }));
      const second = value(await l.bridge.send('email.receipt', { ticketId, to: 'BO@EXAMPLE.COM' }));
      expect(second.id).toBe(first.id);
      expect(second.duplicate).toBe(true);
      await sink.waitFor(1);
      await eventually(async () => (await queueItem(l.bridge, first.id)).state === 'sent');
      const third = value(await l.bridge.send('email.receipt', { ticketId, to: 'bo@example.com' }));
      expect(third).toMatchObject({ id: first.id, duplicate: true, state: 'sent' });
      expect(third.message).toBe('This receipt was already sent to bo@example.com.');
      const other = value(await l.bridge.send('email.receipt', { ticketId, to: 'cy@example.com' }));
      expect(other.id).not.toBe(first.id);
      await sink.waitFor(2);
      expect(sink.messages.map((m) => m.to[0])).toEqual(['bo@example.com', 'cy@example.com']);
    } finally {
      await l.close();
      await sink.close();
    }
  });

  it('an answer lost after the server took the email: the retry sends the same Message-ID and Date, once more', async () => {
    // The server keeps the first copy but answers after the client stopped waiting (socket timeout 2 s).
    const sink = await startSmtpSink({ holdFirstAnswerMs: 3_000 });
    const l = await lane();
    try {
      await configure(l.bridge, sink.port);
      const ticketId = await cashSale(l.bridge, 1250);
      const q = value(await l.bridge.send('email.receipt', { ticketId, to: 'dup@example.com' }));
      const [first, second] = await sink.waitFor(2);
      await eventually(async () => (await queueItem(l.bridge, q.id)).state === 'sent');
      expect((await queueItem(l.bridge, q.id)).attempts).toBe(2);
      // The one duplicate the lane can cause carries what mail systems fold duplicates by.
      expect(second?.parsed.messageId).toBe(first?.parsed.messageId);
      expect(second?.parsed.date?.getTime()).toBe(first?.parsed.date?.getTime());
      expect(second?.parsed.text).toBe(first?.parsed.text);
      // Asking again queues nothing: the lane's side stays once per receipt and address.
      const again = value(await l.bridge.send('email.receipt', { ticketId, to: 'dup@example.com' }));
      expect(again).toMatchObject({ id: q.id, duplicate: true });
    } finally {
      await l.close();
      await sink.close();
    }
  });

  it('mail server down: queued with the reason, sent when it comes up; and after a terminal restart', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-email-restart-'));
    let l = await lane({}, dataDir);
    let sink: SmtpSink | undefined;
    try {
      await configure(l.bridge, port);
      const a = value(
        await l.bridge.send('email.receipt', {
          ticketId: await cashSale(l.bridge, 1201),
          to: 'a@example.com',
        }),
      );
      // The answer is at once: queued, never waiting for the server.
      expect(a.state).toBe('queued');
      await eventually(async () => (await queueItem(l.bridge, a.id)).attempts >= 1);
      const waiting = await queueItem(l.bridge, a.id);
      expect(waiting.state).toBe('queued');
      expect(waiting.lastError).toMatch(/connection was refused/);

      // The server comes up: the backoff's next attempt delivers it, without anyone pressing anything.
      sink = await startSmtpSink({ port });
      await sink.waitFor(1);
      await eventually(async () => (await queueItem(l.bridge, a.id)).state === 'sent');
      await sink.close();
      sink = undefined;

      // Down again, on a lane whose next try is ten minutes away; one more email; the terminal stops with
      // it queued.
      await l.close();
      const slow = {
        email: { ...fastEmail, backoff: { initialMs: 600_000, maxMs: 600_000, multiplier: 2, jitter: 0 } },
      };
      l = await lane(slow, dataDir);
      const b = value(
        await l.bridge.send('email.receipt', {
          ticketId: await cashSale(l.bridge, 1202),
          to: 'b@example.com',
        }),
      );
      await eventually(async () => (await queueItem(l.bridge, b.id)).attempts >= 1);
      // The address waits in the journal sealed, never in clear.
      expect(folderText(dataDir)).not.toContain('b@example.com');

      expect((await l.core.journal.emailList(1))[0]?.nextAttemptAt).toBeGreaterThan(clock.now() + 500_000);
      await l.close();

      // The server is back and the terminal restarts: the start tries what waits at once, not in ten minutes.
      sink = await startSmtpSink({ port });
      l = await lane(slow, dataDir);
      const [second] = await sink.waitFor(1, 10_000);
      expect(second?.to).toEqual(['b@example.com']);
      await eventually(async () => (await queueItem(l.bridge, b.id)).state === 'sent');
      await l.close();
      // Sent: the address is gone from the data folder (the journal keeps the mask and a keyed hash).
      const kept = folderText(dataDir);
      expect(kept).not.toContain('b@example.com');
      expect(kept).not.toContain('a@example.com');
      expect(kept).toContain('b***@example.com');
    } finally {
      await l.close();
      await sink?.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a mail server that never answers does not hold up a sale', async () => {
    const silent = await startSilentSmtp();
    const l = await lane({
      email: { ...fastEmail, timeouts: { connectionMs: 20_000, greetingMs: 20_000, socketMs: 20_000 } },
    });
    try {
      await configure(l.bridge, silent.port);
      const first = value(
        await l.bridge.send('email.receipt', {
          ticketId: await cashSale(l.bridge, 1301),
          to: 'a@example.com',
        }),
      );
      // The sender is connected and waiting for a greeting that will not come (20 s).
      await eventually(() => silent.open() === 1);
      expect((await queueItem(l.bridge, first.id)).state).toBe('sending');
      // Meanwhile whole sales and their email requests complete: none of them waited for the server.
      for (const cents of [1302, 1303]) {
        const q = value(
          await l.bridge.send('email.receipt', {
            ticketId: await cashSale(l.bridge, cents),
            to: 'b@example.com',
          }),
        );
        expect(q.state).toBe('queued');
      }
      expect(silent.open()).toBe(1);
      expect((await queueItem(l.bridge, first.id)).state).toBe('sending');
    } finally {
      // Stopping is not held up either: the attempt in flight is aborted, the email stays queued.
      await l.close();
      await silent.close();
    }
  });

  it('STARTTLS to a self-signed certificate: refused until the certificate is trusted, then delivered encrypted', async () => {
    const cert = selfSignedCertificate();
    const sink = await startSmtpSink({ tls: cert, auth: { user: 'lane1', pass: 'mail-secret-42' } });
    const l = await lane();
    try {
      await configure(l.bridge, sink.port, {
        security: 'starttls',
        user: 'lane1',
        password: 'mail-secret-42',
      });
      const test = value(await l.bridge.send('email.test', { to: 'manager@example.com' }));
      expect(test.ok).toBe(false);
      expect(test.message).toMatch(/certificate is not trusted/);
      expect(test.message).toMatch(/self-signed/);

      const q = value(
        await l.bridge.send('email.receipt', {
          ticketId: await cashSale(l.bridge, 1401),
          to: 'tls@example.com',
        }),
      );
      await eventually(async () => (await queueItem(l.bridge, q.id)).attempts >= 1);
      expect((await queueItem(l.bridge, q.id)).lastError).toMatch(/certificate is not trusted/);
      expect(sink.messages).toHaveLength(0);

      const view = value(await l.bridge.send('email.settings.set', { trustedCertificatePem: cert.cert }));
      expect(view.trustedCertificate?.subject).toContain('tillpoint-test-mail');
      // New settings make every waiting email due now.
      const [mail] = await sink.waitFor(1);
      expect(mail?.secure).toBe(true);
      expect(mail?.user).toBe('lane1');
      expect(mail?.to).toEqual(['tls@example.com']);
      expect(value(await l.bridge.send('email.test', { to: 'manager@example.com' }))).toEqual({
        ok: true,
        message: 'Test email sent to manager@example.com. Check that it arrived.',
      });
      await sink.waitFor(2);
    } finally {
      await l.close();
      await sink.close();
    }
  });

  it('implicit TLS (port 465 style) with the trusted certificate', async () => {
    const cert = selfSignedCertificate();
    const sink = await startSmtpSink({ tls: cert, implicitTls: true });
    const l = await lane();
    try {
      await configure(l.bridge, sink.port, { security: 'tls', trustedCertificatePem: cert.cert });
      value(
        await l.bridge.send('email.receipt', {
          ticketId: await cashSale(l.bridge, 1451),
          to: 'x@example.com',
        }),
      );
      const [mail] = await sink.waitFor(1);
      expect(mail?.secure).toBe(true);
    } finally {
      await l.close();
      await sink.close();
    }
  });

  it('given up after the bounded time with the reason; the manager’s Retry sends it when the server is back', async () => {
    const port = await freePort();
    const l = await lane({ email: { ...fastEmail, giveUpAfterMs: 1_500 } });
    let sink: SmtpSink | undefined;
    try {
      await configure(l.bridge, port);
      const q = value(
        await l.bridge.send('email.receipt', {
          ticketId: await cashSale(l.bridge, 1501),
          to: 'late@example.com',
        }),
      );
      await eventually(async () => (await queueItem(l.bridge, q.id)).state === 'failed', 10_000);
      const failed = await queueItem(l.bridge, q.id);
      expect(failed.lastError).toMatch(
        /^Not sent within 2 seconds; given up\. Could not reach the mail server/,
      );
      expect(failed.retryable).toBe(true);
      expect(value(await l.bridge.send('email.queue.get', {})).failed).toBe(1);

      sink = await startSmtpSink({ port });
      const after = value(await l.bridge.send('email.queue.retry', { id: q.id }));
      expect(after.items.find((i) => i.id === q.id)?.state).not.toBe('failed');
      const [mail] = await sink.waitFor(1);
      expect(mail?.to).toEqual(['late@example.com']);
      await eventually(async () => (await queueItem(l.bridge, q.id)).state === 'sent');
      const unknown = await l.bridge.send('email.queue.retry', { id: 999_999 });
      expect(unknown.ok ? '' : unknown.error.code).toBe('not-found');
    } finally {
      await l.close();
      await sink?.close();
    }
  }, 30_000);

  it('an address the server refuses (550) fails at once, the reason shown with the address masked', async () => {
    const sink = await startSmtpSink({ refuseRecipient: (a) => (a.startsWith('nobody') ? 550 : undefined) });
    const l = await lane();
    try {
      await configure(l.bridge, sink.port);
      const q = value(
        await l.bridge.send('email.receipt', {
          ticketId: await cashSale(l.bridge, 1601),
          to: 'nobody@example.com',
        }),
      );
      await eventually(async () => (await queueItem(l.bridge, q.id)).state === 'failed');
      const item = await queueItem(l.bridge, q.id);
      expect(item.attempts).toBe(1);
      expect(item.lastError).toBe(
        'The mail server refused the address: 550 Mailbox unavailable: n***@example.com',
      );
      expect(sink.messages).toHaveLength(0);
    } finally {
      await l.close();
      await sink.close();
    }
  });
});

describe('the mail settings and the receipt request: checked, secret, audited', () => {
  let l: Lane;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    l = await lane();
  });
  afterAll(async () => {
    await l.close();
    await sink.close();
  });

  it('not set up: the receipt screen is told so in words, and the test says what to do', async () => {
    const ticketId = await cashSale(l.bridge, 1701);
    const r = await l.bridge.send('email.receipt', { ticketId, to: 'ana@example.com' });
    expect(r).toEqual({
      ok: false,
      error: {
        code: 'unavailable',
        message: 'Email receipts are not set up: a manager sets the store’s mail server in Settings.',
      },
    });
    expect(value(await l.bridge.send('email.test', { to: 'ana@example.com' }))).toEqual({
      ok: false,
      message: 'Set the mail server and the sender address first, and save them.',
    });
  });

  it('the password is write-only, sealed, never logged; the audit names fields, not values', async () => {
    const view = value(
      await l.bridge.send('email.settings.set', {
        host: 'Mail.Example.com',
        port: 587,
        security: 'starttls',
        user: 'lane1',
        password: 'Sup3r-Secret-Mail-Pass',
        senderAddress: 'Receipts@Corner.example',
        senderName: 'Corner Shop',
      }),
    );
    expect(view).toEqual({
      configured: true,
      host: 'Mail.Example.com',
      port: 587,
      security: 'starttls',
      user: 'lane1',
      passwordSet: true,
      senderAddress: 'Receipts@corner.example',
      senderName: 'Corner Shop',
    });
    expect(JSON.stringify(view)).not.toContain('Sup3r');
    expect(folderText(l.dataDir)).not.toContain('Sup3r-Secret-Mail-Pass');
    expect(JSON.stringify(l.core.log.recent())).not.toContain('Sup3r');
    const audit = value(await l.bridge.send('audit.list', { limit: 5 }));
    const entry = audit.find((a) => a.action === 'email-settings');
    expect(entry?.detail).toBe('email settings: password, host, user, senderAddress, senderName');
    const bundle = value(await l.bridge.send('diagnostics.bundle', {}));
    expect(bundle.json).not.toContain('Sup3r');
    // An empty password removes it.
    expect(value(await l.bridge.send('email.settings.set', { password: '' })).passwordSet).toBe(false);
  });

  it('refuses what it cannot use, each in words, and changes nothing', async () => {
    const before = value(await l.bridge.send('email.settings.get', {}));
    const cases: [EmailSettingsUpdate, RegExp][] = [
      [{ host: 'mail server.example' }, /host name/],
      [{ senderAddress: 'receipts' }, /sender is an email address/],
      [{ senderName: 'Shop\r\nBcc: x@example.com' }, /one line/],
      [{ trustedCertificatePem: 'not a certificate' }, /PEM certificate/],
      [
        { trustedCertificatePem: '-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----' },
        /holds a private key/,
      ],
      [{ host: 'mail.example.com', security: 'none', password: 'pw' }, /only encrypted/],
      [{ port: 0 }, /port is a number from 1 to 65535/],
      [{ security: 'ssl' as 'tls' }, /none, starttls or tls/],
    ];
    for (const [patch, words] of cases) {
      const r = await l.bridge.send('email.settings.set', patch);
      expect(r.ok ? 'saved' : r.error.message, JSON.stringify(patch)).toMatch(words);
    }
    // Without encryption a password may go to a server on this machine only.
    value(
      await l.bridge.send('email.settings.set', {
        host: '127.0.0.1',
        port: sink.port,
        security: 'none',
        password: 'pw',
      }),
    );
    value(await l.bridge.send('email.settings.set', { password: '' }));
    expect(value(await l.bridge.send('email.settings.get', {}))).toMatchObject({
      senderAddress: before.senderAddress,
      senderName: before.senderName,
    });
  });

  it('a receipt request is checked: the address, the ticket, and the sale finished', async () => {
    await configure(l.bridge, sink.port);
    const ticketId = await cashSale(l.bridge, 1801);
    const bad = await l.bridge.send('email.receipt', { ticketId, to: 'ana@example' });
    expect(bad.ok ? {} : bad.error).toMatchObject({
      code: 'invalid',
      message: expect.stringMatching(/not an email address/) as unknown,
    });
    const none = await l.bridge.send('email.receipt', { ticketId: 'T-nope', to: 'ana@example.com' });
    expect(none.ok ? '' : none.error.code).toBe('not-found');
    const open = value(await l.bridge.send('sale.open', { subtotalCents: 500 }));
    const unpaid = await l.bridge.send('email.receipt', { ticketId: open.ticketId, to: 'ana@example.com' });
    expect(unpaid.ok ? '' : unpaid.error.code).toBe('conflict');
    value(await l.bridge.send('sale.abandon', { ticketId: open.ticketId }));
    const neither = await l.bridge.send('email.receipt', { to: 'ana@example.com' });
    expect(neither.ok ? '' : neither.error.code).toBe('invalid');
    // By a sale's transaction number: its ticket's receipt.
    const rows = await l.core.journal.list({ limit: 5 });
    const tender = rows.find((r) => r.ticketId === ticketId);
    const byUtn = value(
      await l.bridge.send('email.receipt', {
        userTransactionNumber: tender?.utn ?? '',
        to: 'utn@example.com',
      }),
    );
    expect(byUtn.state).toBe('queued');
    await eventually(() => sink.messages.some((m) => m.to[0] === 'utn@example.com'));
    // A receipt is the customer's, not a mailing list: five addresses at most (utn@ was the first).
    for (const n of [1, 2, 3, 4])
      value(await l.bridge.send('email.receipt', { ticketId, to: `copy${n}@example.com` }));
    const sixth = await l.bridge.send('email.receipt', { ticketId, to: 'copy5@example.com' });
    expect(sixth.ok ? {} : sixth.error).toEqual({
      code: 'conflict',
      message: 'This receipt was already emailed to 5 addresses; it goes to no more.',
    });
    // One of the five again is still answered as what it is.
    expect(value(await l.bridge.send('email.receipt', { ticketId, to: 'copy2@example.com' })).duplicate).toBe(
      true,
    );
  });

  it('a cashier may email a receipt; only a manager sees or changes the mail server and the queue', async () => {
    const cashier = l.core.connect();
    value(await cashier.send('session.signIn', { pin: '1111' }));
    const ticketId = await cashSale(cashier, 1901);
    expect(value(await cashier.send('email.receipt', { ticketId, to: 'c@example.com' })).state).toBe(
      'queued',
    );
    for (const command of ['email.settings.get', 'email.queue.get'] as const) {
      const r = await cashier.send(command, {});
      expect(r.ok ? '' : r.error.code, command).toBe('forbidden');
    }
    const t = await cashier.send('email.test', { to: 'c@example.com' });
    expect(t.ok ? '' : t.error.code).toBe('forbidden');
    cashier.close();
  });

  it('the log names emails by number and masked address, never the address', () => {
    const log = JSON.stringify(l.core.log.recent());
    expect(log).toContain('u***@example.com');
    expect(log).toContain('c***@example.com');
    expect(log).not.toMatch(/[a-z0-9.]+@example\.com/i);
  });
});
