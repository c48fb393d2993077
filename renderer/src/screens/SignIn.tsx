import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useApp, useAppStore } from '../state/context';
import { PinEntry } from '../ui/PinEntry';

/** Sign in by PIN: the PIN says the role (cashier, manager, tech). */
export function SignIn() {
  const app = useAppStore();
  const error = useApp((s) => s.signInError);
  const busy = useApp((s) => s.signingIn);
  const connection = useApp((s) => s.connection);
  const sandbox = useApp((s) => s.status?.sandbox === true);
  const paymentRunning = useApp((s) => s.status?.paymentRunning === true);
  const [pin, setPin] = useState('');
  const pinRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (connection !== 'open') return;
    // The field was disabled while the bridge connected, so it could not take the focus on arrival.
    pinRef.current?.focus();
    // The bridge is up and the PIN field can take input: the "first screen interactive" point.
    performance.mark('tillpoint:interactive');
  }, [connection]);

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (pin.length === 0 || busy) return;
    const p = pin;
    setPin('');
    void app.getState().signIn(p);
  };

  return (
    <section className="signin" aria-labelledby="signin-title">
      <h1 id="signin-title" tabIndex={-1}>
        Sign in
      </h1>
      {paymentRunning ? (
        <p className="outcome outcome-warn" role="status">
          A payment is running on this lane. Sign in to see it and its outcome.
        </p>
      ) : null}
      <form onSubmit={submit} className="stack">
        <PinEntry
          id="pin"
          label="Your PIN"
          keypadLabel="PIN keypad"
          ref={pinRef}
          data-autofocus
          pin={pin}
          onPin={setPin}
          error={error}
          hintId={sandbox ? 'pin-hint' : undefined}
          disabled={connection !== 'open'}
        />
        <button type="submit" className="btn btn-primary" disabled={pin.length === 0 || busy}>
          Sign in
        </button>
        {sandbox ? (
          <p id="pin-hint" className="hint">
            Sandbox PINs: cashier 1111, manager 9999, tech 7777.
          </p>
        ) : null}
      </form>
    </section>
  );
}
