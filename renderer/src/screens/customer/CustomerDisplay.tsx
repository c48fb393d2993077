import { useEffect, useState } from 'react';
import type { CustomerDisplayView, CustomerOutcomeView } from '../../../../electron/bridge/contract';
import type { ConnectionState } from '../../bridge/ws-bridge';
import { formatCents } from '../../format/money';
import { useCustomer, useCustomerStore } from './customer-context';
import { ReceiptAsk } from './ReceiptAsk';
import { SignatureAsk } from './SignatureAsk';
import { TicketPanel } from './TicketPanel';
import { TipAsk } from './TipAsk';
import { customerText as t, outcomeDetail, outcomeText, promptText, receiptResultText } from './strings';
import './customer.css';

export type ConnectionWatch = {
  state: () => ConnectionState;
  onState: (listener: (state: ConnectionState) => void) => () => void;
};

function Outcome({ outcome }: { outcome: CustomerOutcomeView }) {
  const good = outcome.kind === 'approved' || outcome.kind === 'cash';
  const detail =
    outcome.kind === 'cash'
      ? (outcome.changeCents ?? 0) > 0
        ? outcomeDetail.change(formatCents(outcome.changeCents ?? 0))
        : undefined
      : outcome.kind === 'partial'
        ? outcomeDetail.partial(formatCents(outcome.amountCents))
        : outcome.kind === 'declined'
          ? outcomeDetail.declined
          : outcome.card
            ? outcomeDetail.card(outcome.card.cardType ?? outcomeDetail.anyCard, outcome.card.last4)
            : undefined;
  return (
    <div
      className={`cd-outcome ${good ? 'cd-good' : 'cd-bad'}`}
      role="status"
      aria-labelledby="cd-outcome-title"
    >
      <h2 id="cd-outcome-title" className="cd-ask-title">
        {outcomeText[outcome.kind]}
      </h2>
      {detail ? <p className="cd-outcome-detail">{detail}</p> : null}
    </div>
  );
}

/** The right-hand side: what the customer does now (a tip, a card, a signature, a receipt) or its result. */
function Action({ view }: { view: CustomerDisplayView }) {
  const ticket = view.ticket;
  if (!ticket) return null;
  const ask = view.ask;
  if (ask?.kind === 'tip') return <TipAsk ask={ask} ticket={ticket} />;
  if (ask?.kind === 'signature') return <SignatureAsk ask={ask} />;
  if (view.phase === 'thanks')
    return (
      <div className="cd-stack">
        {view.outcome ? <Outcome outcome={view.outcome} /> : null}
        {ask?.kind === 'receipt' ? <ReceiptAsk ask={ask} /> : null}
        {view.receiptChoice ? (
          <>
            <p className="cd-hint" role="status">
              {receiptResultText[view.receiptChoice.result]}
            </p>
            <p className="cd-thanks">{t.thankYou}</p>
          </>
        ) : null}
      </div>
    );
  if (view.prompt)
    return (
      <div className="cd-prompt" role="status" aria-live="polite">
        <h2 className="cd-ask-title">{promptText[view.prompt.step]}</h2>
        {/* The reader's own words when they say more than the step ("Insert card", "Swipe again"). */}
        {view.prompt.device && view.prompt.device !== 'Insert, tap or swipe' ? (
          <p className="cd-hint">{view.prompt.device}</p>
        ) : null}
        <p className="cd-prompt-total">
          {t.total} {formatCents(ticket.remainingCents || ticket.totalCents)}
        </p>
      </div>
    );
  if (view.outcome) return <Outcome outcome={view.outcome} />;
  return <p className="cd-hint cd-ringing">{t.ringing}</p>;
}

function Refused() {
  const refused = useCustomer((s) => s.refused);
  const store = useCustomerStore();
  if (!refused) return null;
  return (
    <p className="cd-refused" role="alert">
      {t.somethingWrong}{' '}
      <button type="button" className="cd-button cd-small" onClick={() => store.getState().dismiss()}>
        OK
      </button>
    </p>
  );
}

/**
 * The customer-facing display: welcome while the lane is idle, the ticket as it is rung with the total,
 * the customer's own questions (tip, signature, receipt) and the outcome, then thanks. It shows only what
 * the core publishes for the customer (customer.updated) and answers only what it is asked.
 */
export function CustomerDisplay({ connection }: { connection?: ConnectionWatch }) {
  const store = useCustomerStore();
  const view = useCustomer((s) => s.view);
  const [state, setState] = useState<ConnectionState>(() => connection?.state() ?? 'open');

  useEffect(() => store.getState().init(), [store]);
  useEffect(() => {
    if (!connection) return;
    return connection.onState((s) => {
      setState(s);
      // Back after a drop: what happened meanwhile is read again.
      if (s === 'open') void store.getState().refresh();
    });
  }, [connection, store]);

  return (
    <div className="customer-display" lang="en">
      <header className="cd-header">
        <span className="cd-store">{view?.storeName ?? ''}</span>
      </header>
      {state !== 'open' ? (
        <p className="cd-banner" role="alert">
          {t.connecting}
        </p>
      ) : null}
      <main className="cd-main">
        {!view || view.phase === 'idle' || !view.ticket ? (
          <section className="cd-welcome" aria-labelledby="cd-welcome-title">
            <h1 id="cd-welcome-title">{t.welcome}</h1>
            <p>{view?.storeName ?? ''}</p>
          </section>
        ) : (
          <div className="cd-columns">
            <TicketPanel ticket={view.ticket} />
            <div className="cd-action">
              <h1 className="cd-visually-hidden">{view.phase === 'thanks' ? t.thankYou : t.yourOrder}</h1>
              <Refused />
              <Action view={view} />
            </div>
          </div>
        )}
      </main>
    </div>
  );
}
