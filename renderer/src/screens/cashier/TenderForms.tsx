import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TenderRequest } from '../../../../common/bridge/contract';
import { changeDueCents, changeNeedsConfirmation, LARGEST_BILL_CENTS } from '../../../../common/cash-change';
import { formatCents, popDigit, pushDigit } from '../../format/money';
import { useSale, useSaleStore } from '../../state/context';
import type { TenderForm } from '../../state/sale-store';
import { Dialog } from '../../ui/Dialog';
import { DigitsField, ErrorAlert, InputField, SelectField, type SelectOption } from '../../ui/fields';
import { figureFontSize } from '../../ui/figure';
import { Keypad } from '../../ui/Keypad';

function usePay() {
  const sale = useSaleStore();
  return (tender: TenderRequest) => void sale.getState().pay(tender);
}

function FormShell({
  title,
  children,
  onSubmit,
}: {
  title: string;
  children: React.ReactNode;
  onSubmit: () => void;
}) {
  const { t } = useTranslation('sale');
  const sale = useSaleStore();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <section aria-labelledby="form-title" className="card">
      <h2 id="form-title">{title}</h2>
      <form onSubmit={submit} className="stack">
        {children}
        {/* Kept in view at the bottom of the window while the form is taller than it (1024 x 768). */}
        <div className="row form-actions">
          <button type="button" className="btn" onClick={() => sale.getState().closeForm()}>
            {t('form.back')} <kbd aria-hidden="true">Esc</kbd>
          </button>
          <button type="submit" className="btn btn-primary">
            {t('form.continue')} <kbd aria-hidden="true">Enter</kbd>
          </button>
        </div>
      </form>
    </section>
  );
}

/**
 * The cash handed over. It starts at the amount due (Enter takes exact cash), and the first digit typed
 * replaces it: "5000" for a $50 bill reads $50.00, not $30.00 with digits pushed in behind. Change of
 * more than the largest bill over the amount due is confirmed first (common/cash-change.ts, the rule the
 * core records the change by).
 */
function CashForm({ dueCents }: { dueCents: number }) {
  const { t } = useTranslation('sale');
  const pay = usePay();
  const [cash, setCash] = useState({ cents: dueCents, prefilled: true });
  const [confirm, setConfirm] = useState(false);
  const cents = cash.cents;
  const type = (d: string) =>
    setCash((c) => ({ cents: pushDigit(c.prefilled ? 0 : c.cents, d), prefilled: false }));
  const erase = () => setCash((c) => ({ cents: c.prefilled ? 0 : popDigit(c.cents), prefilled: false }));
  const take = (tendered: number, confirmed = false) => {
    if (tendered <= 0) return;
    if (!confirmed && changeNeedsConfirmation(dueCents, tendered)) return setConfirm(true);
    pay({ kind: 'cash', tenderedCents: tendered, ...(confirmed ? { confirmLargeChange: true } : {}) });
  };
  const roundUps = [500, 1000, 2000, 5000, 10000]
    .map((step) => Math.ceil(dueCents / step) * step)
    .filter((v, i, all) => v > dueCents && all.indexOf(v) === i)
    .slice(0, 4);
  const change = changeDueCents(dueCents, cents);
  const changeText = formatCents(change);
  return (
    <FormShell title={t('cash.title', { amount: formatCents(dueCents) })} onSubmit={() => take(cents)}>
      <label htmlFor="cash-tendered">{t('cash.handedOver')}</label>
      <input
        id="cash-tendered"
        className={`amount${cash.prefilled ? ' prefilled' : ''}`}
        inputMode="decimal"
        autoComplete="off"
        autoFocus
        style={{ fontSize: figureFontSize(formatCents(cents), 2) }}
        value={formatCents(cents)}
        onChange={() => undefined}
        onKeyDown={(e) => {
          if (/^\d$/.test(e.key)) type(e.key);
          else if (e.key === 'Backspace') erase();
          else return;
          e.preventDefault();
          e.stopPropagation();
        }}
        aria-describedby="cash-hint cash-change"
      />
      <p id="cash-hint" className="hint">
        {cash.prefilled ? t('cash.hintPrefilled', { amount: formatCents(dueCents) }) : t('cash.hintTyped')}
      </p>
      <div id="cash-change" aria-live="polite">
        {cents >= dueCents ? (
          change > 0 ? (
            <p className="figure-hero">
              <span className="figure-label">{t('cash.changeDue')}</span>
              <strong style={{ fontSize: figureFontSize(changeText, 3.5) }}>{changeText}</strong>
            </p>
          ) : (
            <p>{t('cash.exact')}</p>
          )
        ) : (
          <p>{t('cash.short', { amount: formatCents(dueCents - cents) })}</p>
        )}
      </div>
      {/* One touch for the common case: the bill the customer handed over takes the tender at once. */}
      <div className="row" role="group" aria-label={t('cash.takeNow')}>
        <button type="button" className="btn" onClick={() => take(dueCents)}>
          {t('cash.exactButton', { amount: formatCents(dueCents) })}
        </button>
        {roundUps.map((v) => (
          <button key={v} type="button" className="btn" onClick={() => take(v)}>
            {formatCents(v)}
          </button>
        ))}
      </div>
      <Keypad label={t('cash.keypad')} onDigit={type} onBackspace={erase} />
      {confirm ? (
        <Dialog
          title={t('cash.checkTitle')}
          onClose={() => setConfirm(false)}
          initialFocus="cash-confirm-back"
        >
          <p className="dialog-reason">
            {t('cash.checkReason', {
              tendered: formatCents(cents),
              due: formatCents(dueCents),
              change: changeText,
              bill: formatCents(LARGEST_BILL_CENTS),
            })}
          </p>
          <div className="row">
            <button
              id="cash-confirm-back"
              type="button"
              className="btn btn-primary"
              onClick={() => setConfirm(false)}
            >
              {t('cash.checkBack')}
            </button>
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => {
                setConfirm(false);
                take(cents, true);
              }}
            >
              {t('cash.give', { change: changeText })}
            </button>
          </div>
        </Dialog>
      ) : null}
    </FormShell>
  );
}

function KeyedForm() {
  const { t } = useTranslation('sale');
  const pay = usePay();
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvn, setCvn] = useState('');
  const [zip, setZip] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    const pan = number.replace(/\D/g, '');
    if (pan.length < 12 || pan.length > 19) return setError(t('keyed.badNumber'));
    if (!/^(0[1-9]|1[0-2])\d{2}$/.test(expiry)) return setError(t('keyed.badExpiry'));
    // The number leaves this form only in the request to the core; the fields are cleared right away so
    // it does not linger in the page.
    setNumber('');
    setCvn('');
    pay({
      kind: 'credit',
      entry: 'keyed',
      keyed: { cardNumber: pan, expiry, ...(cvn ? { cvn } : {}), ...(zip ? { zip } : {}) },
    });
  };
  const last4 = number.replace(/\D/g, '').slice(-4);
  return (
    <FormShell title={t('keyed.title')} onSubmit={submit}>
      <div className="row">
        <InputField
          id="keyed-number"
          label={t('keyed.number')}
          type="password"
          inputMode="numeric"
          autoComplete="off"
          autoFocus
          value={number}
          onChange={(e) => setNumber(e.target.value.replace(/[^\d ]/g, ''))}
          aria-describedby="keyed-last4"
        >
          <span id="keyed-last4" className="hint">
            {last4.length === 4 ? t('keyed.endsIn', { last4 }) : t('keyed.hidden')}
          </span>
        </InputField>
        <DigitsField
          id="keyed-expiry"
          label={t('keyed.expiry')}
          maxLength={4}
          value={expiry}
          onDigits={setExpiry}
        />
        <DigitsField
          id="keyed-cvn"
          label={t('keyed.cvn')}
          type="password"
          maxLength={4}
          value={cvn}
          onDigits={setCvn}
        />
        <InputField
          id="keyed-zip"
          label={t('keyed.zip')}
          inputMode="numeric"
          autoComplete="off"
          maxLength={10}
          value={zip}
          onChange={(e) => setZip(e.target.value)}
        />
      </div>
      <ErrorAlert message={error} />
    </FormShell>
  );
}

function GiftForm() {
  const { t } = useTranslation('sale');
  const pay = usePay();
  const [number, setNumber] = useState('');
  return (
    <FormShell
      title={t('gift.title')}
      onSubmit={() => {
        const pan = number.replace(/\D/g, '');
        setNumber('');
        pay(
          pan.length > 0
            ? { kind: 'gift', entry: 'keyed', keyed: { cardNumber: pan } }
            : { kind: 'gift', entry: 'swipe' },
        );
      }}
    >
      <p>{t('gift.hint')}</p>
      <label htmlFor="gift-number">{t('gift.number')}</label>
      <input
        id="gift-number"
        type="password"
        inputMode="numeric"
        autoComplete="off"
        autoFocus
        value={number}
        onChange={(e) => setNumber(e.target.value.replace(/\D/g, ''))}
      />
    </FormShell>
  );
}

function DebitForm() {
  const { t } = useTranslation('sale');
  const pay = usePay();
  const [cashBack, setCashBack] = useState(0);
  const options = [0, 1000, 2000, 4000, 6000];
  return (
    <FormShell
      title={t('debit.title')}
      onSubmit={() =>
        pay({ kind: 'debit', entry: 'present', ...(cashBack > 0 ? { cashBackCents: cashBack } : {}) })
      }
    >
      <fieldset className="row">
        <legend>{t('debit.cashBack')}</legend>
        {options.map((c) => (
          <label key={c} className="check">
            <input
              type="radio"
              name="cashback"
              checked={cashBack === c}
              onChange={() => setCashBack(c)}
              autoFocus={c === 0}
            />
            {c === 0 ? t('debit.none') : formatCents(c)}
          </label>
        ))}
      </fieldset>
      <p className="hint">{t('debit.hint')}</p>
    </FormShell>
  );
}

function EbtForm() {
  const { t } = useTranslation('sale');
  const pay = usePay();
  const [program, setProgram] = useState<'food' | 'cash'>('food');
  return (
    <FormShell title={t('ebt.title')} onSubmit={() => pay({ kind: 'ebt', program, entry: 'present' })}>
      <fieldset className="row">
        <legend>{t('ebt.benefit')}</legend>
        <label className="check">
          <input
            type="radio"
            name="ebt"
            checked={program === 'food'}
            onChange={() => setProgram('food')}
            autoFocus
          />
          {t('ebt.food')}
        </label>
        <label className="check">
          <input type="radio" name="ebt" checked={program === 'cash'} onChange={() => setProgram('cash')} />
          {t('ebt.cash')}
        </label>
      </fieldset>
    </FormShell>
  );
}

function CheckForm() {
  const { t } = useTranslation('sale');
  const accountTypes: readonly SelectOption<'CHECKING' | 'SAVING'>[] = [
    ['CHECKING', t('check.checking')],
    ['SAVING', t('check.savings')],
  ];
  const pay = usePay();
  const [routing, setRouting] = useState('');
  const [account, setAccount] = useState('');
  const [checkNumber, setCheckNumber] = useState('');
  const [type, setType] = useState<'CHECKING' | 'SAVING'>('CHECKING');
  const [error, setError] = useState<string | null>(null);
  return (
    <FormShell
      title={t('check.title')}
      onSubmit={() => {
        if (!/^\d{9}$/.test(routing)) return setError(t('check.badRouting'));
        if (!/^\d{4,17}$/.test(account)) return setError(t('check.badAccount'));
        if (!/^\d{1,10}$/.test(checkNumber)) return setError(t('check.badNumber'));
        setAccount('');
        pay({
          kind: 'check',
          check: { routingNumber: routing, accountNumber: account, checkNumber, accountType: type },
        });
      }}
    >
      <div className="row">
        <DigitsField
          id="check-routing"
          label={t('check.routing')}
          autoFocus
          maxLength={9}
          value={routing}
          onDigits={setRouting}
        />
        <DigitsField
          id="check-account"
          label={t('check.account')}
          type="password"
          maxLength={17}
          value={account}
          onDigits={setAccount}
        />
        <DigitsField
          id="check-number"
          label={t('check.number')}
          maxLength={10}
          value={checkNumber}
          onDigits={setCheckNumber}
        />
        <SelectField
          id="check-type"
          label={t('check.type')}
          value={type}
          options={accountTypes}
          onChange={setType}
        />
      </div>
      <ErrorAlert message={error} />
    </FormShell>
  );
}

export function TenderFormPanel({ form }: { form: TenderForm }) {
  const due = useSale((s) => s.ticket?.remainingCents ?? 0);
  switch (form) {
    case 'cash':
      return <CashForm dueCents={due} />;
    case 'keyed':
      return <KeyedForm />;
    case 'gift':
      return <GiftForm />;
    case 'debit':
      return <DebitForm />;
    case 'ebt':
      return <EbtForm />;
    case 'check':
      return <CheckForm />;
  }
}
