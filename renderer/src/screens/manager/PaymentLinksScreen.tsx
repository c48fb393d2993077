import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCents, parseMoney } from '../../format/money';
import { messageFor } from '../../i18n/i18n';
import { describeError } from '../../state/app-store';
import { useAppStore, useBridge } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { ErrorAlert, InputField } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // The clipboard API needs a secure context or permission; the old path works in a plain page.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/** A link's status as the gateway names it (Paid, UnPaid), in the window's language. */
function statusText(status: string, active: boolean): string {
  if (status) return messageFor(`links:statuses.${status}`) ?? status;
  return messageFor(active ? 'links:active' : 'links:inactive') ?? '';
}

/** Payment links: create one for a customer who is not at the counter, copy it, disable it. */
export function PaymentLinksScreen() {
  const { t } = useTranslation(['links', 'common']);
  const links = useCommand('paymentLinks.list', {});
  const bridge = useBridge();
  const app = useAppStore();
  const [amount, setAmount] = useState('');
  const [description, setDescription] = useState('');
  const [invoice, setInvoice] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const cents = amount.trim() ? parseMoney(amount) : undefined;
    if (amount.trim() && (cents === undefined || cents <= 0)) return setError(t('badAmount'));
    setBusy(true);
    const r = await bridge.send('paymentLinks.create', {
      ...(cents !== undefined ? { amountCents: cents } : {}),
      ...(description.trim() ? { description: description.trim() } : {}),
      ...(invoice.trim() ? { invoiceNumber: invoice.trim() } : {}),
    });
    setBusy(false);
    if (!r.ok) return setError(describeError(r.error));
    setError(null);
    setAmount('');
    setDescription('');
    setInvoice('');
    app.getState().notify('success', t('created'));
    void links.reload();
  };
  const disable = async (id: string) => {
    const r = await bridge.send('paymentLinks.disable', { id });
    if (!r.ok) return setError(describeError(r.error));
    app.getState().notify('success', t('disabled'));
    void links.reload();
  };

  return (
    <div>
      <h1 tabIndex={-1}>{t('title')}</h1>
      <form className="card stack" onSubmit={(e) => void create(e)} aria-labelledby="new-link-title">
        <h2 id="new-link-title">{t('newTitle')}</h2>
        <div className="row">
          <InputField
            id="link-amount"
            label={t('amount')}
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
          <InputField
            id="link-description"
            label={t('description')}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
          <InputField
            id="link-invoice"
            label={t('invoice')}
            value={invoice}
            onChange={(e) => setInvoice(e.target.value)}
          />
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('create')}
          </button>
        </div>
        <ErrorAlert message={error} />
      </form>
      <ErrorAlert message={links.error} />
      <table className="data">
        <TableHead
          columns={[
            t('columns.description'),
            t('columns.amount'),
            t('columns.status'),
            t('columns.link'),
            t('columns.actions'),
          ]}
          numeric={[t('columns.amount')]}
        />
        <tbody>
          {(links.data ?? []).length === 0 ? (
            <tr>
              <td colSpan={5}>{links.loading ? t('common:loading') : t('none')}</td>
            </tr>
          ) : (
            (links.data ?? []).map((l) => (
              <tr key={l.id}>
                <td>{l.description ?? '—'}</td>
                <td className="num">
                  {l.amountCents !== undefined ? formatCents(l.amountCents) : t('open')}
                </td>
                <td>
                  <span className={`badge ${l.active ? 'badge-ok' : 'badge-muted'}`}>
                    {statusText(l.status, l.active)}
                  </span>
                </td>
                <td style={{ wordBreak: 'break-all' }}>{l.link}</td>
                <td>
                  <div className="row">
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-label={t('copyOf', { name: l.description ?? l.id })}
                      onClick={() =>
                        void copyText(l.link).then((ok) =>
                          app.getState().notify(ok ? 'success' : 'error', ok ? t('copied') : t('notCopied')),
                        )
                      }
                    >
                      {t('copy')}
                    </button>
                    {l.active ? (
                      <button
                        type="button"
                        className="btn btn-small btn-danger"
                        aria-label={t('disableOf', { name: l.description ?? l.id })}
                        onClick={() => void disable(l.id)}
                      >
                        {t('disable')}
                      </button>
                    ) : null}
                  </div>
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
