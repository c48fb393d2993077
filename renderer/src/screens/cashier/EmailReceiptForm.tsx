import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReceiptView } from '../../../../common/bridge/contract';
import { emailAddressProblem, normalizeEmailAddress } from '../../../../common/email-address';
import { describeError } from '../../state/app-store';
import { useBridge } from '../../state/context';
import { ErrorAlert } from '../../ui/fields';

/**
 * "Email the receipt to": the customer's address, checked as the core checks it (common/email-address.ts),
 * then queued by the core (`email.receipt`), which answers at once ("Receipt queued for …") and sends it
 * in the background through the store's mail server: nothing here waits for the mail server.
 */
export function EmailReceiptForm({ receipt }: { receipt: ReceiptView }) {
  const { t } = useTranslation('sale');
  const bridge = useBridge();
  const [to, setTo] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const which = receipt.ticketId
    ? { ticketId: receipt.ticketId }
    : receipt.userTransactionNumber
      ? { userTransactionNumber: receipt.userTransactionNumber }
      : undefined;
  if (!which) return null;
  const send = async (e: FormEvent) => {
    e.preventDefault();
    const problem = emailAddressProblem(to);
    if (problem) {
      setNote(null);
      return setError(t('email.badAddress'));
    }
    setBusy(true);
    const r = await bridge.send('email.receipt', { ...which, to });
    setBusy(false);
    if (!r.ok) {
      setNote(null);
      return setError(describeError(r.error));
    }
    setError(null);
    // The core's words, in the window's language: the address as the cashier typed it.
    const typed = normalizeEmailAddress(to);
    setNote(
      !r.value.duplicate
        ? t('email.queued', { to: typed })
        : r.value.state === 'sent'
          ? t('email.alreadySent', { to: typed })
          : t('email.alreadyQueued', { to: typed }),
    );
    setTo('');
  };
  return (
    <form
      className="stack email-receipt"
      onSubmit={(e) => void send(e)}
      aria-label={t('email.form')}
      noValidate
    >
      <div className="field">
        <label htmlFor="receipt-email">{t('email.label')}</label>
        <div className="email-line">
          <input
            id="receipt-email"
            type="email"
            inputMode="email"
            autoComplete="off"
            spellCheck={false}
            value={to}
            onChange={(e) => setTo(e.target.value)}
            aria-describedby="receipt-email-hint"
            aria-invalid={error ? true : undefined}
          />
          <button type="submit" className="btn btn-primary" disabled={busy || to.trim() === ''}>
            {busy ? t('email.sending') : t('email.send')}
          </button>
        </div>
        <span id="receipt-email-hint" className="hint">
          {t('email.hint')}
        </span>
      </div>
      <p role="status" className="email-ok" data-testid="receipt-email-note">
        {note ?? ''}
      </p>
      <ErrorAlert message={error} />
    </form>
  );
}
