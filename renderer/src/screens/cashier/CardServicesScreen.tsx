import { useEffect, useRef, useState, type FormEvent } from 'react';
import type {
  BalanceView,
  BridgeResult,
  EbtProgram,
  SaleProgress,
  TransactionView,
} from '../../../../common/bridge/contract';
import { cardLabel, formatCents, parseMoney } from '../../format/money';
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

const balanceTitle: Record<BalanceView['kind'], string> = {
  gift: 'Gift card balance',
  'ebt-food': 'EBT food (SNAP) balance',
  'ebt-cash': 'EBT cash benefit balance',
};

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
  const left = deadline ? Math.max(0, Math.round((deadline - now) / 1000)) : null;
  const ebt = running === 'ebt-food' || running === 'ebt-cash';
  return (
    <section aria-labelledby="card-prompt" className="stack card">
      <h2 className="sr-only">In progress</h2>
      <div
        id="card-prompt"
        className="prompt"
        role="status"
        aria-live="assertive"
        data-step={progress?.step ?? 'starting'}
      >
        {progress?.prompt ?? 'Starting…'}
      </div>
      {left !== null ? <p className="hint">Times out in {left} s</p> : null}
      <div className="row">
        {/* Stops the readers and the PIN pad; an answer already asked of the gateway is not cancelled. */}
        <button type="button" className="btn" onClick={onCancel} disabled={progress?.step === 'authorizing'}>
          Cancel
        </button>
        <p className="hint">
          {ebt ? 'The customer may also press Cancel on the PIN pad.' : 'Or wait: the reader times out.'}
        </p>
      </div>
    </section>
  );
}

function ResultPanel({ result }: { result: Result }) {
  if (result.kind === 'balance') {
    const b = result.balance;
    return (
      <section className="outcome outcome-ok" aria-labelledby="card-result-title" role="status">
        <h2 id="card-result-title" tabIndex={-1}>
          {balanceTitle[b.kind]}
        </h2>
        <div className="stats">
          <Stat label="Balance" value={formatCents(b.balanceCents)} testId="card-balance" />
          <Stat label="Card" value={cardLabel(b.card)} testId="card-card" />
        </div>
      </section>
    );
  }
  const t = result.transaction;
  return (
    <section className="outcome outcome-ok" aria-labelledby="card-result-title" role="status">
      <h2 id="card-result-title" tabIndex={-1}>
        Gift card reloaded
      </h2>
      <p data-testid="reload-basis">
        {t.ticketId
          ? 'Paid on this lane before the load.'
          : 'Loaded without a payment, with a manager’s approval.'}
      </p>
      <div className="stats">
        <Stat label="Reloaded" value={formatCents(t.amountCents)} testId="reload-amount" />
        {result.newBalanceCents !== undefined ? (
          <Stat label="New balance" value={formatCents(result.newBalanceCents)} testId="card-balance" />
        ) : null}
        <Stat label="Card" value={cardLabel(t)} testId="card-card" />
        {t.authCode ? <Stat label="Auth number" value={t.authCode} /> : null}
      </div>
      {result.newBalanceCents === undefined && t.message ? <p>{t.message}</p> : null}
    </section>
  );
}

/**
 * Gift card balance and reload, EBT balances: card operations outside a sale. The card is read as in a
 * sale (swiped, or a gift number typed); EBT asks for the PIN on the PIN pad.
 */
export function CardServicesScreen() {
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
      setError('Type the gift card’s whole number, or choose Swipe.');
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
          ? `The payment did not go through: ${r.value.tender.message ?? r.value.tender.status}.`
          : describeError(r.error),
      );
      const abandon = await bridge.send('sale.abandon', { ticketId });
      if (!abandon.ok && abandon.error.code === 'forbidden')
        await app
          .getState()
          .withManager('Give up the load: the part already paid is reversed.', (approval) =>
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
      setError('Type the reload amount like 25.00.');
      return;
    }
    if (!giftCard()) return;
    void payAndLoad(reloadCents);
    setReloadAmount('');
  };

  /** A load with no payment (a promotion, a correction) is a manager's decision: the PIN is asked for. */
  const managerLoad = () => {
    if (reloadCents === undefined || reloadCents <= 0) {
      setError('Type the reload amount like 25.00.');
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
          .withManager(`Load ${formatCents(amountCents)} on the gift card without a payment.`, (approval) =>
            bridge.send('gift.reload', { amountCents, ...card, ...(approval ? { approval } : {}) }),
          )) ?? { ok: false, error: { code: 'forbidden', message: 'Cancelled: nothing was loaded.' } },
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
      <h1 tabIndex={-1}>Gift & EBT</h1>
      <div className="sale">
        <div className="stack">
          <section className="card stack" aria-labelledby="gift-title">
            <h2 id="gift-title">Gift card</h2>
            <fieldset className="row" disabled={busy}>
              <legend>How the card is read</legend>
              <label className="check">
                <input type="radio" name="gift-read" checked={!typed} onChange={() => setTyped(false)} />
                Swipe
              </label>
              <label className="check">
                <input type="radio" name="gift-read" checked={typed} onChange={() => setTyped(true)} />
                Type the number
              </label>
            </fieldset>
            {typed ? (
              <InputField
                id="gift-service-number"
                label="Gift card number"
                type="password"
                inputMode="numeric"
                autoComplete="off"
                disabled={busy}
                value={number}
                onChange={(e) => setNumber(e.target.value.replace(/\D/g, '').slice(0, 19))}
                aria-describedby="gift-service-number-hint"
              >
                <span className="hint" id="gift-service-number-hint">
                  {number.length >= 4 ? `Ends in ${number.slice(-4)}` : 'Hidden as you type'}
                </span>
              </InputField>
            ) : null}
            <form onSubmit={giftBalance} className="row">
              <button type="submit" className="btn btn-primary" disabled={busy}>
                Check gift balance
              </button>
            </form>
            <form onSubmit={giftReload} className="row" aria-labelledby="reload-title">
              <h3 id="reload-title" className="sr-only">
                Reload
              </h3>
              <InputField
                id="reload-amount"
                label="Reload amount"
                inputMode="decimal"
                autoComplete="off"
                disabled={busy || paid !== null}
                value={reloadAmount}
                onChange={(e) => setReloadAmount(e.target.value)}
                aria-describedby="reload-hint"
              />
              <fieldset className="row" disabled={busy || paid !== null}>
                <legend>Customer pays with</legend>
                <label className="check">
                  <input
                    type="radio"
                    name="reload-pay"
                    checked={payWith === 'cash'}
                    onChange={() => setPayWith('cash')}
                  />
                  Cash
                </label>
                <label className="check">
                  <input
                    type="radio"
                    name="reload-pay"
                    checked={payWith === 'card'}
                    onChange={() => setPayWith('card')}
                  />
                  Card
                </label>
              </fieldset>
              <button type="submit" className="btn" disabled={busy || paid !== null}>
                {validReload ? `Take ${formatCents(reloadCents)} and reload` : 'Reload gift card'}
              </button>
              <button type="button" className="btn" disabled={busy || paid !== null} onClick={managerLoad}>
                Load without payment (manager)
              </button>
            </form>
            <p className="hint" id="reload-hint">
              The customer pays for the load first (no tax); then the gift card is read and loaded.
            </p>
          </section>
          <section className="card stack" aria-labelledby="ebt-title">
            <h2 id="ebt-title">EBT balance</h2>
            <p className="hint">The customer inserts, taps or swipes the EBT card, then enters the PIN.</p>
            <div className="row">
              <button
                type="button"
                className="btn btn-primary"
                disabled={busy}
                onClick={() => ebtBalance('food')}
              >
                Food (SNAP) balance
              </button>
              <button type="button" className="btn" disabled={busy} onClick={() => ebtBalance('cash')}>
                Cash benefit balance
              </button>
            </div>
          </section>
        </div>
        <div className="stack">
          {running ? (
            <WaitPanel running={running} progress={progress} onCancel={() => void cancel()} />
          ) : null}
          {paid && !running ? (
            <section className="card stack" aria-labelledby="paid-load-title" data-testid="paid-load">
              <h2 id="paid-load-title">Load paid: {formatCents(paid.amountCents)}</h2>
              {paid.needsSignature ? (
                <>
                  <p>The customer signs on the signature pad for the card payment.</p>
                  <button type="button" className="btn btn-primary" onClick={() => void signed()}>
                    Customer has signed on the pad
                  </button>
                </>
              ) : (
                <>
                  <p>The payment is taken; the card is not loaded yet. Read the gift card again.</p>
                  <button type="button" className="btn btn-primary" onClick={() => load(paid)}>
                    Load {formatCents(paid.amountCents)} now
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
