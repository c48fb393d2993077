import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomerAsk } from '../../../../common/bridge/contract';
import { emailAddressProblem } from '../../../../common/email-address';
import { useCustomer, useCustomerStore } from './customer-context';

/**
 * "Would you like a receipt?": Print, Email, No receipt. Email asks for the address on an on-screen
 * keyboard (a customer display has no keyboard of its own; a typed one works too). Where email receipts
 * are not set up the choice says so instead of pretending to send.
 */
export function ReceiptAsk({ ask }: { ask: Extract<CustomerAsk, { kind: 'receipt' }> }) {
  const { t } = useTranslation('customer');
  const store = useCustomerStore();
  const busy = useCustomer((s) => s.busy);
  const [mode, setMode] = useState<'choose' | 'email' | 'no-email'>('choose');
  if (mode === 'email') return <EmailEntry onCancel={() => setMode('choose')} />;
  return (
    <section className="cd-ask" aria-labelledby="cd-receipt-title">
      <h2 id="cd-receipt-title" className="cd-ask-title">
        {t('receiptTitle')}
      </h2>
      <div className="cd-choices cd-choices-stack" role="group" aria-label={t('receiptTitle')}>
        <button
          type="button"
          className="cd-choice"
          disabled={busy}
          onClick={() => void store.getState().receipt('print')}
        >
          <span className="cd-choice-main">{t('print')}</span>
        </button>
        <button
          type="button"
          className="cd-choice"
          disabled={busy}
          aria-describedby={mode === 'no-email' ? 'cd-no-email' : undefined}
          onClick={() => setMode(ask.email ? 'email' : 'no-email')}
        >
          <span className="cd-choice-main">{t('email')}</span>
        </button>
        <button
          type="button"
          className="cd-choice cd-choice-quiet"
          disabled={busy}
          onClick={() => void store.getState().receipt('none')}
        >
          <span className="cd-choice-main">{t('noReceipt')}</span>
        </button>
      </div>
      {mode === 'no-email' ? (
        <p id="cd-no-email" className="cd-hint cd-bad" role="status">
          {t('emailNotSetUp')}
        </p>
      ) : null}
    </section>
  );
}

const KEY_ROWS = ['1234567890', 'qwertyuiop', 'asdfghjkl@', 'zxcvbnm.-_'];

function EmailEntry({ onCancel }: { onCancel: () => void }) {
  const { t } = useTranslation('customer');
  const store = useCustomerStore();
  const busy = useCustomer((s) => s.busy);
  const [address, setAddress] = useState('');
  const problem = emailAddressProblem(address);
  const type = (s: string) => setAddress((a) => (a + s).slice(0, 254));
  return (
    <section className="cd-ask cd-email" aria-labelledby="cd-email-title">
      <h2 id="cd-email-title" className="cd-ask-title">
        {t('emailTitle')}
      </h2>
      <input
        className="cd-email-input"
        type="email"
        aria-labelledby="cd-email-title"
        autoComplete="off"
        spellCheck={false}
        value={address}
        onChange={(e) => setAddress(e.target.value.slice(0, 254))}
      />
      <div className="cd-keyboard" role="group" aria-label={t('emailKeyboard')}>
        {KEY_ROWS.map((row) => (
          <div key={row} className="cd-key-row">
            {[...row].map((k) => (
              <button key={k} type="button" className="cd-key" onClick={() => type(k)}>
                {k}
              </button>
            ))}
          </div>
        ))}
        <div className="cd-key-row">
          <button type="button" className="cd-key cd-key-wide" onClick={() => type('.com')}>
            .com
          </button>
          <button
            type="button"
            className="cd-key cd-key-wide"
            onClick={() => setAddress((a) => a.slice(0, -1))}
          >
            {t('emailDelete')}
          </button>
          <button type="button" className="cd-key cd-key-wide" onClick={onCancel}>
            {t('emailCancel')}
          </button>
          <button
            type="button"
            className="cd-key cd-key-wide cd-primary"
            disabled={busy || problem !== undefined}
            onClick={() => void store.getState().receipt('email', address.trim())}
          >
            {t('emailSend')}
          </button>
        </div>
      </div>
    </section>
  );
}
