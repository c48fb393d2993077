import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ROLES,
  type BridgeResult,
  type EmployeeView,
  type OneTimePinView,
  type Role,
} from '../../../../common/bridge/contract';
import { formatDateTime, formatTime } from '../../format/money';
import { i18n } from '../../i18n/i18n';
import { describeError } from '../../state/app-store';
import { useApp, useAppStore, useBridge, useStoreZone } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { Dialog } from '../../ui/Dialog';
import { ErrorAlert, InputField, SelectField, type SelectOption } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';

const roleWord = (r: Role): string => i18n.t(`employees:roles.${r}`);
const roleOptions = (): readonly SelectOption<Role>[] => ROLES.map((r) => [r, roleWord(r)]);

/** Runs a change every manager confirms with a PIN (the core asks for it even from a signed-in manager). */
function useConfirmed() {
  const app = useAppStore();
  return <T,>(
    reason: string,
    run: (approval: { managerPin: string } | undefined) => Promise<BridgeResult<T>>,
  ) => app.getState().withManager(reason, run, { always: true });
}

function OneTimePinDialog({ issued, onClose }: { issued: OneTimePinView; onClose: () => void }) {
  const { t } = useTranslation(['employees', 'common']);
  const zone = useStoreZone();
  const name = issued.employee.name;
  return (
    <Dialog title={t('pinTitle', { name })} onClose={onClose} initialFocus="one-time-done">
      <p>{t('pinIntro', { name, until: formatDateTime(issued.expiresAt, zone) })}</p>
      <p className="one-time-pin" aria-label={t('pinLabel', { digits: [...issued.oneTimePin].join(' ') })}>
        {issued.oneTimePin}
      </p>
      <div className="row">
        <button id="one-time-done" type="button" className="btn btn-primary" onClick={onClose}>
          {t('common:done')}
        </button>
      </div>
    </Dialog>
  );
}

function EditDialog({
  employee,
  onClose,
  onSaved,
}: {
  employee: EmployeeView;
  onClose: () => void;
  onSaved: (e: EmployeeView) => void;
}) {
  const { t } = useTranslation(['employees', 'common']);
  const bridge = useBridge();
  const confirmed = useConfirmed();
  const [name, setName] = useState(employee.name);
  const [role, setRole] = useState<Role>(employee.role);
  const [error, setError] = useState<string | null>(null);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const roleChange = role !== employee.role;
    const payload = {
      employeeId: employee.id,
      ...(name.trim() !== employee.name ? { name } : {}),
      ...(roleChange ? { role } : {}),
    };
    const r = roleChange
      ? await confirmed(
          t('why.role', { name: employee.name, from: roleWord(employee.role), to: roleWord(role) }),
          (approval) => bridge.send('employees.update', { ...payload, ...(approval ? { approval } : {}) }),
        )
      : await bridge.send('employees.update', payload);
    if (!r) return;
    if (!r.ok) return setError(describeError(r.error));
    onSaved(r.value);
  };
  return (
    <Dialog title={t('editTitle', { name: employee.name })} onClose={onClose} initialFocus="edit-name">
      <form className="stack" onSubmit={(e) => void save(e)}>
        <InputField
          id="edit-name"
          label={t('name')}
          value={name}
          maxLength={60}
          autoComplete="off"
          onChange={(e) => setName(e.target.value)}
        />
        <SelectField
          id="edit-role"
          label={t('role')}
          value={role}
          options={roleOptions()}
          onChange={setRole}
        />
        <ErrorAlert message={error} />
        <div className="row">
          <button type="button" className="btn" onClick={onClose}>
            {t('common:cancel')}
          </button>
          <button type="submit" className="btn btn-primary">
            {t('common:save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function DeactivateDialog({
  employee,
  onClose,
  onDone,
}: {
  employee: EmployeeView;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation(['employees', 'common']);
  const bridge = useBridge();
  const confirmed = useConfirmed();
  const [error, setError] = useState<string | null>(null);
  const go = async () => {
    const r = await confirmed(t('why.deactivate', { name: employee.name }), (approval) =>
      bridge.send('employees.setActive', {
        employeeId: employee.id,
        active: false,
        ...(approval ? { approval } : {}),
      }),
    );
    if (!r) return;
    if (!r.ok) return setError(describeError(r.error));
    onDone();
  };
  return (
    <Dialog
      title={t('deactivateTitle', { name: employee.name })}
      onClose={onClose}
      initialFocus="deactivate-cancel"
    >
      <p>{t('deactivateText', { name: employee.name })}</p>
      <ErrorAlert message={error} />
      <div className="row">
        <button id="deactivate-cancel" type="button" className="btn" onClick={onClose}>
          {t('common:cancel')}
        </button>
        <button type="button" className="btn btn-danger" onClick={() => void go()}>
          {t('deactivate')}
        </button>
      </div>
    </Dialog>
  );
}

type Open =
  | { kind: 'edit'; employee: EmployeeView }
  | { kind: 'deactivate'; employee: EmployeeView }
  | { kind: 'pin'; issued: OneTimePinView };

/**
 * The store's people: who may sign in, as what, with whose PIN. Nobody is deleted (history names them):
 * an employee who leaves is deactivated. A manager never sets or sees another employee's PIN: adding,
 * resetting and reactivating hand out a one-time PIN, replaced by the employee's own at the first sign-in.
 */
export function EmployeesScreen() {
  const { t } = useTranslation(['employees', 'common']);
  const zone = useStoreZone();
  const bridge = useBridge();
  const app = useAppStore();
  const me = useApp((s) => s.session?.employeeId);
  const confirmed = useConfirmed();
  const people = useCommand('employees.list', {});
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('cashier');
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<Open | null>(null);
  const employees = people.data?.employees ?? [];

  const issued = (r: BridgeResult<OneTimePinView> | undefined) => {
    if (!r) return;
    if (!r.ok) return setError(describeError(r.error));
    setError(null);
    setOpen({ kind: 'pin', issued: r.value });
    void people.reload();
  };
  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (name.trim().length === 0) return setError(t('typeName'));
    const r = await confirmed(
      t('why.add', { name: name.trim(), role: t(`roleInSentence.${role}`) }),
      (approval) => bridge.send('employees.add', { name, role, ...(approval ? { approval } : {}) }),
    );
    if (r?.ok) setName('');
    issued(r);
  };
  const resetPin = async (e: EmployeeView) =>
    issued(
      await confirmed(t('why.reset', { name: e.name }), (approval) =>
        bridge.send('employees.resetPin', { employeeId: e.id, ...(approval ? { approval } : {}) }),
      ),
    );
  const reactivate = async (e: EmployeeView) => {
    const r = await confirmed(t('why.reactivate', { name: e.name }), (approval) =>
      bridge.send('employees.setActive', {
        employeeId: e.id,
        active: true,
        ...(approval ? { approval } : {}),
      }),
    );
    if (!r) return;
    if (!r.ok) return setError(describeError(r.error));
    const { oneTimePin, expiresAt } = r.value;
    if (oneTimePin !== undefined && expiresAt !== undefined)
      setOpen({ kind: 'pin', issued: { employee: r.value.employee, oneTimePin, expiresAt } });
    void people.reload();
  };
  const clockOut = async (e: EmployeeView) => {
    const r = await bridge.send('employees.clockOut', { employeeId: e.id });
    if (!r.ok) return setError(describeError(r.error));
    app.getState().notify('success', t('notices.clockedOut', { name: e.name }));
    void people.reload();
  };
  const setTimeClock = async (enabled: boolean) => {
    const r = await bridge.send('employees.setTimeClock', { enabled });
    if (!r.ok) return setError(describeError(r.error));
    people.setData(r.value);
    void app.getState().refreshStatus();
  };

  return (
    <div className="employees">
      <h1 tabIndex={-1}>{t('title')}</h1>
      <section className="card" aria-labelledby="add-title">
        <h2 id="add-title">{t('addTitle')}</h2>
        <form className="row" onSubmit={(e) => void add(e)}>
          <InputField
            id="new-name"
            label={t('name')}
            value={name}
            maxLength={60}
            autoComplete="off"
            onChange={(e) => setName(e.target.value)}
          />
          <SelectField
            id="new-role"
            label={t('role')}
            value={role}
            options={roleOptions()}
            onChange={setRole}
          />
          <button type="submit" className="btn btn-primary">
            {t('add')}
          </button>
        </form>
        <p className="hint">{t('addHint')}</p>
      </section>
      <ErrorAlert message={error ?? people.error} />
      <table className="data" aria-describedby="employee-count">
        <caption id="employee-count" className="hint" style={{ textAlign: 'left' }}>
          {people.loading && !people.data
            ? t('common:loading')
            : t('count', { count: employees.length, active: employees.filter((e) => e.active).length })}
        </caption>
        <TableHead
          columns={[
            t('columns.name'),
            t('columns.role'),
            t('columns.status'),
            t('columns.pin'),
            t('columns.clockedIn'),
            t('columns.actions'),
          ]}
        />
        <tbody>
          {employees.map((e) => (
            <tr key={e.id} data-employee={e.name} data-active={e.active}>
              <th scope="row">
                {e.name} {e.id === me ? <span className="hint">{t('you')}</span> : null}
              </th>
              <td>{roleWord(e.role)}</td>
              <td>
                <span className={`badge ${e.active ? 'badge-ok' : 'badge-muted'}`}>
                  {e.active ? t('active') : t('inactive')}
                </span>
              </td>
              <td>
                <span className={e.pin === 'demo' ? 'badge badge-warn' : undefined}>
                  {t(`pinStates.${e.pin}`)}
                </span>
                {e.pinExpiresAt !== undefined ? (
                  <div className="hint">{t('until', { time: formatDateTime(e.pinExpiresAt, zone) })}</div>
                ) : null}
                {e.pin === 'demo' ? <div className="hint">{t('demoHint')}</div> : null}
              </td>
              <td>
                {e.clockedInAt !== undefined ? (
                  <div className="stack">
                    <span className="nowrap">{t('since', { time: formatTime(e.clockedInAt, zone) })}</span>
                    <button
                      type="button"
                      className="btn btn-small nowrap"
                      aria-label={t('clockOutOf', { name: e.name })}
                      onClick={() => void clockOut(e)}
                    >
                      {t('clockOut')}
                    </button>
                  </div>
                ) : (
                  t('notClockedIn')
                )}
              </td>
              <td>
                <div className="row employee-actions">
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={t('editOf', { name: e.name })}
                    onClick={() => setOpen({ kind: 'edit', employee: e })}
                  >
                    {t('edit')}
                  </button>
                  {e.active ? (
                    <>
                      <button
                        type="button"
                        className="btn btn-small"
                        aria-label={t('resetPinOf', { name: e.name })}
                        onClick={() => void resetPin(e)}
                      >
                        {t('resetPin')}
                      </button>
                      <button
                        type="button"
                        className="btn btn-small"
                        aria-label={t('deactivateOf', { name: e.name })}
                        onClick={() => setOpen({ kind: 'deactivate', employee: e })}
                      >
                        {t('deactivate')}
                      </button>
                    </>
                  ) : (
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-label={t('reactivateOf', { name: e.name })}
                      onClick={() => void reactivate(e)}
                    >
                      {t('reactivate')}
                    </button>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <section className="card employees-clock" aria-labelledby="clock-title">
        <h2 id="clock-title">{t('clockTitle')}</h2>
        <label className="check">
          <input
            type="checkbox"
            checked={people.data?.timeClock ?? false}
            disabled={!people.data}
            onChange={(e) => void setTimeClock(e.target.checked)}
            aria-describedby="clock-setting-hint"
          />
          {t('clockLabel')}
        </label>
        <p id="clock-setting-hint" className="hint">
          {t('clockHint')}
        </p>
      </section>
      {open?.kind === 'pin' ? <OneTimePinDialog issued={open.issued} onClose={() => setOpen(null)} /> : null}
      {open?.kind === 'edit' ? (
        <EditDialog
          employee={open.employee}
          onClose={() => setOpen(null)}
          onSaved={(saved) => {
            setOpen(null);
            app.getState().notify('success', t('notices.renamed', { name: saved.name }));
            void people.reload();
          }}
        />
      ) : null}
      {open?.kind === 'deactivate' ? (
        <DeactivateDialog
          employee={open.employee}
          onClose={() => setOpen(null)}
          onDone={() => {
            app.getState().notify('success', t('notices.deactivated', { name: open.employee.name }));
            setOpen(null);
            void people.reload();
          }}
        />
      ) : null}
    </div>
  );
}
