import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomerAsk, CustomerTicketView } from '../../../../common/bridge/contract';
import { customTipProblem } from '../../../../common/tip-choice';
import { formatCents, popDigit, pushDigit } from '../../format/money';
import { Keypad } from '../../ui/Keypad';
import { useCustomer, useCustomerStore } from './customer-context';

type TipQuestion = Extract<CustomerAsk, { kind: 'tip' }>;

/**
 * "Add a tip?": each preset as a big button with the amount it adds (the core's own figures, by the one
 * tip rule), a custom amount on a keypad, or no tip. The customer answers; the cashier waits.
 */
export function TipAsk({ ask, ticket }: { ask: TipQuestion; ticket: CustomerTicketView }) {
  const { t } = useTranslation('customer');
  const store = useCustomerStore();
  const busy = useCustomer((s) => s.busy);
  const [custom, setCustom] = useState<number | null>(null);
  if (custom !== null) return <CustomTip ask={ask} ticket={ticket} cents={custom} setCents={setCustom} />;
  return (
    <section className="cd-ask" aria-labelledby="cd-tip-title">
      <h2 id="cd-tip-title" className="cd-ask-title">
        {t('tipTitle')}
      </h2>
      <p className="cd-hint">{t('tipFor', { subtotal: formatCents(ask.baseCents) })}</p>
      <div className="cd-choices" role="group" aria-label={t('tipTitle')}>
        {ask.options.map((o) => (
          <button
            key={o.percent}
            type="button"
            className="cd-choice"
            disabled={busy}
            onClick={() => void store.getState().tip({ kind: 'preset', percent: o.percent })}
          >
            <span className="cd-choice-main">{t('tipPreset', { percent: o.percent })}</span>
            <span className="cd-choice-sub">{formatCents(o.tipCents)}</span>
          </button>
        ))}
        <button type="button" className="cd-choice" disabled={busy} onClick={() => setCustom(0)}>
          <span className="cd-choice-main">{t('customTip')}</span>
        </button>
        <button
          type="button"
          className="cd-choice cd-choice-quiet"
          disabled={busy}
          onClick={() => void store.getState().tip({ kind: 'none' })}
        >
          <span className="cd-choice-main">{t('noTip')}</span>
        </button>
      </div>
    </section>
  );
}

function CustomTip({
  ask,
  ticket,
  cents,
  setCents,
}: {
  ask: TipQuestion;
  ticket: CustomerTicketView;
  cents: number;
  setCents: (c: number | null) => void;
}) {
  const { t } = useTranslation('customer');
  const store = useCustomerStore();
  const busy = useCustomer((s) => s.busy);
  // The same bound the core applies (common/tip-choice.ts): the customer learns it before sending.
  const tooHigh = customTipProblem(cents, ask.baseCents) !== undefined;
  const max = formatCents(ask.maxCustomCents);
  const amount = formatCents(cents);
  return (
    <section className="cd-ask cd-custom" aria-labelledby="cd-custom-title">
      <h2 id="cd-custom-title" className="cd-ask-title">
        {t('customTitle')}
      </h2>
      <output className="cd-custom-amount" aria-label={t('customAmount')} htmlFor="cd-tip-keypad">
        {amount}
      </output>
      <p className={tooHigh ? 'cd-hint cd-bad' : 'cd-hint'} role={tooHigh ? 'alert' : undefined}>
        {tooHigh
          ? t('customTooHigh', { max })
          : `${t('customUpTo', { max })} ${t('newTotal', { total: formatCents(ticket.totalCents + cents) })}`}
      </p>
      <div id="cd-tip-keypad">
        <Keypad
          label={t('customKeypad')}
          disabled={busy}
          onDigit={(d) => setCents(pushDigit(cents, d))}
          onBackspace={() => setCents(popDigit(cents))}
        />
      </div>
      <div className="cd-row">
        <button type="button" className="cd-button" disabled={busy} onClick={() => setCents(null)}>
          {t('back')}
        </button>
        <button
          type="button"
          className="cd-button cd-primary"
          disabled={busy || cents === 0 || tooHigh}
          onClick={() => void store.getState().tip({ kind: 'custom', tipCents: cents })}
        >
          {t('addTip', { amount })}
        </button>
      </div>
    </section>
  );
}
