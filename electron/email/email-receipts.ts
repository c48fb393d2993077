import { createHmac, hkdfSync, randomUUID } from 'node:crypto';
import {
  emailAddressProblem,
  emailIdentity,
  maskEmailAddress,
  normalizeEmailAddress,
} from '../../common/email-address';
import type { Language } from '../../common/store-locale';
import { backoffDelay, type BackoffPolicy } from '../../native/drivers/backoff';
import type {
  EmailQueueItemView,
  EmailQueueView,
  EmailReceiptQueuedView,
  EmailReceiptRequest,
  EmailTestResult,
  ReceiptView,
  TicketView,
} from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import {
  emailSealContext,
  type EmailReceiptRow,
  type EmailReceiptWork,
} from '../journal/email-receipt-store';
import type { Journal } from '../journal/journal-protocol';
import type { Clock, Timers } from '../util/clock';
import type { Sealer } from '../util/key-file';
import type { Logger } from '../util/log';
import type { EmailSettings } from './email-settings';
import { renderReceiptEmail } from './receipt-email';
import {
  defaultSmtpTimeouts,
  sendSmtp,
  type SmtpMessage,
  type SmtpResult,
  type SmtpTimeouts,
} from './smtp-send';

/**
 * Emailed receipts (issue 20): the receipt screen queues the customer copy for an address in the journal
 * and answers at once; this sender delivers it in the background through the store's mail server, with
 * exponential backoff and jitter, across restarts (the queue is the journal's `email_receipts`), and gives
 * up after a bounded time with the reason for the manager's Offline & queues screen. A sale never waits
 * for it: queueing is one journal write, and the sender runs beside the sale engine like the reversal
 * worker, one email at a time, every wait bounded by the SMTP timeouts.
 *
 * Once per receipt and address: the journal refuses a second row for the same (receipt, address), so a
 * cashier pressing Send twice, or the customer display asking again, queues nothing new. At the SMTP level
 * an answer can be lost after the server took the message (the connection drops after the final "."):
 * the retry then sends it again, with the same Message-ID and Date, which mail systems and mail programs
 * use to fold duplicates; a second copy can only come from that one lost answer, once per attempt, and the
 * attempts are bounded by the deadline.
 */

export type EmailReceiptsOptions = {
  journal: Journal;
  sealer: Sealer;
  /** The data folder's key: the address key (a keyed hash of an address) is derived from it. */
  terminalKey: Buffer;
  settings: EmailSettings;
  /**
   * The receipts the printer prints, from the sale engine: a paid ticket's customer copy, or a refund's or
   * a void's. Their lines carry the store's time (sale/receipt.ts), so the email does too.
   */
  receipts: {
    get(ticketId: string): Promise<TicketView>;
    receipt(ticketId: string, copy: 'customer', language?: Language): Promise<ReceiptView>;
    transactionReceipt(userTransactionNumber: string, copy: 'customer'): Promise<ReceiptView>;
  };
  storeName: () => string;
  /** The store's language (its locale setting): its receipts' words and the email's. English when absent. */
  language?: () => Language;
  laneId: () => string;
  clock: Clock;
  timers: Timers;
  log: Logger;
  random?: () => number;
  backoff?: BackoffPolicy;
  /** A waiting email is given up on this long after it was queued. Default 24 h. */
  giveUpAfterMs?: number;
  /** A given-up email keeps its (sealed) address this long, for a manager's Retry. Default 7 days. */
  keepFailedMs?: number;
  timeouts?: Partial<SmtpTimeouts>;
  /** When nothing is due, how long before looking again. Default 60 s (a new email wakes it sooner). */
  idleMs?: number;
  /** After every change of the queue (the bridge's `email.updated`). */
  onChange?: () => void;
};

export type EmailReceipts = {
  /** Queues the receipt for the address; answers at once (never after SMTP). */
  queueReceipt(request: EmailReceiptRequest): Promise<EmailReceiptQueuedView>;
  view(limit?: number): Promise<EmailQueueView>;
  /** A manager's Retry: a waiting email is tried now, a failed one queued again. */
  retry(id: number): Promise<EmailQueueView>;
  /** A test email through the saved settings, sent now. */
  test(to: string): Promise<EmailTestResult>;
  /** The mail settings changed: every waiting email is due now. */
  settingsChanged(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  kick(): void;
  /** Resolves true once nothing is waiting (tests). */
  drained(timeoutMs: number): Promise<boolean>;
};

/** 30 s, 1 min, 2 min … capped at 30 min, ±20 %: a lane that lost its network does not hammer the server. */
export const emailBackoff: BackoffPolicy = {
  initialMs: 30_000,
  maxMs: 30 * 60_000,
  multiplier: 2,
  jitter: 0.2,
};

const DAY = 86_400_000;

/** A receipt goes to at most this many addresses: the terminal is no mailing list. */
export const MAX_ADDRESSES_PER_RECEIPT = 5;

/**
 * What a queue row holds to render its email (the customer copy as it was when asked for, and the language
 * its words are in; a row queued before languages has none: English).
 */
type QueuedContent = { receipt: ReceiptView; storeName: string; language?: Language };

/** A queue row's receipt: `ticket:<id>` (a sale), `refund:<utn>` or `void:<utn>`. */
type ReceiptKind = 'ticket' | 'refund' | 'void';

/** Every string the cashier and the manager read from here, in one place. */
const WORDS = {
  notSetUp: 'Email receipts are not set up: a manager sets the store’s mail server in Settings.',
  chooseReceipt: 'Choose the receipt to email.',
  notPaid: 'The sale is not finished: its receipt can be emailed once it is paid.',
  noReceipt: 'This transaction has no receipt of its own to email.',
  notDone: 'Only a refund or a void that went through has a receipt to email.',
  tooMany: (n: number) => `This receipt was already emailed to ${n} addresses; it goes to no more.`,
  queued: (to: string) => `Receipt queued for ${to}.`,
  alreadyQueued: (to: string) => `This receipt is already queued for ${to}.`,
  alreadySent: (to: string) => `This receipt was already sent to ${to}.`,
  noSuchEmail: 'No such email in the queue.',
  unreadable: 'The address could not be read (the terminal’s key changed). Ask the customer again.',
  gaveUp: (after: string, reason: string) => `Not sent within ${after}; given up. ${reason}`,
  testNotSetUp: 'Set the mail server and the sender address first, and save them.',
  testSubject: (store: string) => `Test email from ${store}`,
  testText: (store: string, lane: string) =>
    `This is a test from lane ${lane} of ${store}. Receipts can be emailed from this terminal.\n`,
  testSent: (to: string) => `Test email sent to ${to}. Check that it arrived.`,
  testFailed: (reason: string) => `The test email was not sent. ${reason}`,
  receipt: { ticket: 'Ticket', refund: 'Refund', void: 'Void' } satisfies Record<ReceiptKind, string>,
} as const;

function duration(ms: number): string {
  if (ms >= 3_600_000) {
    const h = Math.round(ms / 3_600_000);
    return `${h} hour${h === 1 ? '' : 's'}`;
  }
  if (ms >= 60_000) {
    const m = Math.round(ms / 60_000);
    return `${m} minute${m === 1 ? '' : 's'}`;
  }
  const s = Math.max(1, Math.round(ms / 1000));
  return `${s} second${s === 1 ? '' : 's'}`;
}

export function createEmailReceipts(o: EmailReceiptsOptions): EmailReceipts {
  const { journal, sealer, settings, clock, timers, log } = o;
  const policy = o.backoff ?? emailBackoff;
  const random = o.random ?? Math.random;
  const giveUpAfterMs = o.giveUpAfterMs ?? DAY;
  const keepFailedMs = o.keepFailedMs ?? 7 * DAY;
  const idleMs = o.idleMs ?? 60_000;
  const timeouts: SmtpTimeouts = { ...defaultSmtpTimeouts, ...o.timeouts };
  // An address is recognized again without being kept: HMAC-SHA-256 under a key of its own, derived from
  // the data folder's key (RFC 5869), so the hash of a guessable address cannot be looked up elsewhere.
  const hashKey = Buffer.from(
    hkdfSync('sha256', o.terminalKey, Buffer.alloc(0), 'tillpoint email address key', 32),
  );
  const addressKey = (address: string): string =>
    createHmac('sha256', hashKey).update(emailIdentity(address)).digest('hex');

  let running = false;
  let timer: unknown;
  let pass: Promise<void> | undefined;
  let again = false;
  let inFlight: AbortController | undefined;

  const changed = (): void => o.onChange?.();

  function from(): SmtpMessage['from'] {
    const s = settings.value;
    return { name: s.senderName || o.storeName(), address: s.senderAddress };
  }

  function messageId(): string {
    const domain = settings.value.senderAddress.split('@')[1] ?? 'tillpoint.invalid';
    return `<receipt.${randomUUID()}@${domain}>`;
  }

  /** A receipt to queue and the language its words (and so the email's) are in. */
  type Resolved = { receiptKey: string; receipt: ReceiptView; language: Language };

  const storeLanguage = (): Language => o.language?.() ?? 'en';

  async function ticketReceipt(ticketId: string, language: Language | undefined): Promise<Resolved> {
    const ticket = await o.receipts.get(ticketId);
    if (ticket.status !== 'paid') throw new BridgeFailure('conflict', WORDS.notPaid);
    const receipt = await (language
      ? o.receipts.receipt(ticketId, 'customer', language)
      : o.receipts.receipt(ticketId, 'customer'));
    return { receiptKey: `ticket:${ticketId}`, receipt, language: language ?? storeLanguage() };
  }

  async function resolveReceipt(request: EmailReceiptRequest): Promise<Resolved> {
    if (request.ticketId !== undefined) return ticketReceipt(request.ticketId, request.language);
    const utn = request.userTransactionNumber;
    if (utn === undefined) throw new BridgeFailure('invalid', WORDS.chooseReceipt);
    const row = await journal.get(utn);
    if (!row) throw new BridgeFailure('not-found', 'No such transaction.');
    if (row.operation === 'refund' || row.operation === 'void') {
      if (row.state !== 'approved') throw new BridgeFailure('conflict', WORDS.notDone);
      // A refund's or a void's receipt is in the store's language, as it printed.
      return {
        receiptKey: `${row.operation}:${utn}`,
        receipt: await o.receipts.transactionReceipt(utn, 'customer'),
        language: storeLanguage(),
      };
    }
    // A sale's tender: its ticket's receipt. Anything else made outside a ticket has none of its own.
    if (row.ticketId) return ticketReceipt(row.ticketId, request.language);
    throw new BridgeFailure('unavailable', WORDS.noReceipt);
  }

  function receiptLabel(receiptKey: string): string {
    const at = receiptKey.indexOf(':');
    const kind = receiptKey.slice(0, at) as ReceiptKind;
    return `${WORDS.receipt[kind] ?? kind} ${receiptKey.slice(at + 1)}`;
  }

  function itemView(r: EmailReceiptRow): EmailQueueItemView {
    const waiting = r.state === 'queued' || r.state === 'sending';
    return {
      id: r.id,
      receipt: receiptLabel(r.receiptKey),
      to: r.addressMasked,
      state: r.state,
      attempts: r.attempts,
      createdAt: r.createdAt,
      ...(r.state === 'queued' ? { nextAttemptAt: r.nextAttemptAt } : {}),
      giveUpAt: r.giveUpAt,
      ...(r.finishedAt !== null ? { finishedAt: r.finishedAt } : {}),
      ...(r.lastError ? { lastError: r.lastError } : {}),
      retryable: (waiting || r.state === 'failed') && r.hasAddress,
    };
  }

  async function view(limit = 50): Promise<EmailQueueView> {
    const [counts, rows] = await Promise.all([
      journal.emailCounts(clock.now() - 7 * DAY),
      journal.emailList(Math.min(Math.max(1, limit), 200)),
    ]);
    return { waiting: counts.waiting, failed: counts.failed, items: rows.map(itemView) };
  }

  async function attempt(w: EmailReceiptWork): Promise<void> {
    if (!(await journal.emailSending(w.id))) return;
    const masked = w.addressMasked;
    let address: string;
    let content: QueuedContent;
    try {
      address = sealer.open(w.sealedAddress, emailSealContext(w.receiptKey, w.addressKey));
      content = JSON.parse(w.content) as QueuedContent;
    } catch {
      await journal.emailFailed(w.id, clock.now(), WORDS.unreadable);
      log.log('error', 'email', `receipt email ${w.id} to ${masked}: its address could not be opened`);
      return;
    }
    let result: SmtpResult;
    if (!settings.configured()) {
      result = { ok: false, permanent: false, aborted: false, reason: WORDS.notSetUp };
    } else {
      const email = renderReceiptEmail(content);
      inFlight = new AbortController();
      result = await sendSmtp(
        settings.value,
        settings.password(),
        timeouts,
        {
          from: from(),
          to: address,
          subject: email.subject,
          text: email.text,
          html: email.html,
          messageId: w.messageId,
          date: new Date(w.createdAt),
        },
        inFlight.signal,
      );
      inFlight = undefined;
    }
    const now = clock.now();
    if (result.ok) {
      await journal.emailSent(w.id, now);
      log.log('info', 'email', `receipt email ${w.id} to ${masked} sent (attempt ${w.attempts + 1})`);
      return;
    }
    // Stopping: the row stays `sending` and goes back to the queue at the next start (recover).
    if (result.aborted) return;
    if (result.permanent) {
      await journal.emailFailed(w.id, now, result.reason);
      log.log('warn', 'email', `receipt email ${w.id} to ${masked} refused: ${result.reason}`);
      return;
    }
    const delay = backoffDelay(policy, w.attempts, random);
    if (now + delay > w.giveUpAt) {
      await journal.emailFailed(w.id, now, WORDS.gaveUp(duration(giveUpAfterMs), result.reason));
      log.log('warn', 'email', `receipt email ${w.id} to ${masked} given up: ${result.reason}`);
      return;
    }
    await journal.emailRetryLater(w.id, now + delay, result.reason);
    log.log(
      'warn',
      'email',
      `receipt email ${w.id} to ${masked} attempt ${w.attempts + 1} failed: ${result.reason}; next in ${delay} ms`,
    );
  }

  async function runOnce(): Promise<void> {
    const now = clock.now();
    const purged = await journal.emailPurge(now - keepFailedMs);
    const due = await journal.emailDue(now, 8);
    for (const w of due) {
      if (!running) return;
      try {
        await attempt(w);
      } catch (error) {
        log.log(
          'error',
          'email',
          `receipt email ${w.id}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    if (due.length > 0 || purged > 0) changed();
  }

  const schedule = (ms: number): void => {
    if (!running) return;
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = timers.setTimeout(
      () => {
        timer = undefined;
        runPass();
      },
      Math.max(0, ms),
    );
  };

  function runPass(): void {
    if (!running) return;
    if (pass) {
      again = true;
      return;
    }
    pass = runOnce()
      .catch((error: unknown) => {
        log.log('error', 'email', `pass failed: ${error instanceof Error ? error.message : String(error)}`);
      })
      .then(async () => {
        pass = undefined;
        if (!running) return;
        if (again) {
          again = false;
          schedule(0);
          return;
        }
        const next = await journal.emailNextAttemptAt().catch(() => undefined);
        schedule(next === undefined ? idleMs : Math.min(idleMs, next - clock.now()));
      });
  }

  const kick = (): void => {
    if (!running) return;
    if (pass) again = true;
    else schedule(0);
  };

  return {
    async queueReceipt(request) {
      if (!settings.configured()) throw new BridgeFailure('unavailable', WORDS.notSetUp);
      const problem = emailAddressProblem(request.to);
      if (problem) throw new BridgeFailure('invalid', problem);
      const address = normalizeEmailAddress(request.to);
      const { receiptKey, receipt, language } = await resolveReceipt(request);
      const content: QueuedContent = { receipt, storeName: o.storeName(), language };
      const key = addressKey(address);
      const now = clock.now();
      const queued = await journal.emailEnqueue({
        receiptKey,
        addressKey: key,
        addressMasked: maskEmailAddress(address),
        messageId: messageId(),
        sealedAddress: sealer.seal(address, emailSealContext(receiptKey, key)),
        content: JSON.stringify(content),
        now,
        giveUpAt: now + giveUpAfterMs,
        maxAddresses: MAX_ADDRESSES_PER_RECEIPT,
      });
      if (queued.outcome === 'too-many')
        throw new BridgeFailure('conflict', WORDS.tooMany(MAX_ADDRESSES_PER_RECEIPT));
      const { row, outcome } = queued;
      log.log(
        'info',
        'email',
        `receipt email ${row.id} for ${receiptLabel(receiptKey)} to ${row.addressMasked}: ${outcome}`,
      );
      if (outcome === 'queued' || outcome === 'requeued') {
        kick();
        changed();
      }
      const message =
        outcome === 'already-sent'
          ? WORDS.alreadySent(address)
          : outcome === 'already-queued'
            ? WORDS.alreadyQueued(address)
            : WORDS.queued(address);
      return {
        id: row.id,
        to: row.addressMasked,
        state: row.state,
        duplicate: outcome === 'already-sent' || outcome === 'already-queued',
        message,
      };
    },

    view,

    async retry(id) {
      const now = clock.now();
      const row = await journal.emailRetry(id, now, now + giveUpAfterMs);
      if (!row) throw new BridgeFailure('not-found', WORDS.noSuchEmail);
      kick();
      changed();
      return view();
    },

    async test(to) {
      if (!settings.configured()) return { ok: false, message: WORDS.testNotSetUp };
      const problem = emailAddressProblem(to);
      if (problem) throw new BridgeFailure('invalid', problem);
      const address = normalizeEmailAddress(to);
      const store = o.storeName();
      const r = await sendSmtp(settings.value, settings.password(), timeouts, {
        from: from(),
        to: address,
        subject: WORDS.testSubject(store),
        text: WORDS.testText(store, o.laneId()),
      });
      log.log('info', 'email', `test email to ${maskEmailAddress(address)}: ${r.ok ? 'sent' : r.reason}`);
      return r.ok
        ? { ok: true, message: WORDS.testSent(address) }
        : { ok: false, message: WORDS.testFailed(r.reason) };
    },

    async settingsChanged() {
      await journal.emailRetryAll(clock.now());
      kick();
    },

    async start() {
      if (running) return;
      // Rows left `sending` by a stop or a crash: their answer never came, so they go again (same Message-ID).
      const recovered = await journal.emailRecover();
      // A start is a fresh chance (the network or the server may be back): what waits is tried now, not
      // at the end of a backoff the last run began.
      await journal.emailRetryAll(clock.now());
      if (recovered > 0)
        log.log('warn', 'email', `${recovered} receipt email(s) had no answer recorded; queued again`);
      running = true;
      schedule(0);
    },

    async stop() {
      running = false;
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
      // A mail server that hangs must not hold the terminal's stop for its timeouts.
      inFlight?.abort();
      await pass;
    },

    kick,

    async drained(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const { waiting } = await journal.emailCounts(0);
        if (waiting === 0 && !pass) return true;
        if (Date.now() > deadline) return false;
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}
