import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useApp, useAppStore } from '../state/context';
import { ErrorAlert } from '../ui/fields';
import { Keypad } from '../ui/Keypad';

/** Sign in by PIN: the PIN says the role (cashier, manager, tech). */
export function SignIn() {
  const app = useAppStore();
  const error = useApp((s) => s.signInError);
  const busy = useApp((s) => s.signingIn);
  const connection = useApp((s) => s.connection);
  const sandbox = useApp((s) => s.status?.sandbox === true);
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
      <form onSubmit={submit} className="stack">
        <label htmlFor="pin">Your PIN</label>
        <input
          id="pin"
          ref={pinRef}
          data-autofocus
          className="pin-input"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={8}
          value={pin}
          disabled={connection !== 'open'}
          onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'pin-error' : sandbox ? 'pin-hint' : undefined}
        />
        <ErrorAlert id="pin-error" message={error} />
        <Keypad
          label="PIN keypad"
          doubleZero={false}
          disabled={connection !== 'open'}
          onDigit={(d) => setPin((p) => (p + d).slice(0, 8))}
          onBackspace={() => setPin((p) => p.slice(0, -1))}
          onClear={() => setPin('')}
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
