import { useEffect, useRef, useState, type FormEvent } from 'react';
import type {
  BalanceView,
  BridgeResult,
  EbtProgram,
  SaleProgress,
  TransactionView,
} from '../../../../electron/bridge/contract';
import { cardLabel, formatCents, parseMoney } from '../../format/money';
import { describeError } from '../../state/app-store';
import { useBridge, useNow } from '../../state/context';
import { ErrorAlert, InputField } from '../../ui/fields';
import { Stat } from '../../ui/Stat';

type Running = 'gift-balance' | 'gift-reload' | 'ebt-food' | 'ebt-cash';

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
 * events carry `ticketId: ''` and the sale screen's store does not follow them.
 */
function useOutsideTicketProgress(active: boolean): SaleProgress | null {
  const bridge = useBridge();
  const [progress, setProgress] = useState<SaleProgress | null>(null);
  useEffect(() => {
    if (!active) {
      setProgress(null);
      return;
    }
    return bridge.on('sale.progress', (p) => {
      if (p.ticketId === '') setProgress(p);
    });
  }, [bridge, active]);
  return progress;
}

function WaitPanel({ running, progress }: { running: Running; progress: SaleProgress | null }) {
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
      {/* The bridge has no cancel for a wait outside a ticket (sale.cancel needs a ticket id): say how it ends. */}
      <p className="hint">
        {ebt
          ? 'To stop, the customer presses Cancel on the PIN pad; otherwise the wait times out.'
          : 'The wait ends when the card is read or the reader times out.'}
      </p>
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
  const [typed, setTyped] = useState(false);
  const [number, setNumber] = useState('');
  const [reloadAmount, setReloadAmount] = useState('');
  const [running, setRunning] = useState<Running | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState<string | null>(null);
  const progress = useOutsideTicketProgress(running !== null);
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
  const giftReload = (e: FormEvent) => {
    e.preventDefault();
    if (reloadCents === undefined || reloadCents <= 0) {
      setError('Type the reload amount like 25.00.');
      return;
    }
    const card = giftCard();
    if (!card) return;
    void run(
      'gift-reload',
      () => bridge.send('gift.reload', { amountCents: reloadCents, ...card }),
      (transaction) => {
        const newBalanceCents = balanceFromMessage(transaction.message);
        return { kind: 'reload', transaction, ...(newBalanceCents !== undefined ? { newBalanceCents } : {}) };
      },
    );
    setReloadAmount('');
  };

  const ebtBalance = (program: EbtProgram) =>
    void run(
      program === 'food' ? 'ebt-food' : 'ebt-cash',
      () => bridge.send('ebt.balance', { program }),
      (balance) => ({ kind: 'balance', balance }),
    );

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
                disabled={busy}
                value={reloadAmount}
                onChange={(e) => setReloadAmount(e.target.value)}
                aria-describedby="reload-hint"
              />
              <button type="submit" className="btn" disabled={busy}>
                {validReload ? `Reload ${formatCents(reloadCents)}` : 'Reload gift card'}
              </button>
            </form>
            <p className="hint" id="reload-hint">
              A reload is not part of a sale: take the customer’s payment for it on the Sale screen.
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
          {running ? <WaitPanel running={running} progress={progress} /> : null}
          <ErrorAlert message={error} />
          {result && !running ? <ResultPanel result={result} /> : null}
        </div>
      </div>
    </div>
  );
}
