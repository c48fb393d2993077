import { useEffect, useState, type FormEvent } from 'react';
import type { FraudCheck } from '../../../../electron/bridge/contract';
import { DEFAULT_CONFIRM_ABOVE_CENTS } from '../../../../common/amount-ceiling';
import { isExactRate } from '../../../../common/percent';
import { parseMoney } from '../../format/money';
import { describeError } from '../../state/app-store';
import { useAppStore, useBridge, useSaleStore } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { ErrorAlert, InputField, SelectField, type SelectOption } from '../../ui/fields';
import { DiscountLimitSettings, ReceiptHeaderSettings } from './StoreSettings';
import { EmailSettings } from './EmailSettings';

const fraudWords: Record<FraudCheck, string> = {
  address: 'Deny when the street address does not match (AVS)',
  zipCode: 'Deny when the ZIP code does not match (AVS)',
  cvv: 'Deny when the security code does not match',
  account: 'Deny blacklisted card accounts',
};

/** Failed chip reads before a chip card's swipe is taken as chip fallback (docs/terminal.md "Chip sales"). */
const fallbackOptions: readonly SelectOption<number>[] = [
  [1, 'After 1 failed chip read'],
  [2, 'After 2 failed chip reads'],
  [3, 'After 3 failed chip reads'],
];

function SaleSettings() {
  const business = useCommand('business.get', {});
  const bridge = useBridge();
  const app = useAppStore();
  const sale = useSaleStore();
  const [tax, setTax] = useState('');
  const [tipPrompt, setTipPrompt] = useState(false);
  const [presets, setPresets] = useState('');
  const [fallbackAfter, setFallbackAfter] = useState(1);
  const [confirmAbove, setConfirmAbove] = useState('');
  const [error, setError] = useState<string | null>(null);
  const b = business.data;
  useEffect(() => {
    if (!b) return;
    setTax(String(b.taxRatePercent));
    setTipPrompt(b.tipPrompt);
    setPresets(b.tipPresetsPercent.join(', '));
    setFallbackAfter(b.chipFallbackAfterFailures ?? 1);
    setConfirmAbove(((b.confirmAboveCents ?? DEFAULT_CONFIRM_ABOVE_CENTS) / 100).toFixed(2));
  }, [b]);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const rate = Number(tax);
    const list = presets
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p.length > 0)
      .map(Number);
    if (!Number.isFinite(rate) || rate < 0 || rate > 30 || !isExactRate(rate))
      return setError('The tax rate is 0 to 30 %, with at most four decimals.');
    if (list.some((n) => !Number.isFinite(n) || n < 0 || n > 100) || list.length > 6)
      return setError('Tip presets are up to six percentages, separated by commas.');
    const ceiling = parseMoney(confirmAbove);
    if (ceiling === undefined || ceiling < 100)
      return setError('Confirm amounts above 1.00 or more, typed like 1000.00.');
    const r = await bridge.send('business.update', {
      taxRatePercent: rate,
      tipPrompt,
      tipPresetsPercent: list,
      chipFallbackAfterFailures: fallbackAfter,
      confirmAboveCents: ceiling,
    });
    if (!r.ok) return setError(describeError(r.error));
    setError(null);
    business.setData(r.value);
    void sale.getState().loadSettings();
    app.getState().notify('success', 'Settings saved.');
  };
  return (
    <>
      <section className="card" aria-labelledby="biz-title">
        <h2 id="biz-title">Business settings at the gateway</h2>
        <ErrorAlert message={business.error} />
        {b ? (
          <dl className="facts">
            <dt>Surcharge</dt>
            <dd>{b.surchargeEnabled ? `On, ${b.surchargePercent}%` : 'Off'}</dd>
            <dt>Card difference (cash discount)</dt>
            <dd>{b.cardDifferenceEnabled ? `On, ${b.cardDifferencePercent}%` : 'Off'}</dd>
            <dt>3-D Secure</dt>
            <dd>{b.threeDSecureEnabled ? 'On' : 'Off'}</dd>
          </dl>
        ) : null}
        <p className="hint">These are set on the merchant account at the gateway; the terminal shows them.</p>
      </section>
      <section className="card" aria-labelledby="sale-set-title">
        <h2 id="sale-set-title">Sale settings for this lane</h2>
        <form className="stack" onSubmit={(e) => void save(e)}>
          <div className="row">
            <InputField
              id="set-tax"
              label="Tax rate (%)"
              inputMode="decimal"
              value={tax}
              onChange={(e) => setTax(e.target.value)}
            />
            <InputField
              id="set-presets"
              label="Tip presets (%)"
              value={presets}
              onChange={(e) => setPresets(e.target.value)}
              aria-describedby="presets-hint"
            >
              <span id="presets-hint" className="hint">
                For example 15, 18, 20
              </span>
            </InputField>
          </div>
          <label className="check">
            <input type="checkbox" checked={tipPrompt} onChange={(e) => setTipPrompt(e.target.checked)} />
            Offer a tip on each sale
          </label>
          <InputField
            id="set-confirm-above"
            label="Confirm amounts above ($)"
            inputMode="decimal"
            autoComplete="off"
            value={confirmAbove}
            onChange={(e) => setConfirmAbove(e.target.value)}
            aria-describedby="confirm-above-hint"
          >
            <span id="confirm-above-hint" className="hint">
              The cashier confirms a larger amount before any tender starts: a barcode scanned into the amount
              is not a sale.
            </span>
          </InputField>
          <SelectField
            id="set-chip-fallback"
            label="Take a chip card’s swipe (chip fallback)"
            value={fallbackAfter}
            options={fallbackOptions}
            onChange={setFallbackAfter}
          />
          <ErrorAlert message={error} />
          <div>
            <button type="submit" className="btn btn-primary">
              Save sale settings
            </button>
          </div>
        </form>
      </section>
    </>
  );
}

function FraudOptions() {
  const fraud = useCommand('fraud.get', {});
  const bridge = useBridge();
  const [error, setError] = useState<string | null>(null);
  const toggle = async (check: FraudCheck, enabled: boolean) => {
    const r = await bridge.send('fraud.set', { check, enabled });
    if (r.ok) {
      fraud.setData(r.value);
      setError(null);
    } else setError(describeError(r.error));
  };
  const enabled = new Set(fraud.data?.enabled ?? []);
  return (
    <section className="card" aria-labelledby="fraud-title">
      <h2 id="fraud-title">Fraud auto-deny</h2>
      <ErrorAlert message={fraud.error} />
      {fraud.data && !fraud.data.known ? (
        <p className="hint">The gateway did not say which checks are on; set them here.</p>
      ) : null}
      <fieldset>
        <legend className="sr-only">Checks</legend>
        {(Object.keys(fraudWords) as FraudCheck[]).map((c) => (
          <label key={c} className="check">
            <input
              type="checkbox"
              checked={enabled.has(c)}
              disabled={!fraud.data}
              onChange={(e) => void toggle(c, e.target.checked)}
            />
            {fraudWords[c]}
          </label>
        ))}
      </fieldset>
      <ErrorAlert message={error} />
    </section>
  );
}

export function SettingsScreen() {
  return (
    <div>
      <h1 tabIndex={-1}>Settings</h1>
      <SaleSettings />
      <ReceiptHeaderSettings />
      <DiscountLimitSettings />
      <FraudOptions />
      <EmailSettings />
    </div>
  );
}
