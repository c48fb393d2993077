import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReturnSettingsView } from '../../../../common/bridge/contract';
import { describeError } from '../../state/app-store';
import { useAppStore, useBridge } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { ErrorAlert, SelectField, type SelectOption } from '../../ui/fields';

/**
 * Where a return without a receipt puts the money (docs/terminal.md "Returns"): cash, or store credit on a
 * gift card so goods taken from the shelf cannot be turned into cash. A manager approves each such return.
 */
export function ReturnSettings() {
  const { t } = useTranslation('settings');
  const refundOptions: readonly SelectOption<ReturnSettingsView['noReceiptRefund']>[] = [
    ['cash', t('returns.cash')],
    ['gift-card', t('returns.giftCard')],
  ];
  const settings = useCommand('returns.settings.get', {});
  const bridge = useBridge();
  const app = useAppStore();
  const [error, setError] = useState<string | null>(null);
  const change = async (noReceiptRefund: ReturnSettingsView['noReceiptRefund']) => {
    const r = await bridge.send('returns.settings.set', { noReceiptRefund });
    if (!r.ok) return setError(describeError(r.error));
    settings.setData(r.value);
    setError(null);
    app.getState().notify('success', t('returns.saved'));
  };
  return (
    <section className="card" aria-labelledby="returns-set-title">
      <h2 id="returns-set-title">{t('returns.title')}</h2>
      <ErrorAlert message={settings.error} />
      {settings.data ? (
        <SelectField
          id="returns-no-receipt"
          label={t('returns.noReceiptRefund')}
          value={settings.data.noReceiptRefund}
          options={refundOptions}
          onChange={(v) => void change(v)}
        />
      ) : null}
      <p className="hint">{t('returns.hint')}</p>
      <ErrorAlert message={error} />
    </section>
  );
}
