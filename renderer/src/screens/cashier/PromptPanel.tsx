import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { en } from '../../i18n/en';
import { useNow, useSale, useSaleStore } from '../../state/context';

type DeviceWord = keyof typeof en.sale.device;

/**
 * The core's prompt (its English words) by its message in the `sale` catalog, as the customer display
 * finds the reader's words: a prompt the catalog does not know is shown as it came.
 */
function deviceWord(prompt: string): DeviceWord | undefined {
  return (Object.keys(en.sale.device) as DeviceWord[]).find((k) => en.sale.device[k] === prompt);
}

/** The live device prompt ("Insert, tap or swipe", "Customer entering PIN", …) and a cancel that stops the device. */
export function PromptPanel() {
  const { t } = useTranslation('sale');
  const progress = useSale((s) => s.progress);
  const sale = useSaleStore();
  const [deadline, setDeadline] = useState<number | null>(null);
  const now = useNow(1000);
  const [cancelling, setCancelling] = useState(false);

  useEffect(() => {
    setDeadline(progress?.timeoutSeconds ? Date.now() + progress.timeoutSeconds * 1000 : null);
  }, [progress]);

  const known = progress ? deviceWord(progress.prompt) : undefined;
  const prompt = !progress ? t('prompt.starting') : known ? t(`device.${known}`) : progress.prompt;
  const left = deadline ? Math.max(0, Math.round((deadline - now) / 1000)) : null;
  // Once the request has left for the gateway, cancelling cannot stop it: the core says so by its step.
  const canCancel =
    !progress ||
    progress.step === 'waiting-for-card' ||
    progress.step === 'reading-card' ||
    progress.step === 'pin-entry';
  return (
    <section aria-labelledby="prompt-text" className="stack">
      <h2 className="sr-only">{t('prompt.inProgress')}</h2>
      <div
        id="prompt-text"
        className="prompt"
        role="status"
        aria-live="assertive"
        data-step={progress?.step ?? 'starting'}
      >
        {prompt}
      </div>
      {left !== null && canCancel ? <p className="hint">{t('prompt.timesOut', { seconds: left })}</p> : null}
      {left !== null && progress?.step === 'authorizing' ? (
        <p className="hint">{t('prompt.answerDue', { seconds: left })}</p>
      ) : null}
      <button
        type="button"
        className="btn btn-danger"
        disabled={!canCancel || cancelling}
        onClick={() => {
          setCancelling(true);
          void sale
            .getState()
            .cancel()
            .finally(() => setCancelling(false));
        }}
        aria-keyshortcuts="Escape"
        data-autofocus
      >
        {t('prompt.cancel')} <kbd aria-hidden="true">Esc</kbd>
      </button>
    </section>
  );
}
