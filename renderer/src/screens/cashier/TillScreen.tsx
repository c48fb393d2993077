import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TillMove, TillMovementView, TillView } from '../../../../common/bridge/contract';
import { formatCents, formatDateTime, formatTime, parseMoney } from '../../format/money';
import { useAppStore, useStoreZone } from '../../state/context';
import { useAction, useCommand } from '../../state/use-command';
import { useTillStatus } from '../../state/use-till';
import { Dialog } from '../../ui/Dialog';
import { ErrorAlert, InputField } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';
import { CashCountForm } from '../till/CashCountForm';
import { CountPanel } from '../till/CountPanel';
import { movementWord, stateWord, tillName } from '../till/till-words';

type MoveKind = TillMove['kind'];

/** The drawer actions, in the order the cashier sees them (their words: the `till` catalog's `moves`). */
const MOVE_KINDS: readonly MoveKind[] = ['paid-in', 'paid-out', 'safe-drop', 'no-sale'];

function MoveForm({ kind, onClose }: { kind: MoveKind; onClose: () => void }) {
  const { t } = useTranslation(['till', 'common']);
  const app = useAppStore();
  const { run, busy, error, setError } = useAction();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    let amountCents: number | undefined;
    if (kind !== 'no-sale') {
      amountCents = parseMoney(amount);
      if (amountCents === undefined || amountCents <= 0) return setError(t('typeAmount'));
    }
    if (reason.trim().length === 0) return setError(t('giveReason'));
    const m = await run('till.move', {
      kind,
      reason: reason.trim(),
      ...(amountCents !== undefined ? { amountCents } : {}),
    });
    if (!m) return;
    app.getState().notify('success', t(`moves.${kind}.done`, { amount: formatCents(m.amountCents) }));
    onClose();
  };
  return (
    <Dialog
      title={t(`moves.${kind}.title`)}
      onClose={onClose}
      initialFocus={kind === 'no-sale' ? 'move-reason' : 'move-amount'}
    >
      <form className="stack" onSubmit={(e) => void submit(e)}>
        <p className="hint">{t(`moves.${kind}.hint`)}</p>
        {kind !== 'no-sale' ? (
          <InputField
            id="move-amount"
            label={t('amount')}
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
        ) : null}
        <InputField
          id="move-reason"
          label={t('reason')}
          autoComplete="off"
          maxLength={140}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <ErrorAlert message={error} />
        <div className="row">
          <button type="button" className="btn" onClick={onClose}>
            {t('common:back')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t(`moves.${kind}.button`)}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function Movements({ till, zone, version }: { till: TillView; zone: string; version: number }) {
  const { t } = useTranslation(['till', 'common']);
  const list = useCommand('till.movements', { tillId: till.tillId }, `${till.tillId}-${version}`);
  const rows: TillMovementView[] = list.data ?? [];
  return (
    <table className="data till-movements">
      <caption>{t('movements.caption')}</caption>
      <TableHead
        columns={[
          t('movements.time'),
          t('movements.what'),
          t('movements.amount'),
          t('movements.reason'),
          t('movements.by'),
        ]}
        numeric={[t('movements.amount')]}
      />
      <tbody>
        {rows.map((m) => (
          <tr key={m.id}>
            <td>{formatTime(m.at, zone)}</td>
            <td>{movementWord(m.kind)}</td>
            <td className="num">{m.kind === 'no-sale' ? '' : formatCents(m.amountCents)}</td>
            <td>
              {m.reason ??
                (m.userTransactionNumber ? t('movements.onSale', { number: m.userTransactionNumber }) : '')}
              {m.approvedBy ? (
                <div className="hint">{t('movements.approvedBy', { name: m.approvedBy })}</div>
              ) : null}
            </td>
            <td>{m.employee}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ActiveTill({
  till,
  zone,
  version,
  onCount,
}: {
  till: TillView;
  zone: string;
  version: number;
  onCount: () => void;
}) {
  const { t } = useTranslation(['till', 'common']);
  const app = useAppStore();
  const [move, setMove] = useState<MoveKind | null>(null);
  const [confirm, setConfirm] = useState(false);
  const { run, busy, error } = useAction();
  const handOver = async () => {
    const handed = await run('till.handOver', {});
    setConfirm(false);
    if (handed) app.getState().notify('success', t('active.handedOver', { till: tillName(handed) }));
  };
  return (
    <>
      <section className="card" aria-labelledby="active-till-title">
        <h2 id="active-till-title">{t('active.title', { till: tillName(till) })}</h2>
        <p>
          {t('active.opened', {
            employee: till.employee,
            time: formatDateTime(till.openedAt, zone),
            float: formatCents(till.floatCents),
          })}
        </p>
        <div className="row till-actions" role="group" aria-label={t('active.drawer')}>
          {MOVE_KINDS.map((k) => (
            <button key={k} type="button" className="btn" onClick={() => setMove(k)}>
              {t(`moves.${k}.title`)}
            </button>
          ))}
        </div>
      </section>
      <Movements till={till} zone={zone} version={version} />
      <section className="card" aria-labelledby="end-shift-title">
        <h2 id="end-shift-title">{t('active.endTitle')}</h2>
        <p className="hint">{t('active.endHint')}</p>
        <ErrorAlert message={error} />
        <div className="row">
          <button type="button" className="btn btn-primary" onClick={() => setConfirm(true)}>
            {t('active.handOver')}
          </button>
          <button type="button" className="btn" onClick={onCount}>
            {t('active.countHere')}
          </button>
        </div>
      </section>
      {move ? <MoveForm kind={move} onClose={() => setMove(null)} /> : null}
      {confirm ? (
        <Dialog
          title={t('active.handOverTitle')}
          onClose={() => setConfirm(false)}
          initialFocus="handover-confirm"
        >
          <p>{t('active.handOverText', { till: tillName(till) })}</p>
          <div className="row">
            <button type="button" className="btn" onClick={() => setConfirm(false)}>
              {t('common:back')}
            </button>
            <button
              id="handover-confirm"
              type="button"
              className="btn btn-primary"
              disabled={busy}
              onClick={() => void handOver()}
            >
              {t('active.handOver')}
            </button>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}

function OpenTill({ defaultFloatCents }: { defaultFloatCents: number }) {
  const { t } = useTranslation(['till', 'common']);
  const app = useAppStore();
  const { run, busy, error } = useAction();
  return (
    <section className="card" aria-labelledby="open-till-title">
      <h2 id="open-till-title">{t('open.title')}</h2>
      <p>{t('open.text')}</p>
      <CashCountForm
        id="float"
        legend={t('open.legend')}
        submitLabel={t('open.submit')}
        initialMode="total"
        initialTotalCents={defaultFloatCents}
        busy={busy}
        error={error}
        onCount={(float) =>
          void run('till.open', { float }).then((opened) => {
            if (opened) app.getState().notify('success', t('open.opened', { till: tillName(opened) }));
          })
        }
      />
    </section>
  );
}

/** The lane's drawer: open a till with its float, move cash with a reason, hand over or count and close. */
export function TillScreen() {
  const { t } = useTranslation(['till', 'common']);
  const status = useTillStatus();
  const zone = useStoreZone();
  // The till being counted stays on screen after it leaves the drawer: its result is read here.
  const [counting, setCounting] = useState<TillView | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => setVersion((v) => v + 1), [status]);
  return (
    <div>
      <h1 tabIndex={-1}>{t('title')}</h1>
      {!status ? (
        <p>{t('common:loading')}</p>
      ) : counting ? (
        <CountPanel till={counting} onClose={() => setCounting(null)} />
      ) : status.active ? (
        <ActiveTill
          key={status.active.tillId}
          till={status.active}
          zone={zone}
          version={version}
          onCount={() => setCounting(status.active)}
        />
      ) : (
        <OpenTill defaultFloatCents={status.settings.defaultFloatCents} />
      )}
      {status && status.waiting.length > 0 ? (
        <table className="data">
          <caption>{t('waiting.caption')}</caption>
          <TableHead
            columns={[t('waiting.till'), t('waiting.openedBy'), t('waiting.left'), t('waiting.where')]}
          />
          <tbody>
            {status.waiting.map((w) => (
              <tr key={w.tillId}>
                <th scope="row">{t('tillShort', { tillId: w.tillId })}</th>
                <td>{w.employee}</td>
                <td>{w.endedAt !== undefined ? formatDateTime(w.endedAt, zone) : ''}</td>
                <td>{stateWord(w.state)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
