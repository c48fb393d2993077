import { useEffect, useState, type FormEvent } from 'react';
import type { TillMove, TillMovementView, TillView } from '../../../../electron/bridge/contract';
import { formatCents, formatDateTime, formatTime, parseMoney } from '../../format/money';
import { useAppStore, useStoreZone } from '../../state/context';
import { useAction, useCommand } from '../../state/use-command';
import { useTillStatus } from '../../state/use-till';
import { Dialog } from '../../ui/Dialog';
import { ErrorAlert, InputField } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';
import { CashCountForm } from '../till/CashCountForm';
import { CountPanel } from '../till/CountPanel';
import { movementWords, stateWords, tillName } from '../till/till-words';

type MoveKind = TillMove['kind'];

/** The drawer actions and what each asks of the cashier. */
const moveForms: Readonly<Record<MoveKind, { title: string; button: string; hint: string; done: string }>> = {
  'paid-in': {
    title: 'Paid in',
    button: 'Record paid in',
    hint: 'Cash put into the drawer that is not a sale (change from the safe, a refund of petty cash).',
    done: 'Paid in',
  },
  'paid-out': {
    title: 'Paid out',
    button: 'Record paid out',
    hint: 'Cash taken out to pay for something (a delivery, supplies). Keep the receipt in the drawer.',
    done: 'Paid out',
  },
  'safe-drop': {
    title: 'Safe drop',
    button: 'Record safe drop',
    hint: 'Cash taken from the drawer to the safe, so the drawer does not hold too much.',
    done: 'Safe drop',
  },
  'no-sale': {
    title: 'No sale',
    button: 'Open the drawer',
    hint: 'Opens the drawer without a sale (change for a customer, a jammed bill). Recorded with the reason.',
    done: 'No sale',
  },
};

function MoveForm({ kind, onClose }: { kind: MoveKind; onClose: () => void }) {
  const app = useAppStore();
  const { run, busy, error, setError } = useAction();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const f = moveForms[kind];
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    let amountCents: number | undefined;
    if (kind !== 'no-sale') {
      amountCents = parseMoney(amount);
      if (amountCents === undefined || amountCents <= 0) return setError('Type the amount like 12.50.');
    }
    if (reason.trim().length === 0) return setError('Give a reason.');
    const m = await run('till.move', {
      kind,
      reason: reason.trim(),
      ...(amountCents !== undefined ? { amountCents } : {}),
    });
    if (!m) return;
    app
      .getState()
      .notify(
        'success',
        kind === 'no-sale'
          ? 'No sale recorded: the drawer is open.'
          : `${f.done} ${formatCents(m.amountCents)} recorded: the drawer is open.`,
      );
    onClose();
  };
  return (
    <Dialog
      title={f.title}
      onClose={onClose}
      initialFocus={kind === 'no-sale' ? 'move-reason' : 'move-amount'}
    >
      <form className="stack" onSubmit={(e) => void submit(e)}>
        <p className="hint">{f.hint}</p>
        {kind !== 'no-sale' ? (
          <InputField
            id="move-amount"
            label="Amount"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
        ) : null}
        <InputField
          id="move-reason"
          label="Reason"
          autoComplete="off"
          maxLength={140}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <ErrorAlert message={error} />
        <div className="row">
          <button type="button" className="btn" onClick={onClose}>
            Back
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {f.button}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function Movements({ till, zone, version }: { till: TillView; zone: string; version: number }) {
  const list = useCommand('till.movements', { tillId: till.tillId }, `${till.tillId}-${version}`);
  const rows: TillMovementView[] = list.data ?? [];
  return (
    <table className="data till-movements">
      <caption>Cash moved in and out (sales are under Transactions)</caption>
      <TableHead columns={['Time', 'What', 'Amount', 'Reason', 'By']} numeric={['Amount']} />
      <tbody>
        {rows.map((m) => (
          <tr key={m.id}>
            <td>{formatTime(m.at, zone)}</td>
            <td>{movementWords[m.kind]}</td>
            <td className="num">{m.kind === 'no-sale' ? '' : formatCents(m.amountCents)}</td>
            <td>
              {m.reason ?? (m.userTransactionNumber ? `On sale ${m.userTransactionNumber}` : '')}
              {m.approvedBy ? <div className="hint">approved by {m.approvedBy}</div> : null}
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
  const app = useAppStore();
  const [move, setMove] = useState<MoveKind | null>(null);
  const [confirm, setConfirm] = useState(false);
  const { run, busy, error } = useAction();
  const handOver = async () => {
    const t = await run('till.handOver', {});
    setConfirm(false);
    if (t) app.getState().notify('success', `${tillName(t)} handed over: take the tray for its count.`);
  };
  return (
    <>
      <section className="card" aria-labelledby="active-till-title">
        <h2 id="active-till-title">{tillName(till)} is in the drawer</h2>
        <p>
          Opened by {till.employee} at {formatDateTime(till.openedAt, zone)} with a float of{' '}
          {formatCents(till.floatCents)}. Cash sales, cash back and cash refunds go into it.
        </p>
        <div className="row till-actions" role="group" aria-label="Drawer">
          {(Object.keys(moveForms) as MoveKind[]).map((k) => (
            <button key={k} type="button" className="btn" onClick={() => setMove(k)}>
              {moveForms[k].title}
            </button>
          ))}
        </div>
      </section>
      <Movements till={till} zone={zone} version={version} />
      <section className="card" aria-labelledby="end-shift-title">
        <h2 id="end-shift-title">End of shift</h2>
        <p className="hint">
          Hand the till over to take the tray out for its count (the next cashier opens their own till), or
          count it here and close it.
        </p>
        <ErrorAlert message={error} />
        <div className="row">
          <button type="button" className="btn btn-primary" onClick={() => setConfirm(true)}>
            Hand over
          </button>
          <button type="button" className="btn" onClick={onCount}>
            Count and close here
          </button>
        </div>
      </section>
      {move ? <MoveForm kind={move} onClose={() => setMove(null)} /> : null}
      {confirm ? (
        <Dialog title="Hand over the till?" onClose={() => setConfirm(false)} initialFocus="handover-confirm">
          <p>
            {tillName(till)} leaves the drawer for its count. Cash waits until the next cashier opens a till.
          </p>
          <div className="row">
            <button type="button" className="btn" onClick={() => setConfirm(false)}>
              Back
            </button>
            <button
              id="handover-confirm"
              type="button"
              className="btn btn-primary"
              disabled={busy}
              onClick={() => void handOver()}
            >
              Hand over
            </button>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}

function OpenTill({ defaultFloatCents }: { defaultFloatCents: number }) {
  const app = useAppStore();
  const { run, busy, error } = useAction();
  return (
    <section className="card" aria-labelledby="open-till-title">
      <h2 id="open-till-title">Open a till</h2>
      <p>
        No till is in the drawer: cash sales, cash back and cash refunds wait for one. Count the float you put
        in the drawer.
      </p>
      <CashCountForm
        id="float"
        legend="Opening float"
        submitLabel="Open the till"
        initialMode="total"
        initialTotalCents={defaultFloatCents}
        busy={busy}
        error={error}
        onCount={(float) =>
          void run('till.open', { float }).then((t) => {
            if (t)
              app.getState().notify('success', `${tillName(t)} is open: the drawer is open for the float.`);
          })
        }
      />
    </section>
  );
}

/** The lane's drawer: open a till with its float, move cash with a reason, hand over or count and close. */
export function TillScreen() {
  const status = useTillStatus();
  const zone = useStoreZone();
  // The till being counted stays on screen after it leaves the drawer: its result is read here.
  const [counting, setCounting] = useState<TillView | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => setVersion((v) => v + 1), [status]);
  return (
    <div>
      <h1 tabIndex={-1}>Till</h1>
      {!status ? (
        <p>Loading…</p>
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
          <caption>Tills out of the drawer</caption>
          <TableHead columns={['Till', 'Opened by', 'Left the drawer', 'Where it is']} />
          <tbody>
            {status.waiting.map((t) => (
              <tr key={t.tillId}>
                <th scope="row">Till {t.tillId}</th>
                <td>{t.employee}</td>
                <td>{t.endedAt !== undefined ? formatDateTime(t.endedAt, zone) : ''}</td>
                <td>{stateWords[t.state]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
