import { useState, type FormEvent } from 'react';
import { useAppStore } from '../state/context';
import { Dialog } from './Dialog';
import { DigitsField, ErrorAlert } from './fields';

const words = {
  title: 'Change my PIN',
  current: 'Current PIN',
  next: 'New PIN (4 to 8 digits)',
  again: 'New PIN again',
  cancel: 'Cancel',
  save: 'Change PIN',
  shape: 'A PIN is 4 to 8 digits.',
  mismatch: 'The two new PINs differ.',
  done: 'Your PIN is changed.',
  hint: 'Not a run like 1234 nor one digit repeated. Nobody else, a manager included, ever sees it.',
} as const;

/** The signed-in employee changes their own PIN: the current one as proof, the new one twice. */
export function ChangePinDialog({ onClose }: { onClose: () => void }) {
  const app = useAppStore();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (![current, next].every((p) => /^\d{4,8}$/.test(p))) return setError(words.shape);
    if (next !== again) return setError(words.mismatch);
    setBusy(true);
    const problem = await app.getState().changePin(next, current);
    setBusy(false);
    setCurrent('');
    setNext('');
    setAgain('');
    if (problem) return setError(problem);
    app.getState().notify('success', words.done);
    onClose();
  };
  const pinField = { type: 'password', maxLength: 8, autoComplete: 'off' } as const;
  return (
    <Dialog title={words.title} onClose={onClose} initialFocus="my-pin-current">
      <form className="stack" onSubmit={(e) => void submit(e)}>
        <DigitsField
          id="my-pin-current"
          label={words.current}
          {...pinField}
          value={current}
          onDigits={setCurrent}
        />
        <DigitsField
          id="my-pin-new"
          label={words.next}
          {...pinField}
          value={next}
          onDigits={setNext}
          aria-describedby="my-pin-hint"
        >
          <span id="my-pin-hint" className="hint">
            {words.hint}
          </span>
        </DigitsField>
        <DigitsField id="my-pin-again" label={words.again} {...pinField} value={again} onDigits={setAgain} />
        <ErrorAlert message={error} />
        <div className="row">
          <button type="button" className="btn" onClick={onClose}>
            {words.cancel}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {words.save}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
