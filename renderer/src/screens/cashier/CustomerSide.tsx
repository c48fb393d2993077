import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomerDisplayView } from '../../../../common/bridge/contract';
import { tipOptions } from '../../../../common/tip-choice';
import { formatCents } from '../../format/money';
import { i18n } from '../../i18n/i18n';
import { useBridge, useSale, useSaleStore } from '../../state/context';
import { describeError } from '../../state/app-store';
import { Dialog } from '../../ui/Dialog';

/** What the customer chose as the tip, in the cashier's words. */
function tipChosen(v: NonNullable<CustomerDisplayView['tipChoice']>): string {
  const amount = formatCents(v.tipCents);
  return v.kind === 'skipped'
    ? i18n.t('sale:customer.tipSkipped')
    : v.kind === 'none'
      ? i18n.t('sale:customer.tipNone')
      : v.kind === 'preset'
        ? i18n.t('sale:customer.tipPreset', { percent: v.percent ?? '', amount })
        : i18n.t('sale:customer.tipCustom', { amount });
}

/**
 * "Waiting for the customer to choose a tip": the cashier sees what the customer is offered (the same
 * amounts, by the one tip rule) and may skip the tip or go back.
 */
export function TipWaitPanel() {
  const { t } = useTranslation('sale');
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
        {t('customer.waitingTip')}
      </div>
      <p className="hint">
        {t('customer.tipsOffered')}{' '}
        {options
          .map((o) => t('customer.tipOption', { percent: o.percent, amount: formatCents(o.tipCents) }))
          .join(', ')}
        {options.length > 0 ? ', ' : ' '}
        {t('customer.customOrNone')}
      </p>
      <div className="row">
        <button type="button" className="btn" disabled={busy} onClick={() => end('skip')} data-autofocus>
          {t('customer.skip')}
        </button>
        <button
          type="button"
          className="btn btn-danger"
          disabled={busy}
          onClick={() => end('cancel')}
          aria-keyshortcuts="Escape"
        >
          {t('customer.cancel')} <kbd aria-hidden="true">Esc</kbd>
        </button>
      </div>
    </section>
  );
}

/** In place of the tip radios while the customer chooses the tip. */
export function TipOnDisplayNote() {
  const { t } = useTranslation('sale');
  return <p className="hint">{t('customer.tipOnDisplay')}</p>;
}

export function SignOnDisplayNote() {
  const { t } = useTranslation('sale');
  const attached = useSale((s) => (s.customer?.displays ?? 0) > 0);
  return attached ? <p className="hint">{t('customer.signOnDisplay')}</p> : null;
}

/** What the customer chose on the display for the ticket on screen: the tip, then the receipt. */
export function CustomerChoices() {
  const { t } = useTranslation('sale');
  const customer = useSale((s) => s.customer);
  const ticketId = useSale((s) => s.ticket?.ticketId);
  if (!customer || !customer.ticket || customer.ticket.ticketId !== ticketId || customer.displays === 0)
    return null;
  const receipt =
    customer.receiptChoice !== undefined
      ? t(`customer.receipt.${customer.receiptChoice.result}`)
      : customer.ask?.kind === 'receipt'
        ? t('customer.receipt.waiting')
        : undefined;
  if (!customer.tipChoice && !receipt) return null;
  return (
    <p className="hint" role="status" data-testid="customer-choices">
      {customer.tipChoice ? tipChosen(customer.tipChoice) : null} {receipt ?? null}
    </p>
  );
}

/**
 * "Customer display": the address of a customer display window, with its own one-time launch token (the
 * customer's view and answers only). The Electron app opens one on a second screen by itself.
 */
export function CustomerDisplayButton() {
  const { t } = useTranslation('sale');
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
        {displays > 0 ? t('customer.buttonAttached', { count: displays }) : t('customer.button')}
      </button>
      {error ? (
        <p className="hint" role="alert">
          {error}
        </p>
      ) : null}
      {url ? (
        <Dialog
          title={t('customer.dialogTitle')}
          onClose={() => setUrl(null)}
          initialFocus="customer-display-open"
        >
          <p>{t('customer.dialogHelp')}</p>
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
              {t('customer.open')}
            </button>
            <button type="button" className="btn" onClick={() => setUrl(null)}>
              {t('customer.close')}
            </button>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}
