import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FraudCheck } from '../../../../common/bridge/contract';
import { isExactRate } from '../../../../common/percent';
import { parseMoney } from '../../format/money';
import { describeError } from '../../state/app-store';
import { useAppStore, useBridge, useSale, useSaleStore } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { ErrorAlert, InputField, SelectField, type SelectOption } from '../../ui/fields';
import { DiscountLimitSettings, ReceiptHeaderSettings } from './StoreSettings';
import { EmailSettings } from './EmailSettings';
import { ReturnSettings } from './ReturnSettings';
import { LocaleSettings } from './LocaleSettings';

/** The fraud checks, in the order the screen lists them (their words: the `settings` catalog). */
const FRAUD_CHECKS: readonly FraudCheck[] = ['address', 'zipCode', 'cvv', 'account'];

/** Failed chip reads before a chip card's swipe is taken as chip fallback (docs/terminal.md "Chip sales"). */
const FALLBACK_AFTER = [1, 2, 3] as const;

function SaleSettings() {
  const { t } = useTranslation(['settings', 'common']);
  const fallbackOptions: readonly SelectOption<number>[] = FALLBACK_AFTER.map((n) => [
    n,
    t('sale.fallback', { count: n }),
  ]);
  const business = useCommand('business.get', {});
  const bridge = useBridge();
  const app = useAppStore();
  const sale = useSaleStore();
  // The lane's own settings (sale.settings: read with the gateway down too, kept current by the event).
  const lane = useSale((s) => s.settings);
  const [tax, setTax] = useState('');
  const [tipPrompt, setTipPrompt] = useState(false);
  const [presets, setPresets] = useState('');
  const [fallbackAfter, setFallbackAfter] = useState(1);
  const [confirmAbove, setConfirmAbove] = useState('');
  const [error, setError] = useState<string | null>(null);
  const filled = useRef(false);
  const b = business.data;
  // The form takes the lane's figures once: a read that lands later (or another window's save) never
  // overwrites what the manager is typing. Until then there is no form to type in.
  useEffect(() => {
    if (!lane || filled.current) return;
    filled.current = true;
    setTax(String(lane.taxRatePercent));
    setTipPrompt(lane.tipPrompt);
    setPresets(lane.tipPresetsPercent.join(', '));
    setFallbackAfter(lane.chipFallbackAfterFailures);
    setConfirmAbove((lane.confirmAboveCents / 100).toFixed(2));
  }, [lane]);
  useEffect(() => {
    if (!lane) void sale.getState().loadSettings();
  }, [lane, sale]);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const rate = Number(tax);
    const list = presets
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p.length > 0)
      .map(Number);
    if (!Number.isFinite(rate) || rate < 0 || rate > 30 || !isExactRate(rate))
      return setError(t('sale.badTax'));
    if (list.some((n) => !Number.isFinite(n) || n < 0 || n > 100) || list.length > 6)
      return setError(t('sale.badPresets'));
    const ceiling = parseMoney(confirmAbove);
    if (ceiling === undefined || ceiling < 100) return setError(t('sale.badConfirm'));
    // The lane's own settings: saved (and told to every window) with the gateway down too.
    const r = await bridge.send('sale.settings.set', {
      taxRatePercent: rate,
      tipPrompt,
      tipPresetsPercent: list,
      chipFallbackAfterFailures: fallbackAfter,
      confirmAboveCents: ceiling,
    });
    if (!r.ok) return setError(describeError(r.error));
    // Every window's sale store (this one's too) took the new figures from the `sale.settings` event,
    // which the core sends before this answer.
    setError(null);
    app.getState().notify('success', t('saved'));
  };
  return (
    <>
      <section className="card" aria-labelledby="biz-title">
        <h2 id="biz-title">{t('business.title')}</h2>
        <ErrorAlert message={business.error} />
        {b ? (
          <dl className="facts">
            <dt>{t('business.surcharge')}</dt>
            <dd>
              {b.surchargeEnabled
                ? t('business.onPercent', { percent: b.surchargePercent })
                : t('business.off')}
            </dd>
            <dt>{t('business.cardDifference')}</dt>
            <dd>
              {b.cardDifferenceEnabled
                ? t('business.onPercent', { percent: b.cardDifferencePercent })
                : t('business.off')}
            </dd>
            <dt>{t('business.threeDSecure')}</dt>
            <dd>{b.threeDSecureEnabled ? t('business.on') : t('business.off')}</dd>
          </dl>
        ) : null}
        <p className="hint">{t('business.hint')}</p>
      </section>
      <section className="card" aria-labelledby="sale-set-title">
        <h2 id="sale-set-title">{t('sale.title')}</h2>
        {!lane ? <p>{t('common:loading')}</p> : null}
        <form className="stack" hidden={!lane} onSubmit={(e) => void save(e)}>
          <div className="row">
            <InputField
              id="set-tax"
              label={t('sale.tax')}
              inputMode="decimal"
              value={tax}
              onChange={(e) => setTax(e.target.value)}
            />
            <InputField
              id="set-presets"
              label={t('sale.presets')}
              value={presets}
              onChange={(e) => setPresets(e.target.value)}
              aria-describedby="presets-hint"
            >
              <span id="presets-hint" className="hint">
                {t('sale.presetsHint')}
              </span>
            </InputField>
          </div>
          <label className="check">
            <input type="checkbox" checked={tipPrompt} onChange={(e) => setTipPrompt(e.target.checked)} />
            {t('sale.tipPrompt')}
          </label>
          <InputField
            id="set-confirm-above"
            label={t('sale.confirmAbove')}
            inputMode="decimal"
            autoComplete="off"
            value={confirmAbove}
            onChange={(e) => setConfirmAbove(e.target.value)}
            aria-describedby="confirm-above-hint"
          >
            <span id="confirm-above-hint" className="hint">
              {t('sale.confirmAboveHint')}
            </span>
          </InputField>
          <SelectField
            id="set-chip-fallback"
            label={t('sale.chipFallback')}
            value={fallbackAfter}
            options={fallbackOptions}
            onChange={setFallbackAfter}
          />
          <ErrorAlert message={error} />
          <div>
            <button type="submit" className="btn btn-primary">
              {t('sale.save')}
            </button>
          </div>
        </form>
      </section>
    </>
  );
}

function FraudOptions() {
  const { t } = useTranslation('settings');
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
      <h2 id="fraud-title">{t('fraud.title')}</h2>
      <ErrorAlert message={fraud.error} />
      {fraud.data && !fraud.data.known ? <p className="hint">{t('fraud.unknown')}</p> : null}
      <fieldset>
        <legend className="sr-only">{t('fraud.checks')}</legend>
        {FRAUD_CHECKS.map((c) => (
          <label key={c} className="check">
            <input
              type="checkbox"
              checked={enabled.has(c)}
              disabled={!fraud.data}
              onChange={(e) => void toggle(c, e.target.checked)}
            />
            {t(`fraud.${c}`)}
          </label>
        ))}
      </fieldset>
      <ErrorAlert message={error} />
    </section>
  );
}

export function SettingsScreen() {
  const { t } = useTranslation('settings');
  return (
    <div>
      <h1 tabIndex={-1}>{t('title')}</h1>
      <LocaleSettings />
      <SaleSettings />
      <ReceiptHeaderSettings />
      <DiscountLimitSettings />
      <ReturnSettings />
      <FraudOptions />
      <EmailSettings />
    </div>
  );
}
