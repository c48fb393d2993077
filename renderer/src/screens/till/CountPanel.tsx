import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CashCount, TillView } from '../../../../common/bridge/contract';
import { formatCents } from '../../format/money';
import { describeError } from '../../state/app-store';
import { useAppStore, useBridge } from '../../state/context';
import { useAction } from '../../state/use-command';
import { ErrorAlert, InputField } from '../../ui/fields';
import { CashCountForm } from './CashCountForm';
import { overShortWords, tillName } from './till-words';

/** What a count said: the first place a till's expected figure is shown (the count is blind). */
function CountResult({ till }: { till: TillView }) {
  const { t } = useTranslation(['till', 'figures']);
  const c = till.count;
  if (!c) return null;
  return (
    <table className="data count-result" aria-label={t('count.resultLabel', { tillId: till.tillId })}>
      <tbody>
        <tr>
          <th scope="row">{t('figures:counted')}</th>
          <td className="num">{formatCents(c.countedCents)}</td>
        </tr>
        <tr>
          <th scope="row">{t('figures:expectedInDrawer')}</th>
          <td className="num">{formatCents(c.expectedCents)}</td>
        </tr>
        <tr className="figure-total">
          <th scope="row">{t('figures:overShort')}</th>
          <td className="num" data-testid="over-short">
            {overShortWords(c.overShortCents)}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

/** A manager accepts a count beyond the tolerance (the PIN when a cashier is signed in). */
function SignOff({ till, onDone }: { till: TillView; onDone: (t: TillView) => void }) {
  const { t } = useTranslation('till');
  const bridge = useBridge();
  const app = useAppStore();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const sign = async () => {
    setBusy(true);
    const over = till.count ? overShortWords(till.count.overShortCents).toLowerCase() : '';
    const reason = t('count.signOffReason', { till: tillName(till), overShort: over });
    const r = await app.getState().withManager(reason, (approval) =>
      bridge.send('till.signOff', {
        tillId: till.tillId,
        ...(note.trim() ? { note: note.trim() } : {}),
        ...(approval ? { approval } : {}),
      }),
    );
    setBusy(false);
    if (!r) return;
    if (!r.ok) return setError(describeError(r.error));
    app.getState().notify('success', t('count.signedOff', { till: tillName(r.value) }));
    onDone(r.value);
  };
  return (
    <div className="stack">
      <p role="alert" className="field-error">
        {t('count.beyond')}
      </p>
      <InputField
        id={`signoff-note-${till.tillId}`}
        label={t('count.note')}
        autoComplete="off"
        maxLength={280}
        value={note}
        onChange={(e) => setNote(e.target.value)}
      />
      <ErrorAlert message={error} />
      <div className="row">
        <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void sign()}>
          {t('count.signOff')}
        </button>
      </div>
    </div>
  );
}

/**
 * The blind count of one till: the counter enters what is in the tray, by denomination or as a total,
 * and only then reads what it should have held and the difference. A count beyond the tolerance waits
 * for a manager's sign-off here.
 */
export function CountPanel({
  till,
  onClose,
  onChanged,
}: {
  till: TillView;
  onClose: () => void;
  onChanged?: (t: TillView) => void;
}) {
  const { t } = useTranslation(['till', 'common']);
  const { run, busy, error } = useAction();
  const [done, setDone] = useState<TillView | null>(till.count ? till : null);
  const shown = done ?? till;
  const count = async (c: CashCount) => {
    const r = await run('till.count', { tillId: till.tillId, count: c });
    if (!r) return;
    setDone(r);
    onChanged?.(r);
  };
  return (
    <section className="card" aria-labelledby={`count-title-${till.tillId}`}>
      <h2 id={`count-title-${till.tillId}`}>{t('count.title', { till: tillName(till) })}</h2>
      {done ? (
        <div className="stack">
          <CountResult till={shown} />
          {shown.state === 'counted' ? (
            <SignOff
              till={shown}
              onDone={(signed) => {
                setDone(signed);
                onChanged?.(signed);
              }}
            />
          ) : (
            <p role="status">{t('count.closed', { till: tillName(shown) })}</p>
          )}
          <div className="row">
            <button type="button" className="btn" onClick={onClose}>
              {t('common:done')}
            </button>
          </div>
        </div>
      ) : (
        <>
          <p className="hint">{t('count.blindHint')}</p>
          <CashCountForm
            id={`count-${till.tillId}`}
            legend={t('count.legend')}
            submitLabel={t('count.submit')}
            busy={busy}
            error={error}
            onCount={(c) => void count(c)}
          >
            <div className="row">
              <button type="button" className="btn" onClick={onClose}>
                {t('count.notNow')}
              </button>
            </div>
          </CashCountForm>
        </>
      )}
    </section>
  );
}
