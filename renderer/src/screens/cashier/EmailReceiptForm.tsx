import { useState, type FormEvent } from 'react';
import type { ReceiptView } from '../../../../common/bridge/contract';
import { emailAddressProblem } from '../../../../common/email-address';
import { describeError } from '../../state/app-store';
import { useBridge } from '../../state/context';
import { ErrorAlert } from '../../ui/fields';

/** Every string of the form, in one place (a later change moves them into the translation catalogs). */
const WORDS = {
  label: 'Email the receipt to',
  hint: 'Used only to send this receipt.',
  send: 'Send email',
  sending: 'Queuing…',
} as const;

/**
 * "Email the receipt to": the customer's address, checked as the core checks it (common/email-address.ts),
 * then queued by the core (`email.receipt`), which answers at once ("Receipt queued for …") and sends it
 * in the background through the store's mail server: nothing here waits for the mail server.
 */
export function EmailReceiptForm({ receipt }: { receipt: ReceiptView }) {
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
      return setError(problem);
    }
    setBusy(true);
    const r = await bridge.send('email.receipt', { ...which, to });
    setBusy(false);
    if (!r.ok) {
      setNote(null);
      return setError(describeError(r.error));
    }
    setError(null);
    setNote(r.value.message);
    setTo('');
  };
  return (
    <form
      className="stack email-receipt"
      onSubmit={(e) => void send(e)}
      aria-label="Email the receipt"
      noValidate
    >
      <div className="field">
        <label htmlFor="receipt-email">{WORDS.label}</label>
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
            {busy ? WORDS.sending : WORDS.send}
          </button>
        </div>
        <span id="receipt-email-hint" className="hint">
          {WORDS.hint}
        </span>
      </div>
      <p role="status" className="email-ok" data-testid="receipt-email-note">
        {note ?? ''}
      </p>
      <ErrorAlert message={error} />
    </form>
  );
}
