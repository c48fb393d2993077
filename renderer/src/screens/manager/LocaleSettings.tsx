import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CURRENCIES,
  STORE_LOCALES,
  type CurrencyCode,
  type StoreLocaleTag,
} from '../../../../common/store-locale';
import { i18n } from '../../i18n/i18n';
import { setStoreLocale } from '../../i18n/locale';
import { useAppStore } from '../../state/context';
import { useAction, useCommand } from '../../state/use-command';
import { ErrorAlert, SelectField } from '../../ui/fields';

/**
 * The store's language and currency (a manager's): what receipts and till reports print in and every
 * screen starts in (docs/terminal.md "Languages and locale"). Each language is named in its own words, so
 * a manager who reads only one finds it.
 */
export function LocaleSettings() {
  const { t } = useTranslation('settings');
  const app = useAppStore();
  const current = useCommand('store.locale.get', {});
  const { run, busy, error } = useAction();
  const [locale, setLocale] = useState<StoreLocaleTag>('en-US');
  const [currency, setCurrency] = useState<CurrencyCode>('USD');
  useEffect(() => {
    if (!current.data) return;
    setLocale(current.data.locale);
    setCurrency(current.data.currency);
  }, [current.data]);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const saved = await run('store.locale.update', { locale, currency });
    if (!saved) return;
    current.setData(saved);
    // This window follows at once; the others with the terminal's status.
    setStoreLocale(saved);
    void app.getState().refreshStatus();
    // Said in the language the window speaks now (this render's `t` still speaks the one before).
    app.getState().notify('success', i18n.t('settings:locale.saved'));
  };
  return (
    <section className="card" aria-labelledby="locale-set-title">
      <h2 id="locale-set-title">{t('locale.title')}</h2>
      <p className="hint">{t('locale.hint')}</p>
      <ErrorAlert message={current.error} />
      <form className="stack" onSubmit={(e) => void save(e)}>
        <div className="row">
          <SelectField
            id="store-locale"
            label={t('locale.language')}
            value={locale}
            options={STORE_LOCALES.map((l) => [l, t(`locale.locales.${l}`)] as const)}
            onChange={setLocale}
            // Until the setting is read, a choice would be overwritten by it.
            disabled={!current.data}
          />
          <SelectField
            id="store-currency"
            label={t('locale.currency')}
            value={currency}
            options={CURRENCIES.map((c) => [c, t(`locale.currencies.${c}`)] as const)}
            onChange={setCurrency}
            disabled={!current.data}
          />
        </div>
        <p className="hint">{t('locale.currencyHint')}</p>
        <ErrorAlert message={error} />
        <div>
          <button type="submit" className="btn btn-primary" disabled={busy || !current.data}>
            {t('locale.save')}
          </button>
        </div>
      </form>
    </section>
  );
}
