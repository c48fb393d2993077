import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  EmailSecurity,
  EmailSettingsUpdate,
  EmailSettingsView,
  EmailTestResult,
} from '../../../../common/bridge/contract';
import { emailAddressProblem } from '../../../../common/email-address';
import { useAppStore } from '../../state/context';
import { useAction, useCommand } from '../../state/use-command';
import { ErrorAlert, InputField, SelectField, type SelectOption } from '../../ui/fields';

/** The security choices, in the order offered (their words: the `settings` catalog). */
const SECURITIES: readonly EmailSecurity[] = ['starttls', 'tls', 'none'];

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
  const { t } = useTranslation(['settings', 'common']);
  const securityOptions: readonly SelectOption<EmailSecurity>[] = SECURITIES.map((x) => [
    x,
    t(`email.securities.${x}`),
  ]);
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
        <h2 id="email-title">{t('email.title')}</h2>
        {loaded.error ? <ErrorAlert message={loaded.error} /> : <p>{t('common:loading')}</p>}
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
    if (!Number.isInteger(port) || port < 1 || port > 65535) return setError(t('email.portNumber'));
    const v = await run('email.settings.set', update);
    setPassword('');
    if (!v) return;
    setSaved(v);
    setForm(formOf(v));
    setTestTo((t) => t || v.senderAddress);
    setRemovePassword(false);
    setPem('');
    setRemoveCertificate(false);
    app.getState().notify('success', t('email.saved'));
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
      <h2 id="email-title">{t('email.title')}</h2>
      <p className="hint">{t('email.intro')}</p>
      {saved.configured ? null : <p className="dialog-reason">{t('email.notSetUp')}</p>}
      <form className="stack" onSubmit={(e) => void save(e)} aria-labelledby="email-title">
        <div className="email-grid">
          <InputField
            id="email-host"
            label={t('email.host')}
            autoComplete="off"
            spellCheck={false}
            value={form.host}
            onChange={(e) => field('host', e.target.value)}
            aria-describedby="email-host-hint"
          >
            <span id="email-host-hint" className="hint">
              {t('email.hostHint')}
            </span>
          </InputField>
          <InputField
            id="email-port"
            label={t('email.port')}
            inputMode="numeric"
            className="email-port"
            value={form.port}
            onChange={(e) => field('port', e.target.value.replace(/\D/g, ''))}
          />
          <div className="email-wide">
            <SelectField
              id="email-security"
              label={t('email.security')}
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
            label={t('email.user')}
            autoComplete="off"
            spellCheck={false}
            value={form.user}
            onChange={(e) => field('user', e.target.value)}
          />
          <InputField
            id="email-password"
            label={t('email.password')}
            type="password"
            autoComplete="new-password"
            value={password}
            placeholder={saved.passwordSet ? t('email.passwordUnchanged') : ''}
            onChange={(e) => setPassword(e.target.value)}
            aria-describedby="email-password-hint"
          >
            <span id="email-password-hint" className="hint">
              {saved.passwordSet ? t('email.passwordStored') : t('email.passwordNone')}
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
              {t('email.removePassword')}
            </label>
          ) : null}
          <InputField
            id="email-sender"
            label={t('email.sender')}
            type="email"
            autoComplete="off"
            spellCheck={false}
            value={form.senderAddress}
            onChange={(e) => field('senderAddress', e.target.value)}
          />
          <InputField
            id="email-sender-name"
            label={t('email.senderName')}
            value={form.senderName}
            onChange={(e) => field('senderName', e.target.value)}
            aria-describedby="email-sender-name-hint"
          >
            <span id="email-sender-name-hint" className="hint">
              {t('email.senderNameHint')}
            </span>
          </InputField>
        </div>
        <div className="field">
          <label htmlFor="email-certificate">{t('email.certificate')}</label>
          <textarea
            id="email-certificate"
            className="pem"
            rows={3}
            spellCheck={false}
            value={pem}
            placeholder={t('email.certificatePlaceholder')}
            onChange={(e) => setPem(e.target.value)}
            aria-describedby="email-certificate-hint"
          />
          <span id="email-certificate-hint" className="hint">
            {saved.trustedCertificate
              ? t('email.certificateTrusted', {
                  subject: saved.trustedCertificate.subject,
                  until: saved.trustedCertificate.validTo.slice(0, 10),
                })
              : t('email.certificateHint')}
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
            {t('email.removeCertificate')}
          </label>
        ) : null}
        <ErrorAlert message={error} />
        <div>
          <button type="submit" className="btn btn-primary" disabled={busy || !dirty}>
            {t('email.save')}
          </button>
        </div>
      </form>
      <div className="field email-test">
        <label htmlFor="email-test-to">{t('email.testTo')}</label>
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
            {testing.busy ? t('email.testing') : t('email.test')}
          </button>
        </div>
        {dirty ? (
          <span id="email-test-hint" className="hint">
            {t('email.saveFirst')}
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
