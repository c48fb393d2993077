import { useState, type FormEvent } from 'react';
import { useApp, useAppStore } from '../state/context';
import { Dialog } from './Dialog';
import { ErrorAlert } from './fields';
import { Keypad } from './Keypad';

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
        <label htmlFor="manager-pin">Manager PIN</label>
        <input
          id="manager-pin"
          className="pin-input"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={8}
          value={pin}
          onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))}
          aria-describedby={approval.error ? 'manager-pin-error' : undefined}
          aria-invalid={approval.error ? true : undefined}
        />
        <ErrorAlert id="manager-pin-error" message={approval.error} />
        <Keypad
          label="Manager PIN keypad"
          doubleZero={false}
          onDigit={(d) => setPin((p) => (p + d).slice(0, 8))}
          onBackspace={() => setPin((p) => p.slice(0, -1))}
          onClear={() => setPin('')}
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
