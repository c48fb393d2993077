import { useEffect, useState, type FormEvent } from 'react';
import type {
  EmailSecurity,
  EmailSettingsUpdate,
  EmailSettingsView,
  EmailTestResult,
} from '../../../../electron/bridge/contract';
import { emailAddressProblem } from '../../../../common/email-address';
import { useAppStore } from '../../state/context';
import { useAction, useCommand } from '../../state/use-command';
import { ErrorAlert, InputField, SelectField, type SelectOption } from '../../ui/fields';

/** Every string of the section, in one place (a later change moves them into the translation catalogs). */
const WORDS = {
  title: 'Email receipts',
  intro:
    'Receipts the cashier emails go through the store’s mail server. They wait in the terminal while the server cannot be reached, and are sent when it can.',
  host: 'Mail server',
  hostHint: 'For example smtp.example.com',
  port: 'Port',
  security: 'Security',
  user: 'User name',
  password: 'Password',
  passwordStored: 'A password is stored; type a new one to replace it.',
  passwordNone: 'No password stored.',
  removePassword: 'Remove the stored password',
  sender: 'Sender address',
  senderName: 'Sender name',
  senderNameHint: 'What customers see as the sender, e.g. the store’s name.',
  certificate: 'Trusted certificate (optional)',
  certificateHint:
    'Only for the store’s own mail server with a certificate no public authority signed: paste that certificate (PEM).',
  certificateTrusted: (subject: string, until: string) => `Trusting ${subject}, valid until ${until}.`,
  removeCertificate: 'Stop trusting this certificate',
  save: 'Save email settings',
  saved: 'Email settings saved.',
  testTo: 'Send a test to',
  test: 'Send test email',
  testing: 'Sending…',
  saveFirst: 'Save the settings first: the test uses the saved ones.',
  notSetUp: 'Not set up: the cashier cannot email receipts until the mail server and the sender are saved.',
  portNumber: 'The port is a number from 1 to 65535.',
} as const;

const securityOptions: readonly SelectOption<EmailSecurity>[] = [
  ['starttls', 'STARTTLS (usually port 587)'],
  ['tls', 'TLS (usually port 465)'],
  ['none', 'None: only on a trusted network (port 25)'],
];

/** The port each choice usually takes: a port still at another choice's usual one follows the choice. */
const usualPort: Readonly<Record<EmailSecurity, number>> = { starttls: 587, tls: 465, none: 25 };

type Form = {
  host: string;
  port: string;
  security: EmailSecurity;
  user: string;
  senderAddress: string;
  senderName: string;
};

function formOf(v: EmailSettingsView): Form {
  return {
    host: v.host,
    port: String(v.port),
    security: v.security,
    user: v.user,
    senderAddress: v.senderAddress,
    senderName: v.senderName,
  };
}

/**
 * The store's mail server (a manager's): host, port, security, user, a write-only password, the sender,
 * and a certificate to trust for a store's own server. Only what changed is sent. "Send test email" sends
 * through the saved settings and says what happened, or what the server answered, in words.
 */
export function EmailSettings() {
  const loaded = useCommand('email.settings.get', {});
  const app = useAppStore();
  const { run, busy, error, setError } = useAction();
  const [saved, setSaved] = useState<EmailSettingsView | undefined>(undefined);
  const [form, setForm] = useState<Form | undefined>(undefined);
  const [password, setPassword] = useState('');
  const [removePassword, setRemovePassword] = useState(false);
  const [pem, setPem] = useState('');
  const [removeCertificate, setRemoveCertificate] = useState(false);
  const [testTo, setTestTo] = useState('');
  const [test, setTest] = useState<EmailTestResult | null>(null);
  const testing = useAction();

  useEffect(() => {
    if (!loaded.data) return;
    setSaved(loaded.data);
    setForm(formOf(loaded.data));
    setTestTo((t) => t || loaded.data?.senderAddress || '');
  }, [loaded.data]);

  if (!form || !saved)
    return (
      <section className="card" aria-labelledby="email-title">
        <h2 id="email-title">{WORDS.title}</h2>
        {loaded.error ? <ErrorAlert message={loaded.error} /> : <p>Loading…</p>}
      </section>
    );

  const was = formOf(saved);
  const update: EmailSettingsUpdate = {
    ...(form.host !== was.host ? { host: form.host } : {}),
    ...(form.port !== was.port ? { port: Number(form.port) } : {}),
    ...(form.security !== was.security ? { security: form.security } : {}),
    ...(form.user !== was.user ? { user: form.user } : {}),
    ...(form.senderAddress !== was.senderAddress ? { senderAddress: form.senderAddress } : {}),
    ...(form.senderName !== was.senderName ? { senderName: form.senderName } : {}),
    ...(password ? { password } : removePassword ? { password: '' } : {}),
    ...(pem.trim() ? { trustedCertificatePem: pem } : removeCertificate ? { trustedCertificatePem: '' } : {}),
  };
  const dirty = Object.keys(update).length > 0;
  const field = <K extends keyof Form>(k: K, v: Form[K]) => setForm({ ...form, [k]: v });

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const port = Number(form.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) return setError(WORDS.portNumber);
    const v = await run('email.settings.set', update);
    setPassword('');
    if (!v) return;
    setSaved(v);
    setForm(formOf(v));
    setTestTo((t) => t || v.senderAddress);
    setRemovePassword(false);
    setPem('');
    setRemoveCertificate(false);
    app.getState().notify('success', WORDS.saved);
  };

  const sendTest = async () => {
    setTest(null);
    const problem = emailAddressProblem(testTo);
    if (problem) return testing.setError(problem);
    const r = await testing.run('email.test', { to: testTo });
    if (r) setTest(r);
  };

  return (
    <section className="card" aria-labelledby="email-title">
      <h2 id="email-title">{WORDS.title}</h2>
      <p className="hint">{WORDS.intro}</p>
      {saved.configured ? null : <p className="dialog-reason">{WORDS.notSetUp}</p>}
      <form className="stack" onSubmit={(e) => void save(e)} aria-labelledby="email-title">
        <div className="email-grid">
          <InputField
            id="email-host"
            label={WORDS.host}
            autoComplete="off"
            spellCheck={false}
            value={form.host}
            onChange={(e) => field('host', e.target.value)}
            aria-describedby="email-host-hint"
          >
            <span id="email-host-hint" className="hint">
              {WORDS.hostHint}
            </span>
          </InputField>
          <InputField
            id="email-port"
            label={WORDS.port}
            inputMode="numeric"
            className="email-port"
            value={form.port}
            onChange={(e) => field('port', e.target.value.replace(/\D/g, ''))}
          />
          <div className="email-wide">
            <SelectField
              id="email-security"
              label={WORDS.security}
              value={form.security}
              options={securityOptions}
              onChange={(security) =>
                setForm({
                  ...form,
                  security,
                  port: Object.values(usualPort).map(String).includes(form.port)
                    ? String(usualPort[security])
                    : form.port,
                })
              }
            />
          </div>
          <InputField
            id="email-user"
            label={WORDS.user}
            autoComplete="off"
            spellCheck={false}
            value={form.user}
            onChange={(e) => field('user', e.target.value)}
          />
          <InputField
            id="email-password"
            label={WORDS.password}
            type="password"
            autoComplete="new-password"
            value={password}
            placeholder={saved.passwordSet ? '(unchanged)' : ''}
            onChange={(e) => setPassword(e.target.value)}
            aria-describedby="email-password-hint"
          >
            <span id="email-password-hint" className="hint">
              {saved.passwordSet ? WORDS.passwordStored : WORDS.passwordNone}
            </span>
          </InputField>
          {saved.passwordSet ? (
            <label className="check email-wide">
              <input
                type="checkbox"
                checked={removePassword}
                disabled={password.length > 0}
                onChange={(e) => setRemovePassword(e.target.checked)}
              />
              {WORDS.removePassword}
            </label>
          ) : null}
          <InputField
            id="email-sender"
            label={WORDS.sender}
            type="email"
            autoComplete="off"
            spellCheck={false}
            value={form.senderAddress}
            onChange={(e) => field('senderAddress', e.target.value)}
          />
          <InputField
            id="email-sender-name"
            label={WORDS.senderName}
            value={form.senderName}
            onChange={(e) => field('senderName', e.target.value)}
            aria-describedby="email-sender-name-hint"
          >
            <span id="email-sender-name-hint" className="hint">
              {WORDS.senderNameHint}
            </span>
          </InputField>
        </div>
        <div className="field">
          <label htmlFor="email-certificate">{WORDS.certificate}</label>
          <textarea
            id="email-certificate"
            className="pem"
            rows={3}
            spellCheck={false}
            value={pem}
            placeholder="-----BEGIN CERTIFICATE-----"
            onChange={(e) => setPem(e.target.value)}
            aria-describedby="email-certificate-hint"
          />
          <span id="email-certificate-hint" className="hint">
            {saved.trustedCertificate
              ? WORDS.certificateTrusted(
                  saved.trustedCertificate.subject,
                  saved.trustedCertificate.validTo.slice(0, 10),
                )
              : WORDS.certificateHint}
          </span>
        </div>
        {saved.trustedCertificate ? (
          <label className="check">
            <input
              type="checkbox"
              checked={removeCertificate}
              disabled={pem.trim().length > 0}
              onChange={(e) => setRemoveCertificate(e.target.checked)}
            />
            {WORDS.removeCertificate}
          </label>
        ) : null}
        <ErrorAlert message={error} />
        <div>
          <button type="submit" className="btn btn-primary" disabled={busy || !dirty}>
            {WORDS.save}
          </button>
        </div>
      </form>
      <div className="field email-test">
        <label htmlFor="email-test-to">{WORDS.testTo}</label>
        <div className="email-line">
          <input
            id="email-test-to"
            type="email"
            autoComplete="off"
            spellCheck={false}
            value={testTo}
            onChange={(e) => setTestTo(e.target.value)}
            {...(dirty ? { 'aria-describedby': 'email-test-hint' } : {})}
          />
          <button
            type="button"
            className="btn"
            disabled={testing.busy || dirty || !saved.configured}
            onClick={() => void sendTest()}
          >
            {testing.busy ? WORDS.testing : WORDS.test}
          </button>
        </div>
        {dirty ? (
          <span id="email-test-hint" className="hint">
            {WORDS.saveFirst}
          </span>
        ) : null}
      </div>
      <p role="status" className="email-ok" data-testid="email-test-result">
        {test?.ok ? test.message : ''}
      </p>
      <ErrorAlert message={test && !test.ok ? test.message : testing.error} />
    </section>
  );
}
