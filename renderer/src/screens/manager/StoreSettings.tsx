import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { STORE_PROFILE_LIMITS } from '../../../../common/bridge/contract';
import { isExactRate } from '../../../../common/percent';
import { describeError } from '../../state/app-store';
import { useAppStore, useBridge } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { ErrorAlert, InputField } from '../../ui/fields';

const P = STORE_PROFILE_LIMITS;

export function ReceiptHeaderSettings() {
  const { t } = useTranslation('settings');
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
    app.getState().notify('success', t('receipt.saved'));
  };
  return (
    <section className="card" aria-labelledby="receipt-set-title">
      <h2 id="receipt-set-title">{t('receipt.title')}</h2>
      <p className="hint">{t('receipt.hint')}</p>
      <ErrorAlert message={profile.error} />
      <form className="stack" onSubmit={(e) => void save(e)}>
        <div className="row">
          <InputField
            id="store-name"
            label={t('receipt.storeName')}
            value={storeName}
            maxLength={P.storeNameLength}
            autoComplete="organization"
            onChange={(e) => setStoreName(e.target.value)}
          />
          <InputField
            id="store-phone"
            label={t('receipt.phone')}
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
              label={t('receipt.address', { n: i + 1 })}
              value={line}
              maxLength={P.addressLineLength}
              autoComplete="off"
              onChange={(e) => setAddress((now) => now.map((x, j) => (j === i ? e.target.value : x)))}
            />
          ))}
        </div>
        <div className="field">
          <label htmlFor="store-return-policy">{t('receipt.returnPolicy')}</label>
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
            {t('receipt.save')}
          </button>
        </div>
      </form>
    </section>
  );
}

export function DiscountLimitSettings() {
  const { t } = useTranslation('settings');
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
    if (!ok(lineLimit, line) || !ok(ticketLimit, ticket)) return setError(t('limits.bad'));
    const r = await bridge.send('store.discountLimits.update', {
      maxLineDiscountPercent: lineLimit,
      maxTicketDiscountPercent: ticketLimit,
      priceOverrideNeedsApproval: override,
    });
    if (!r.ok) return setError(describeError(r.error));
    setError(null);
    limits.setData(r.value);
    app.getState().notify('success', t('limits.saved'));
  };
  return (
    <section className="card" aria-labelledby="limits-set-title">
      <h2 id="limits-set-title">{t('limits.title')}</h2>
      <p className="hint">{t('limits.hint')}</p>
      <ErrorAlert message={limits.error} />
      <form className="stack" onSubmit={(e) => void save(e)}>
        <div className="row">
          <InputField
            id="limit-line"
            label={t('limits.maxLine')}
            inputMode="decimal"
            autoComplete="off"
            value={line}
            onChange={(e) => setLine(e.target.value)}
          />
          <InputField
            id="limit-ticket"
            label={t('limits.maxTicket')}
            inputMode="decimal"
            autoComplete="off"
            value={ticket}
            onChange={(e) => setTicket(e.target.value)}
          />
        </div>
        <label className="check">
          <input type="checkbox" checked={override} onChange={(e) => setOverride(e.target.checked)} />
          {t('limits.override')}
        </label>
        <ErrorAlert message={error} />
        <div>
          <button type="submit" className="btn btn-primary">
            {t('limits.save')}
          </button>
        </div>
      </form>
    </section>
  );
}
