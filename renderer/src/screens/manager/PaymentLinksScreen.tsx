import { useState, type FormEvent } from 'react';
import { formatCents, parseMoney } from '../../format/money';
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

/** Payment links: create one for a customer who is not at the counter, copy it, disable it. */
export function PaymentLinksScreen() {
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
    if (amount.trim() && (cents === undefined || cents <= 0))
      return setError('Type the amount like 25.00, or leave it empty to let the customer enter it.');
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
    app.getState().notify('success', 'Payment link created.');
    void links.reload();
  };
  const disable = async (id: string) => {
    const r = await bridge.send('paymentLinks.disable', { id });
    if (!r.ok) return setError(describeError(r.error));
    app.getState().notify('success', 'Payment link disabled.');
    void links.reload();
  };

  return (
    <div>
      <h1 tabIndex={-1}>Payment links</h1>
      <form className="card stack" onSubmit={(e) => void create(e)} aria-labelledby="new-link-title">
        <h2 id="new-link-title">New link</h2>
        <div className="row">
          <InputField
            id="link-amount"
            label="Amount (empty: the customer types it)"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
          <InputField
            id="link-description"
            label="Description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
          <InputField
            id="link-invoice"
            label="Invoice number"
            value={invoice}
            onChange={(e) => setInvoice(e.target.value)}
          />
          <button type="submit" className="btn btn-primary" disabled={busy}>
            Create link
          </button>
        </div>
        <ErrorAlert message={error} />
      </form>
      <ErrorAlert message={links.error} />
      <table className="data">
        <TableHead columns={['Description', 'Amount', 'Status', 'Link', 'Actions']} numeric={['Amount']} />
        <tbody>
          {(links.data ?? []).length === 0 ? (
            <tr>
              <td colSpan={5}>{links.loading ? 'Loading…' : 'No payment links yet.'}</td>
            </tr>
          ) : (
            (links.data ?? []).map((l) => (
              <tr key={l.id}>
                <td>{l.description ?? '—'}</td>
                <td className="num">{l.amountCents !== undefined ? formatCents(l.amountCents) : 'open'}</td>
                <td>
                  <span className={`badge ${l.active ? 'badge-ok' : 'badge-muted'}`}>
                    {l.active ? l.status || 'Active' : l.status || 'Disabled'}
                  </span>
                </td>
                <td style={{ wordBreak: 'break-all' }}>{l.link}</td>
                <td>
                  <div className="row">
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-label={`Copy link ${l.description ?? l.id}`}
                      onClick={() =>
                        void copyText(l.link).then((ok) =>
                          app
                            .getState()
                            .notify(
                              ok ? 'success' : 'error',
                              ok ? 'Link copied.' : 'Could not copy: select the link instead.',
                            ),
                        )
                      }
                    >
                      Copy link
                    </button>
                    {l.active ? (
                      <button
                        type="button"
                        className="btn btn-small btn-danger"
                        aria-label={`Disable link ${l.description ?? l.id}`}
                        onClick={() => void disable(l.id)}
                      >
                        Disable
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
