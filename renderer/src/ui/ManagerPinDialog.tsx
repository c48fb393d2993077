import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useApp, useAppStore } from '../state/context';
import { Dialog } from './Dialog';
import { PinEntry } from './PinEntry';

/** Asks for the manager's PIN for one action while a cashier is signed in (refund, void, abandon…). */
export function ManagerPinDialog() {
  const { t } = useTranslation('common');
  const approval = useApp((s) => s.approval);
  const app = useAppStore();
  const [pin, setPin] = useState('');
  if (!approval) return null;
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (pin.length === 0) return;
    const managerPin = pin;
    setPin('');
    app.getState().answerApproval({ managerPin });
  };
  const cancel = () => {
    setPin('');
    app.getState().answerApproval(null);
  };
  return (
    <Dialog title={t('managerApproval.title')} onClose={cancel} initialFocus="manager-pin">
      <p className="dialog-reason">{approval.reason}</p>
      <form onSubmit={submit} className="stack">
        <PinEntry
          id="manager-pin"
          label={t('managerApproval.pin')}
          keypadLabel={t('managerApproval.keypad')}
          pin={pin}
          onPin={setPin}
          error={approval.error}
        />
        <div className="row">
          <button type="button" className="btn" onClick={cancel}>
            {t('cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={pin.length === 0}>
            {t('managerApproval.approve')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
