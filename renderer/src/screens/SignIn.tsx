import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../state/app-store';
import { useApp, useAppStore, useBridge, useStoreZone } from '../state/context';
import { PinEntry } from '../ui/PinEntry';
import { formatTime } from '../format/money';

/**
 * Sign in by PIN: the PIN says who (each employee has their own). With the time clock on, the same PIN
 * clocks in or out. An employee who signs in with a manager's one-time PIN chooses their own here, before
 * anything else.
 */
export function SignIn() {
  const session = useApp((s) => s.session);
  return session?.mustChangePin ? <ChoosePin name={session.name} /> : <PinSignIn />;
}

function PinSignIn() {
  const { t } = useTranslation('signin');
  const zone = useStoreZone();
  const app = useAppStore();
  const bridge = useBridge();
  const error = useApp((s) => s.signInError);
  const busy = useApp((s) => s.signingIn);
  const connection = useApp((s) => s.connection);
  const sandbox = useApp((s) => s.status?.sandbox === true);
  const paymentRunning = useApp((s) => s.status?.paymentRunning === true);
  const timeClock = useApp((s) => s.status?.timeClock === true);
  const [pin, setPin] = useState('');
  const [clockNote, setClockNote] = useState<string | null>(null);
  const [clockError, setClockError] = useState<string | null>(null);
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
    setClockNote(null);
    setClockError(null);
    void app.getState().signIn(p);
  };

  const punch = async (action: 'in' | 'out') => {
    if (pin.length === 0) return;
    const p = pin;
    setPin('');
    setClockNote(null);
    setClockError(null);
    const r = await bridge.send('timeClock.punch', { pin: p, action });
    if (!r.ok) return setClockError(describeError(r.error));
    const said = { name: r.value.name, time: formatTime(r.value.at, zone) };
    setClockNote(action === 'in' ? t('clockedIn', said) : t('clockedOut', said));
    // Clocked in: straight on to the sale, with the PIN just typed.
    if (action === 'in') await app.getState().signIn(p);
    pinRef.current?.focus();
  };

  return (
    <section className="signin" aria-labelledby="signin-title">
      <h1 id="signin-title" tabIndex={-1}>
        {t('title')}
      </h1>
      {paymentRunning ? (
        <p className="outcome outcome-warn" role="status">
          {t('paymentRunning')}
        </p>
      ) : null}
      <form onSubmit={submit} className="stack">
        <PinEntry
          id="pin"
          label={t('pin')}
          keypadLabel={t('keypad')}
          ref={pinRef}
          data-autofocus
          pin={pin}
          onPin={setPin}
          error={error ?? clockError}
          hintId={sandbox ? 'pin-hint' : undefined}
          disabled={connection !== 'open'}
        />
        <button type="submit" className="btn btn-primary" disabled={pin.length === 0 || busy}>
          {t('signIn')}
        </button>
        {timeClock ? (
          <div className="row" role="group" aria-label={t('timeClock')} aria-describedby="clock-hint">
            <button
              type="button"
              className="btn"
              disabled={pin.length === 0 || busy}
              onClick={() => void punch('in')}
            >
              {t('clockIn')}
            </button>
            <button
              type="button"
              className="btn"
              disabled={pin.length === 0 || busy}
              onClick={() => void punch('out')}
            >
              {t('clockOut')}
            </button>
            <p id="clock-hint" className="hint">
              {t('clockHint')}
            </p>
          </div>
        ) : null}
        {clockNote ? <p role="status">{clockNote}</p> : null}
        {sandbox ? (
          <p id="pin-hint" className="hint">
            {t('sandbox')}
          </p>
        ) : null}
      </form>
    </section>
  );
}

/**
 * The first sign-in after a manager issued a one-time PIN: the new PIN, then again, on the keypad (the
 * one-time PIN just typed is the proof the core asks for).
 */
function ChoosePin({ name }: { name: string }) {
  const { t } = useTranslation('signin');
  const app = useAppStore();
  const [step, setStep] = useState<'new' | 'again'>('new');
  const [first, setFirst] = useState('');
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), [step]);

  const restart = (problem: string) => {
    setPin('');
    setFirst('');
    setStep('new');
    setError(problem);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{4,8}$/.test(pin)) return setError(t('tooShort'));
    setError(null);
    if (step === 'new') {
      setFirst(pin);
      setPin('');
      return setStep('again');
    }
    if (pin !== first) return restart(t('mismatch'));
    setBusy(true);
    const problem = await app.getState().changePin(pin);
    setBusy(false);
    if (problem) restart(problem);
  };

  return (
    <section className="signin" aria-labelledby="choose-title">
      <h1 id="choose-title" tabIndex={-1}>
        {t('chooseTitle')}
      </h1>
      <p>{t('chooseIntro', { name })}</p>
      <form onSubmit={(e) => void submit(e)} className="stack">
        <PinEntry
          key={step}
          id={`choose-${step}`}
          label={step === 'new' ? t('newPin') : t('again')}
          keypadLabel={step === 'new' ? t('newKeypad') : t('againKeypad')}
          ref={field}
          data-autofocus
          pin={pin}
          onPin={setPin}
          error={error}
        />
        <div className="row">
          {step === 'again' ? (
            <button type="button" className="btn" onClick={() => restart('')}>
              {t('back')}
            </button>
          ) : null}
          <button type="submit" className="btn btn-primary" disabled={pin.length === 0 || busy}>
            {step === 'again' ? t('save') : t('next')}
          </button>
        </div>
      </form>
    </section>
  );
}
