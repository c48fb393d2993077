import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  BalanceView,
  BridgeResult,
  EbtProgram,
  SaleProgress,
  TransactionView,
} from '../../../../common/bridge/contract';
import { cardWords } from '../../format/card-words';
import { formatCents, parseMoney } from '../../format/money';
import { en } from '../../i18n/en';
import { i18n } from '../../i18n/i18n';
import { describeError } from '../../state/app-store';
import { useAppStore, useBridge, useNow } from '../../state/context';
import { ErrorAlert, InputField } from '../../ui/fields';
import { Stat } from '../../ui/Stat';

type Running = 'gift-balance' | 'gift-reload' | 'ebt-food' | 'ebt-cash';

/** How the customer pays for a load: cash (exact), or a card at the readers. */
type PayWith = 'cash' | 'card';

/** A load's payment in progress or taken: the ticket opened for it (docs/bridge.md "Gift reload"). */
type PaidLoad = { ticketId: string; amountCents: number; tenderId: string; needsSignature: boolean };

type Result =
  | { kind: 'balance'; balance: BalanceView }
  | { kind: 'reload'; transaction: TransactionView; newBalanceCents?: number };

/**
 * The card's balance after a reload. gift.reload answers a TransactionView without it; the core writes the
 * gateway's balance text into `message` ("Reloaded; balance 1,234.50"), so the screen reads it from there
 * and shows nothing when the words change (docs/screens.md, proposals).
 */
function balanceFromMessage(message: string | undefined): number | undefined {
  const m = /balance\s+\$?([\d,]+\.\d{2})\b/i.exec(message ?? '');
  return m?.[1] ? parseMoney(m[1]) : undefined;
}

/**
 * The device prompt of a balance inquiry or reload: these run outside a ticket, so their `sale.progress`
 * events carry `ticketId: ''` and the sale screen's store does not follow them — nor those of the ticket
 * that pays for a load (`ticketId`), which this screen runs itself.
 */
function useOutsideTicketProgress(active: boolean, ticketId: string | undefined): SaleProgress | null {
  const bridge = useBridge();
  const [progress, setProgress] = useState<SaleProgress | null>(null);
  useEffect(() => {
    if (!active) {
      setProgress(null);
      return;
    }
    return bridge.on('sale.progress', (p) => {
      if (p.ticketId === '' || p.ticketId === ticketId) setProgress(p);
    });
  }, [bridge, active, ticketId]);
  return progress;
}

/** The core's prompts (English words) by their catalog key: a prompt not listed shows as the core wrote it. */
const PROMPTS: Readonly<Record<string, keyof typeof en.cards.prompt>> = Object.fromEntries(
  Object.entries(en.cards.prompt).map(([key, words]) => [words, key as keyof typeof en.cards.prompt]),
);

function promptWords(progress: SaleProgress): string {
  const key = PROMPTS[progress.prompt];
  return key ? i18n.t(`cards:prompt.${key}`) : progress.prompt;
}

function WaitPanel({
  running,
  progress,
  onCancel,
}: {
  running: Running;
  progress: SaleProgress | null;
  onCancel: () => void;
}) {
  const [deadline, setDeadline] = useState<number | null>(null);
  const now = useNow(1000);
  useEffect(() => {
    setDeadline(progress?.timeoutSeconds ? Date.now() + progress.timeoutSeconds * 1000 : null);
  }, [progress]);
  const { t } = useTranslation('cards');
  const left = deadline ? Math.max(0, Math.round((deadline - now) / 1000)) : null;
  const ebt = running === 'ebt-food' || running === 'ebt-cash';
  return (
    <section aria-labelledby="card-prompt" className="stack card">
      <h2 className="sr-only">{t('wait.title')}</h2>
      <div
        id="card-prompt"
        className="prompt"
        role="status"
        aria-live="assertive"
        data-step={progress?.step ?? 'starting'}
      >
        {progress ? promptWords(progress) : t('wait.starting')}
      </div>
      {left !== null ? <p className="hint">{t('wait.timesOut', { seconds: left })}</p> : null}
      <div className="row">
        {/* Stops the readers and the PIN pad; an answer already asked of the gateway is not cancelled. */}
        <button type="button" className="btn" onClick={onCancel} disabled={progress?.step === 'authorizing'}>
          {t('wait.cancel')}
        </button>
        <p className="hint">{ebt ? t('wait.ebtHint') : t('wait.giftHint')}</p>
      </div>
    </section>
  );
}

function ResultPanel({ result }: { result: Result }) {
  const { t } = useTranslation('cards');
  if (result.kind === 'balance') {
    const b = result.balance;
    return (
      <section className="outcome outcome-ok" aria-labelledby="card-result-title" role="status">
        <h2 id="card-result-title" tabIndex={-1}>
          {t(`balanceTitle.${b.kind}`)}
        </h2>
        <div className="stats">
          <Stat label={t('result.balance')} value={formatCents(b.balanceCents)} testId="card-balance" />
          <Stat label={t('result.card')} value={cardWords(b.card)} testId="card-card" />
        </div>
      </section>
    );
  }
  const tx = result.transaction;
  return (
    <section className="outcome outcome-ok" aria-labelledby="card-result-title" role="status">
      <h2 id="card-result-title" tabIndex={-1}>
        {t('result.reloaded')}
      </h2>
      <p data-testid="reload-basis">{tx.ticketId ? t('result.paidHere') : t('result.managerLoad')}</p>
      <div className="stats">
        <Stat label={t('result.amount')} value={formatCents(tx.amountCents)} testId="reload-amount" />
        {result.newBalanceCents !== undefined ? (
          <Stat
            label={t('result.newBalance')}
            value={formatCents(result.newBalanceCents)}
            testId="card-balance"
          />
        ) : null}
        <Stat label={t('result.card')} value={cardWords(tx)} testId="card-card" />
        {tx.authCode ? <Stat label={t('result.auth')} value={tx.authCode} /> : null}
      </div>
      {result.newBalanceCents === undefined && tx.message ? <p>{tx.message}</p> : null}
    </section>
  );
}

/**
 * Gift card balance and reload, EBT balances: card operations outside a sale. The card is read as in a
 * sale (swiped, or a gift number typed); EBT asks for the PIN on the PIN pad.
 */
export function CardServicesScreen() {
  const { t } = useTranslation('cards');
  const bridge = useBridge();
  const app = useAppStore();
  const [typed, setTyped] = useState(false);
  const [number, setNumber] = useState('');
  const [reloadAmount, setReloadAmount] = useState('');
  const [payWith, setPayWith] = useState<PayWith>('cash');
  const [paid, setPaid] = useState<PaidLoad | null>(null);
  const [running, setRunning] = useState<Running | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState<string | null>(null);
  const progress = useOutsideTicketProgress(running !== null, paid?.ticketId);
  const returnFocus = useRef<HTMLElement | null>(null);

  /** The gift card as the payload carries it; undefined (and an error shown) when the number is missing. */
  const giftCard = (): { entry: 'swipe' } | { entry: 'keyed'; keyed: { cardNumber: string } } | undefined => {
    if (!typed) return { entry: 'swipe' };
    if (number.length < 12) {
      setError(t('gift.wholeNumber'));
      return undefined;
    }
    return { entry: 'keyed', keyed: { cardNumber: number } };
  };

  const run = async <T,>(
    what: Running,
    call: () => Promise<BridgeResult<T>>,
    done: (value: T) => Result,
  ): Promise<void> => {
    // The controls are disabled while the card is read, which drops the focus: it comes back afterwards.
    returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setError(null);
    setResult(null);
    setRunning(what);
    const r = await call();
    setRunning(null);
    // A typed number leaves the page as soon as it has been used, as in the sale's keyed forms.
    setNumber('');
    if (!r.ok) {
      setError(describeError(r.error));
      return;
    }
    setResult(done(r.value));
  };

  // After the commit that re-enables the controls: the result's heading takes the focus (a screen reader
  // reads it, Tab goes on from there); after an error, the control that started it gets it back.
  useEffect(() => {
    const from = returnFocus.current;
    if (running || !from) return;
    returnFocus.current = null;
    const heading = document.getElementById('card-result-title');
    (heading ?? from).focus();
  }, [running, result, error]);

  const giftBalance = (e: FormEvent) => {
    e.preventDefault();
    const card = giftCard();
    if (card)
      void run(
        'gift-balance',
        () => bridge.send('gift.balance', card),
        (balance) => ({ kind: 'balance', balance }),
      );
  };

  const reloadCents = parseMoney(reloadAmount);
  const reloaded = (transaction: TransactionView): Result => {
    const newBalanceCents = balanceFromMessage(transaction.message);
    return { kind: 'reload', transaction, ...(newBalanceCents !== undefined ? { newBalanceCents } : {}) };
  };

  /** Loads the card for a paid ticket; the ticket stays here (Load again) until the load is done. */
  const load = (p: PaidLoad) => {
    const card = giftCard();
    if (!card) return;
    void run(
      'gift-reload',
      () => bridge.send('gift.reload', { amountCents: p.amountCents, ticketId: p.ticketId, ...card }),
      (transaction) => {
        setPaid(null);
        return reloaded(transaction);
      },
    );
  };

  /**
   * The customer pays first — a ticket of the load's amount, no tax — then the gift card is read and
   * loaded. A payment that does not go through gives the ticket up (a manager's PIN if part was taken).
   */
  const payAndLoad = async (amountCents: number) => {
    returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setError(null);
    setResult(null);
    setRunning('gift-reload');
    const opened = await bridge.send('sale.open', { subtotalCents: amountCents, purpose: 'gift-reload' });
    if (!opened.ok) {
      setRunning(null);
      return setError(describeError(opened.error));
    }
    const ticketId = opened.value.ticketId;
    setPaid({ ticketId, amountCents, tenderId: '', needsSignature: false });
    const r = await bridge.send('sale.pay', {
      ticketId,
      tender:
        payWith === 'cash'
          ? { kind: 'cash', tenderedCents: amountCents }
          : { kind: 'credit', entry: 'present' },
    });
    setRunning(null);
    // Paid in full (or approved in full and only the signature owed); anything else gives the ticket up.
    const taken =
      r.ok &&
      r.value.tender.status === 'approved' &&
      (r.value.ticket.status === 'paid' ||
        (r.value.signatureRequired && r.value.ticket.remainingCents === 0));
    if (!r.ok || !taken) {
      setPaid(null);
      setError(
        r.ok
          ? t('gift.notThrough', { reason: r.value.tender.message ?? r.value.tender.status })
          : describeError(r.error),
      );
      const abandon = await bridge.send('sale.abandon', { ticketId });
      if (!abandon.ok && abandon.error.code === 'forbidden')
        await app
          .getState()
          .withManager(t('gift.giveUp'), (approval) =>
            bridge.send('sale.abandon', { ticketId, ...(approval ? { approval } : {}) }),
          );
      return;
    }
    const next = {
      ticketId,
      amountCents,
      tenderId: r.value.tender.tenderId,
      needsSignature: r.value.signatureRequired,
    };
    setPaid(next);
    if (!next.needsSignature) load(next);
  };

  const signed = async () => {
    if (!paid) return;
    const r = await bridge.send('sale.signature', {
      ticketId: paid.ticketId,
      tenderId: paid.tenderId,
      signature: { source: 'pad' },
    });
    if (!r.ok) return setError(describeError(r.error));
    const next = { ...paid, needsSignature: false };
    setPaid(next);
    load(next);
  };

  const giftReload = (e: FormEvent) => {
    e.preventDefault();
    if (reloadCents === undefined || reloadCents <= 0) {
      setError(t('gift.amountShape'));
      return;
    }
    if (!giftCard()) return;
    void payAndLoad(reloadCents);
    setReloadAmount('');
  };

  /** A load with no payment (a promotion, a correction) is a manager's decision: the PIN is asked for. */
  const managerLoad = () => {
    if (reloadCents === undefined || reloadCents <= 0) {
      setError(t('gift.amountShape'));
      return;
    }
    const card = giftCard();
    if (!card) return;
    const amountCents = reloadCents;
    void run(
      'gift-reload',
      async () =>
        (await app
          .getState()
          .withManager(t('gift.approveLoad', { amount: formatCents(amountCents) }), (approval) =>
            bridge.send('gift.reload', { amountCents, ...card, ...(approval ? { approval } : {}) }),
          )) ?? { ok: false, error: { code: 'forbidden', message: t('gift.cancelled') } },
      reloaded,
    );
    setReloadAmount('');
  };

  const ebtBalance = (program: EbtProgram) =>
    void run(
      program === 'food' ? 'ebt-food' : 'ebt-cash',
      () => bridge.send('ebt.balance', { program }),
      (balance) => ({ kind: 'balance', balance }),
    );

  /**
   * Cancel in the wait panel: the load's own payment is a tender on its ticket (`sale.cancel`); a balance
   * or a load's card read waits outside any ticket (`cardWait.cancel`). The running call then answers
   * "Cancelled." and the screen shows it as it shows any refusal.
   */
  const cancel = async () => {
    const r =
      paid && paid.tenderId === ''
        ? await bridge.send('sale.cancel', { ticketId: paid.ticketId })
        : await bridge.send('cardWait.cancel', {});
    if (!r.ok) setError(describeError(r.error));
  };

  const busy = running !== null;
  const validReload = reloadCents !== undefined && reloadCents > 0;
  return (
    <div>
      <h1 tabIndex={-1}>{t('title')}</h1>
      <div className="sale">
        <div className="stack">
          <section className="card stack" aria-labelledby="gift-title">
            <h2 id="gift-title">{t('gift.title')}</h2>
            <fieldset className="row" disabled={busy}>
              <legend>{t('gift.read')}</legend>
              <label className="check">
                <input type="radio" name="gift-read" checked={!typed} onChange={() => setTyped(false)} />
                {t('gift.swipe')}
              </label>
              <label className="check">
                <input type="radio" name="gift-read" checked={typed} onChange={() => setTyped(true)} />
                {t('gift.type')}
              </label>
            </fieldset>
            {typed ? (
              <InputField
                id="gift-service-number"
                label={t('gift.number')}
                type="password"
                inputMode="numeric"
                autoComplete="off"
                disabled={busy}
                value={number}
                onChange={(e) => setNumber(e.target.value.replace(/\D/g, '').slice(0, 19))}
                aria-describedby="gift-service-number-hint"
              >
                <span className="hint" id="gift-service-number-hint">
                  {number.length >= 4 ? t('gift.endsIn', { last4: number.slice(-4) }) : t('gift.hidden')}
                </span>
              </InputField>
            ) : null}
            <form onSubmit={giftBalance} className="row">
              <button type="submit" className="btn btn-primary" disabled={busy}>
                {t('gift.balance')}
              </button>
            </form>
            <form onSubmit={giftReload} className="row" aria-labelledby="reload-title">
              <h3 id="reload-title" className="sr-only">
                {t('gift.reload')}
              </h3>
              <InputField
                id="reload-amount"
                label={t('gift.reloadAmount')}
                inputMode="decimal"
                autoComplete="off"
                disabled={busy || paid !== null}
                value={reloadAmount}
                onChange={(e) => setReloadAmount(e.target.value)}
                aria-describedby="reload-hint"
              />
              <fieldset className="row" disabled={busy || paid !== null}>
                <legend>{t('gift.paysWith')}</legend>
                <label className="check">
                  <input
                    type="radio"
                    name="reload-pay"
                    checked={payWith === 'cash'}
                    onChange={() => setPayWith('cash')}
                  />
                  {t('gift.cash')}
                </label>
                <label className="check">
                  <input
                    type="radio"
                    name="reload-pay"
                    checked={payWith === 'card'}
                    onChange={() => setPayWith('card')}
                  />
                  {t('gift.card')}
                </label>
              </fieldset>
              <button type="submit" className="btn" disabled={busy || paid !== null}>
                {validReload ? t('gift.take', { amount: formatCents(reloadCents) }) : t('gift.reloadButton')}
              </button>
              <button type="button" className="btn" disabled={busy || paid !== null} onClick={managerLoad}>
                {t('gift.managerLoad')}
              </button>
            </form>
            <p className="hint" id="reload-hint">
              {t('gift.hint')}
            </p>
          </section>
        </div>
        <div className="stack">
          {/* Beside the gift card, not under it: both services' buttons are in view at 1024 x 768. */}
          <section className="card stack" aria-labelledby="ebt-title">
            <h2 id="ebt-title">{t('ebt.title')}</h2>
            <p className="hint">{t('ebt.hint')}</p>
            <div className="row">
              <button
                type="button"
                className="btn btn-primary"
                disabled={busy}
                onClick={() => ebtBalance('food')}
              >
                {t('ebt.food')}
              </button>
              <button type="button" className="btn" disabled={busy} onClick={() => ebtBalance('cash')}>
                {t('ebt.cash')}
              </button>
            </div>
          </section>
          {running ? (
            <WaitPanel running={running} progress={progress} onCancel={() => void cancel()} />
          ) : null}
          {paid && !running ? (
            <section className="card stack" aria-labelledby="paid-load-title" data-testid="paid-load">
              <h2 id="paid-load-title">{t('paid.title', { amount: formatCents(paid.amountCents) })}</h2>
              {paid.needsSignature ? (
                <>
                  <p>{t('paid.sign')}</p>
                  <button type="button" className="btn btn-primary" onClick={() => void signed()}>
                    {t('paid.signed')}
                  </button>
                </>
              ) : (
                <>
                  <p>{t('paid.readAgain')}</p>
                  <button type="button" className="btn btn-primary" onClick={() => load(paid)}>
                    {t('paid.loadNow', { amount: formatCents(paid.amountCents) })}
                  </button>
                </>
              )}
            </section>
          ) : null}
          <ErrorAlert message={error} />
          {result && !running ? <ResultPanel result={result} /> : null}
        </div>
      </div>
    </div>
  );
}
