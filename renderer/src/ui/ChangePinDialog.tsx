import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../state/context';
import { Dialog } from './Dialog';
import { DigitsField, ErrorAlert } from './fields';

/** The signed-in employee changes their own PIN: the current one as proof, the new one twice. */
export function ChangePinDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('common');
  const app = useAppStore();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (![current, next].every((p) => /^\d{4,8}$/.test(p))) return setError(t('changePin.shape'));
    if (next !== again) return setError(t('changePin.mismatch'));
    setBusy(true);
    const problem = await app.getState().changePin(next, current);
    setBusy(false);
    setCurrent('');
    setNext('');
    setAgain('');
    if (problem) return setError(problem);
    app.getState().notify('success', t('changePin.done'));
    onClose();
  };
  const pinField = { type: 'password', maxLength: 8, autoComplete: 'off' } as const;
  return (
    <Dialog title={t('changePin.title')} onClose={onClose} initialFocus="my-pin-current">
      <form className="stack" onSubmit={(e) => void submit(e)}>
        <DigitsField
          id="my-pin-current"
          label={t('changePin.current')}
          {...pinField}
          value={current}
          onDigits={setCurrent}
        />
        <DigitsField
          id="my-pin-new"
          label={t('changePin.next')}
          {...pinField}
          value={next}
          onDigits={setNext}
          aria-describedby="my-pin-hint"
        >
          <span id="my-pin-hint" className="hint">
            {t('changePin.hint')}
          </span>
        </DigitsField>
        <DigitsField
          id="my-pin-again"
          label={t('changePin.again')}
          {...pinField}
          value={again}
          onDigits={setAgain}
        />
        <ErrorAlert message={error} />
        <div className="row">
          <button type="button" className="btn" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('changePin.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
