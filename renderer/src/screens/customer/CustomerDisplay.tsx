import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { CustomerDisplayView, CustomerOutcomeView } from '../../../../common/bridge/contract';
import { languageOf, type Language } from '../../../../common/store-locale';
import type { ConnectionState } from '../../bridge/ws-bridge';
import { formatCents } from '../../format/money';
import { en } from '../../i18n/en';
import { chooseLanguage, localeStore } from '../../i18n/locale';
import { useCustomer, useCustomerStore } from './customer-context';
import { chooseCustomerLanguage } from './customer-language';
import { ReceiptAsk } from './ReceiptAsk';
import { SignatureAsk } from './SignatureAsk';
import { TicketPanel } from './TicketPanel';
import { TipAsk } from './TipAsk';
import './customer.css';

type DeviceWord = keyof typeof en.customer.device;

/**
 * The card reader's words (the core's, in English) by their message in the customer's catalog: the
 * English catalog holds the same words, so it finds them; a prompt it does not know is shown as it came.
 */
function deviceWord(prompt: string): DeviceWord | undefined {
  return (Object.keys(en.customer.device) as DeviceWord[]).find((k) => en.customer.device[k] === prompt);
}

export type ConnectionWatch = {
  state: () => ConnectionState;
  onState: (listener: (state: ConnectionState) => void) => () => void;
};

function Outcome({ outcome }: { outcome: CustomerOutcomeView }) {
  const { t } = useTranslation('customer');
  const good = outcome.kind === 'approved' || outcome.kind === 'cash';
  const brand = outcome.card?.cardType ?? t('outcomeDetail.anyCard');
  const detail =
    outcome.kind === 'cash'
      ? (outcome.changeCents ?? 0) > 0
        ? t('outcomeDetail.change', { change: formatCents(outcome.changeCents ?? 0) })
        : undefined
      : outcome.kind === 'partial'
        ? t('outcomeDetail.partial', { approved: formatCents(outcome.amountCents) })
        : outcome.kind === 'declined'
          ? t('outcomeDetail.declined')
          : outcome.card
            ? outcome.card.last4
              ? t('outcomeDetail.card', { brand, last4: outcome.card.last4 })
              : brand
            : undefined;
  return (
    <div
      className={`cd-outcome ${good ? 'cd-good' : 'cd-bad'}`}
      role="status"
      aria-labelledby="cd-outcome-title"
    >
      <h2 id="cd-outcome-title" className="cd-ask-title">
        {t(`outcome.${outcome.kind}`)}
      </h2>
      {detail ? <p className="cd-outcome-detail">{detail}</p> : null}
    </div>
  );
}

/** The right-hand side: what the customer does now (a tip, a card, a signature, a receipt) or its result. */
function Action({ view }: { view: CustomerDisplayView }) {
  const { t } = useTranslation('customer');
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
              {t(`receiptResult.${view.receiptChoice.result}`)}
            </p>
            <p className="cd-thanks">{t('thankYou')}</p>
          </>
        ) : null}
      </div>
    );
  if (view.prompt) {
    const device = view.prompt.device;
    const known = device ? deviceWord(device) : undefined;
    return (
      <div className="cd-prompt" role="status" aria-live="polite">
        <h2 className="cd-ask-title">{t(`prompt.${view.prompt.step}`)}</h2>
        {/* The reader's own words when they say more than the step ("Insert card", "Swipe again"). */}
        {device && device !== 'Insert, tap or swipe' ? (
          <p className="cd-hint">{known ? t(`device.${known}`) : device}</p>
        ) : null}
        <p className="cd-prompt-total">
          {t('totalAmount', { amount: formatCents(ticket.remainingCents || ticket.totalCents) })}
        </p>
      </div>
    );
  }
  if (view.outcome) return <Outcome outcome={view.outcome} />;
  return <p className="cd-hint cd-ringing">{t('ringing')}</p>;
}

function Refused() {
  const { t } = useTranslation('customer');
  const refused = useCustomer((s) => s.refused);
  const store = useCustomerStore();
  if (!refused) return null;
  return (
    <p className="cd-refused" role="alert">
      {t('somethingWrong')}{' '}
      <button type="button" className="cd-button cd-small" onClick={() => store.getState().dismiss()}>
        {t('ok')}
      </button>
    </p>
  );
}

/**
 * The customer-facing display: welcome while the lane is idle, the ticket as it is rung with the total,
 * the customer's own questions (tip, signature, receipt) and the outcome, then thanks. It shows only what
 * the core publishes for the customer (customer.updated) and answers only what it is asked.
 */
/**
 * The customer's own language choice: the other language, named in its own words, as a big target in the
 * display's header. It lasts for the customer's sale (customer-language.ts).
 */
function LanguageChoice({ ticketId }: { ticketId: string | null }) {
  const { t } = useTranslation(['common', 'customer']);
  const language = useStore(localeStore, (s) => s.language);
  const storeLanguage = useStore(localeStore, (s) => languageOf(s.store.locale));
  const next: Language = language === 'es' ? 'en' : 'es';
  return (
    <button
      type="button"
      className="cd-button cd-language"
      lang={next}
      title={t(`language.switchLabel_${next}`)}
      onClick={() => (next === storeLanguage ? chooseLanguage(null) : chooseCustomerLanguage(next, ticketId))}
    >
      {t(`language.switchTo_${next}`)}
    </button>
  );
}

export function CustomerDisplay({ connection }: { connection?: ConnectionWatch }) {
  const { t } = useTranslation('customer');
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
    <div className="customer-display">
      <header className="cd-header">
        <span className="cd-store">{view?.storeName ?? ''}</span>
        <LanguageChoice ticketId={view && view.phase !== 'idle' ? (view.ticket?.ticketId ?? null) : null} />
      </header>
      {state !== 'open' ? (
        <p className="cd-banner" role="alert">
          {t('connecting')}
        </p>
      ) : null}
      <main className="cd-main">
        {!view || view.phase === 'idle' || !view.ticket ? (
          <section className="cd-welcome" aria-labelledby="cd-welcome-title">
            <h1 id="cd-welcome-title">{t('welcome')}</h1>
            <p>{view?.storeName ?? ''}</p>
          </section>
        ) : (
          <div className="cd-columns">
            <TicketPanel ticket={view.ticket} />
            <div className="cd-action">
              <h1 className="cd-visually-hidden">
                {view.phase === 'thanks' ? t('thankYou') : t('yourOrder')}
              </h1>
              <Refused />
              <Action view={view} />
            </div>
          </div>
        )}
      </main>
    </div>
  );
}
