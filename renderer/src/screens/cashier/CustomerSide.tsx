import { useState } from 'react';
import type { CustomerDisplayView } from '../../../../common/bridge/contract';
import { tipOptions } from '../../../../common/tip-choice';
import { formatCents } from '../../format/money';
import { useBridge, useSale, useSaleStore } from '../../state/context';
import { describeError } from '../../state/app-store';
import { Dialog } from '../../ui/Dialog';

/** The cashier's words about the customer display, in one place. */
const words = {
  waitingTip: 'Waiting for the customer to choose a tip',
  tipsOffered: 'The customer display offers:',
  customOrNone: 'a custom amount, or no tip.',
  skip: 'Skip tip',
  cancel: 'Cancel',
  tipOnDisplay: 'The customer chooses the tip on the customer display.',
  signOnDisplay: 'The customer can also sign on the customer display.',
  button: 'Customer display',
  buttonAttached: (n: number) =>
    n === 1 ? 'Customer display: connected' : `Customer displays: ${n} connected`,
  dialogTitle: 'Customer display',
  dialogHelp:
    'Open this address on the customer’s screen (it works once; ask again for another screen). The customer display shows the sale, the tip choice, the signature and the receipt choice, and can do nothing else.',
  open: 'Open in a new window',
  close: 'Close',
  receipt: {
    waiting: 'The customer is choosing a receipt.',
    printed: 'The customer chose a printed receipt.',
    'not-printed': 'The customer chose a printed receipt, but it could not print.',
    'email-queued': 'The customer chose an email receipt: it is queued.',
    'email-failed': 'The customer chose an email receipt, but it could not be queued.',
    'email-not-set-up': 'The customer chose an email receipt, but email is not set up.',
    none: 'The customer chose no receipt.',
  },
  tipChosen: (v: NonNullable<CustomerDisplayView['tipChoice']>) =>
    v.kind === 'skipped'
      ? 'Tip skipped by the cashier.'
      : v.kind === 'none'
        ? 'The customer chose no tip.'
        : v.kind === 'preset'
          ? `The customer chose a ${v.percent ?? ''}% tip: ${formatCents(v.tipCents)}.`
          : `The customer chose a custom tip: ${formatCents(v.tipCents)}.`,
} as const;

/**
 * "Waiting for the customer to choose a tip": the cashier sees what the customer is offered (the same
 * amounts, by the one tip rule) and may skip the tip or go back.
 */
export function TipWaitPanel() {
  const sale = useSaleStore();
  const ticket = useSale((s) => s.ticket);
  const presets = useSale((s) => s.settings?.tipPresetsPercent ?? []);
  const [busy, setBusy] = useState(false);
  const options = ticket ? tipOptions(ticket.subtotalCents, presets) : [];
  const end = (action: 'skip' | 'cancel') => {
    setBusy(true);
    void sale
      .getState()
      .endTipAsk(action)
      .finally(() => setBusy(false));
  };
  return (
    <section aria-labelledby="tip-wait" className="stack">
      <div id="tip-wait" className="prompt" role="status" aria-live="assertive" data-step="tip">
        {words.waitingTip}
      </div>
      <p className="hint">
        {words.tipsOffered} {options.map((o) => `${o.percent}% (${formatCents(o.tipCents)})`).join(', ')}
        {options.length > 0 ? ', ' : ' '}
        {words.customOrNone}
      </p>
      <div className="row">
        <button type="button" className="btn" disabled={busy} onClick={() => end('skip')} data-autofocus>
          {words.skip}
        </button>
        <button
          type="button"
          className="btn btn-danger"
          disabled={busy}
          onClick={() => end('cancel')}
          aria-keyshortcuts="Escape"
        >
          {words.cancel} <kbd aria-hidden="true">Esc</kbd>
        </button>
      </div>
    </section>
  );
}

/** In place of the tip radios while the customer chooses the tip. */
export function TipOnDisplayNote() {
  return <p className="hint">{words.tipOnDisplay}</p>;
}

export function SignOnDisplayNote() {
  const attached = useSale((s) => (s.customer?.displays ?? 0) > 0);
  return attached ? <p className="hint">{words.signOnDisplay}</p> : null;
}

/** What the customer chose on the display for the ticket on screen: the tip, then the receipt. */
export function CustomerChoices() {
  const customer = useSale((s) => s.customer);
  const ticketId = useSale((s) => s.ticket?.ticketId);
  if (!customer || !customer.ticket || customer.ticket.ticketId !== ticketId || customer.displays === 0)
    return null;
  const receipt =
    customer.receiptChoice !== undefined
      ? words.receipt[customer.receiptChoice.result]
      : customer.ask?.kind === 'receipt'
        ? words.receipt.waiting
        : undefined;
  if (!customer.tipChoice && !receipt) return null;
  return (
    <p className="hint" role="status" data-testid="customer-choices">
      {customer.tipChoice ? words.tipChosen(customer.tipChoice) : null} {receipt ?? null}
    </p>
  );
}

/**
 * "Customer display": the address of a customer display window, with its own one-time launch token (the
 * customer's view and answers only). The Electron app opens one on a second screen by itself.
 */
export function CustomerDisplayButton() {
  const bridge = useBridge();
  const displays = useSale((s) => s.customer?.displays ?? 0);
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const open = async () => {
    const r = await bridge.send('customerDisplay.launch', {});
    if (r.ok) {
      setUrl(r.value.url);
      setError(null);
    } else setError(describeError(r.error));
  };
  return (
    <>
      <button type="button" className="btn" onClick={() => void open()}>
        {displays > 0 ? words.buttonAttached(displays) : words.button}
      </button>
      {error ? (
        <p className="hint" role="alert">
          {error}
        </p>
      ) : null}
      {url ? (
        <Dialog title={words.dialogTitle} onClose={() => setUrl(null)} initialFocus="customer-display-open">
          <p>{words.dialogHelp}</p>
          <p>
            <code className="launch-url" data-testid="customer-display-url">
              {url}
            </code>
          </p>
          <div className="row">
            <button
              id="customer-display-open"
              type="button"
              className="btn btn-primary"
              onClick={() => {
                window.open(url, 'tillpoint-customer-display', 'popup');
                setUrl(null);
              }}
            >
              {words.open}
            </button>
            <button type="button" className="btn" onClick={() => setUrl(null)}>
              {words.close}
            </button>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}
