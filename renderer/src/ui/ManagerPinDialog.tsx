import { useState, type FormEvent } from 'react';
import { useApp, useAppStore } from '../state/context';
import { Dialog } from './Dialog';
import { PinEntry } from './PinEntry';

/** Asks for the manager's PIN for one action while a cashier is signed in (refund, void, abandon…). */
export function ManagerPinDialog() {
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
    <Dialog title="Manager approval" onClose={cancel} initialFocus="manager-pin">
      <p className="dialog-reason">{approval.reason}</p>
      <form onSubmit={submit} className="stack">
        <PinEntry
          id="manager-pin"
          label="Manager PIN"
          keypadLabel="Manager PIN keypad"
          pin={pin}
          onPin={setPin}
          error={approval.error}
        />
        <div className="row">
          <button type="button" className="btn" onClick={cancel}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={pin.length === 0}>
            Approve
          </button>
        </div>
      </form>
    </Dialog>
  );
}
