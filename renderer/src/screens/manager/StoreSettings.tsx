import { useEffect, useState, type FormEvent } from 'react';
import { STORE_PROFILE_LIMITS } from '../../../../electron/bridge/contract';
import { isExactRate } from '../../../../common/percent';
import { describeError } from '../../state/app-store';
import { useAppStore, useBridge } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { ErrorAlert, InputField } from '../../ui/fields';

/** The words of these two settings cards, in one place. */
const words = {
  receiptTitle: 'Receipt header and footer',
  receiptHint: 'Printed at the top and foot of every receipt, and shown on the receipt on screen.',
  storeName: 'Store name',
  address: (n: number) => `Address line ${n}`,
  phone: 'Phone',
  returnPolicy: 'Return policy (foot of the customer’s receipt)',
  saveReceipt: 'Save receipt header and footer',
  receiptSaved: 'Receipt header and footer saved.',
  limitsTitle: 'Discounts and prices',
  limitsHint:
    'Above these limits, and for a changed catalog price, the cashier’s screen asks for the manager’s PIN.',
  maxLine: 'Largest line discount without a manager (%)',
  maxTicket: 'Largest ticket discount without a manager (%)',
  override: 'A manager approves every change to a catalog price',
  saveLimits: 'Save discount limits',
  limitsSaved: 'Discount limits saved.',
  badLimit: 'A discount limit is 0 to 100 %, with at most four decimals.',
} as const;

const P = STORE_PROFILE_LIMITS;

export function ReceiptHeaderSettings() {
  const profile = useCommand('store.profile.get', {});
  const bridge = useBridge();
  const app = useAppStore();
  const [storeName, setStoreName] = useState('');
  const [address, setAddress] = useState<string[]>(['', '', '']);
  const [phone, setPhone] = useState('');
  const [policy, setPolicy] = useState('');
  const [error, setError] = useState<string | null>(null);
  const p = profile.data;
  useEffect(() => {
    if (!p) return;
    setStoreName(p.storeName);
    setAddress([0, 1, 2].map((i) => p.addressLines[i] ?? ''));
    setPhone(p.phone);
    setPolicy(p.returnPolicy);
  }, [p]);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const r = await bridge.send('store.profile.update', {
      storeName,
      addressLines: address,
      phone,
      returnPolicy: policy,
    });
    if (!r.ok) return setError(describeError(r.error));
    setError(null);
    profile.setData(r.value);
    app.getState().notify('success', words.receiptSaved);
  };
  return (
    <section className="card" aria-labelledby="receipt-set-title">
      <h2 id="receipt-set-title">{words.receiptTitle}</h2>
      <p className="hint">{words.receiptHint}</p>
      <ErrorAlert message={profile.error} />
      <form className="stack" onSubmit={(e) => void save(e)}>
        <div className="row">
          <InputField
            id="store-name"
            label={words.storeName}
            value={storeName}
            maxLength={P.storeNameLength}
            autoComplete="organization"
            onChange={(e) => setStoreName(e.target.value)}
          />
          <InputField
            id="store-phone"
            label={words.phone}
            type="tel"
            value={phone}
            maxLength={P.phoneLength}
            autoComplete="off"
            onChange={(e) => setPhone(e.target.value)}
          />
        </div>
        <div className="row">
          {address.map((line, i) => (
            <InputField
              key={i}
              id={`store-address-${i + 1}`}
              label={words.address(i + 1)}
              value={line}
              maxLength={P.addressLineLength}
              autoComplete="off"
              onChange={(e) => setAddress((now) => now.map((x, j) => (j === i ? e.target.value : x)))}
            />
          ))}
        </div>
        <div className="field">
          <label htmlFor="store-return-policy">{words.returnPolicy}</label>
          <textarea
            id="store-return-policy"
            rows={3}
            value={policy}
            maxLength={P.returnPolicyLength}
            onChange={(e) => setPolicy(e.target.value)}
          />
        </div>
        <ErrorAlert message={error} />
        <div>
          <button type="submit" className="btn btn-primary">
            {words.saveReceipt}
          </button>
        </div>
      </form>
    </section>
  );
}

export function DiscountLimitSettings() {
  const limits = useCommand('store.discountLimits.get', {});
  const bridge = useBridge();
  const app = useAppStore();
  const [line, setLine] = useState('');
  const [ticket, setTicket] = useState('');
  const [override, setOverride] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const l = limits.data;
  useEffect(() => {
    if (!l) return;
    setLine(String(l.maxLineDiscountPercent));
    setTicket(String(l.maxTicketDiscountPercent));
    setOverride(l.priceOverrideNeedsApproval);
  }, [l]);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const lineLimit = Number(line);
    const ticketLimit = Number(ticket);
    const ok = (n: number, text: string) => text.trim() !== '' && isExactRate(n) && n <= 100;
    if (!ok(lineLimit, line) || !ok(ticketLimit, ticket)) return setError(words.badLimit);
    const r = await bridge.send('store.discountLimits.update', {
      maxLineDiscountPercent: lineLimit,
      maxTicketDiscountPercent: ticketLimit,
      priceOverrideNeedsApproval: override,
    });
    if (!r.ok) return setError(describeError(r.error));
    setError(null);
    limits.setData(r.value);
    app.getState().notify('success', words.limitsSaved);
  };
  return (
    <section className="card" aria-labelledby="limits-set-title">
      <h2 id="limits-set-title">{words.limitsTitle}</h2>
      <p className="hint">{words.limitsHint}</p>
      <ErrorAlert message={limits.error} />
      <form className="stack" onSubmit={(e) => void save(e)}>
        <div className="row">
          <InputField
            id="limit-line"
            label={words.maxLine}
            inputMode="decimal"
            autoComplete="off"
            value={line}
            onChange={(e) => setLine(e.target.value)}
          />
          <InputField
            id="limit-ticket"
            label={words.maxTicket}
            inputMode="decimal"
            autoComplete="off"
            value={ticket}
            onChange={(e) => setTicket(e.target.value)}
          />
        </div>
        <label className="check">
          <input type="checkbox" checked={override} onChange={(e) => setOverride(e.target.checked)} />
          {words.override}
        </label>
        <ErrorAlert message={error} />
        <div>
          <button type="submit" className="btn btn-primary">
            {words.saveLimits}
          </button>
        </div>
      </form>
    </section>
  );
}
