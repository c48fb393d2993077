import { useState, type FormEvent } from 'react';
import {
  ROLES,
  type BridgeResult,
  type EmployeeView,
  type OneTimePinView,
  type Role,
} from '../../../../electron/bridge/contract';
import { formatDateTime, formatTime } from '../../format/money';
import { describeError } from '../../state/app-store';
import { useApp, useAppStore, useBridge, useStoreZone } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { Dialog } from '../../ui/Dialog';
import { ErrorAlert, InputField, SelectField, type SelectOption } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';

/** What this screen says, in one place (the catalogs of a later change start here). */
const words = {
  title: 'Employees',
  addTitle: 'Add an employee',
  name: 'Name',
  role: 'Role',
  add: 'Add employee',
  addHint:
    'The terminal gives you a one-time PIN to hand over; the employee chooses their own PIN when they first sign in. You never see it.',
  clockTitle: 'Time clock',
  clockLabel: 'Cashiers and managers clock in before they sign in',
  clockHint: 'The sign-in screen then offers Clock in and Clock out. A manager’s approval does not need it.',
  columns: ['Name', 'Role', 'Status', 'PIN', 'Clocked in', 'Actions'],
  count: (all: number, active: number) => `${all} employee${all === 1 ? '' : 's'}, ${active} active`,
  active: 'Active',
  inactive: 'Inactive',
  edit: 'Edit',
  resetPin: 'Reset PIN',
  deactivate: 'Deactivate',
  reactivate: 'Reactivate',
  clockOut: 'Clock out',
  you: '(you)',
  pinStates: {
    own: 'Their own',
    'one-time': 'One-time PIN issued',
    demo: 'Demo PIN',
    legacy: 'From before employees',
    none: '—',
  },
  until: (at: number, zone: string) => `until ${formatDateTime(at, zone)}`,
  demoHint: 'Everyone knows it: reset it before the store goes live',
  since: (at: number, zone: string) => `since ${formatTime(at, zone)}`,
  editTitle: (name: string) => `Edit ${name}`,
  save: 'Save',
  cancel: 'Cancel',
  done: 'Done',
  pinTitle: (name: string) => `One-time PIN for ${name}`,
  pinIntro: (name: string, until: number, zone: string) =>
    `Give this PIN to ${name} in person. It works once, until ${formatDateTime(until, zone)}: at the first sign-in ${name} chooses a PIN of their own. It is not shown again.`,
  deactivateTitle: (name: string) => `Deactivate ${name}?`,
  deactivateText: (name: string) =>
    `${name} can no longer sign in, and any screen ${name} is signed in on is signed out. Their sales, refunds and audit lines keep their name. You can reactivate them later with a new one-time PIN.`,
  why: {
    add: (name: string, role: string) => `Add ${name} as ${role}.`,
    role: (name: string, from: string, to: string) => `Change ${name} from ${from} to ${to}.`,
    reset: (name: string) => `Reset ${name}’s PIN: the old one stops working now.`,
    deactivate: (name: string) => `Deactivate ${name}.`,
    reactivate: (name: string) => `Reactivate ${name} with a new one-time PIN.`,
  },
  notices: {
    renamed: (name: string) => `Saved: ${name}.`,
    deactivated: (name: string) => `${name} is deactivated.`,
    clockedOut: (name: string) => `${name} is clocked out.`,
  },
} as const;

const roleWords: Readonly<Record<Role, string>> = { cashier: 'Cashier', manager: 'Manager', tech: 'Tech' };
const roleOptions: readonly SelectOption<Role>[] = ROLES.map((r) => [r, roleWords[r]]);

/** Runs a change every manager confirms with a PIN (the core asks for it even from a signed-in manager). */
function useConfirmed() {
  const app = useAppStore();
  return <T,>(
    reason: string,
    run: (approval: { managerPin: string } | undefined) => Promise<BridgeResult<T>>,
  ) => app.getState().withManager(reason, run, { always: true });
}

function OneTimePinDialog({ issued, onClose }: { issued: OneTimePinView; onClose: () => void }) {
  const zone = useStoreZone();
  const name = issued.employee.name;
  return (
    <Dialog title={words.pinTitle(name)} onClose={onClose} initialFocus="one-time-done">
      <p>{words.pinIntro(name, issued.expiresAt, zone)}</p>
      <p className="one-time-pin" aria-label={`One-time PIN ${[...issued.oneTimePin].join(' ')}`}>
        {issued.oneTimePin}
      </p>
      <div className="row">
        <button id="one-time-done" type="button" className="btn btn-primary" onClick={onClose}>
          {words.done}
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
          words.why.role(employee.name, roleWords[employee.role], roleWords[role]),
          (approval) => bridge.send('employees.update', { ...payload, ...(approval ? { approval } : {}) }),
        )
      : await bridge.send('employees.update', payload);
    if (!r) return;
    if (!r.ok) return setError(describeError(r.error));
    onSaved(r.value);
  };
  return (
    <Dialog title={words.editTitle(employee.name)} onClose={onClose} initialFocus="edit-name">
      <form className="stack" onSubmit={(e) => void save(e)}>
        <InputField
          id="edit-name"
          label={words.name}
          value={name}
          maxLength={60}
          autoComplete="off"
          onChange={(e) => setName(e.target.value)}
        />
        <SelectField
          id="edit-role"
          label={words.role}
          value={role}
          options={roleOptions}
          onChange={setRole}
        />
        <ErrorAlert message={error} />
        <div className="row">
          <button type="button" className="btn" onClick={onClose}>
            {words.cancel}
          </button>
          <button type="submit" className="btn btn-primary">
            {words.save}
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
  const bridge = useBridge();
  const confirmed = useConfirmed();
  const [error, setError] = useState<string | null>(null);
  const go = async () => {
    const r = await confirmed(words.why.deactivate(employee.name), (approval) =>
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
    <Dialog title={words.deactivateTitle(employee.name)} onClose={onClose} initialFocus="deactivate-cancel">
      <p>{words.deactivateText(employee.name)}</p>
      <ErrorAlert message={error} />
      <div className="row">
        <button id="deactivate-cancel" type="button" className="btn" onClick={onClose}>
          {words.cancel}
        </button>
        <button type="button" className="btn btn-danger" onClick={() => void go()}>
          {words.deactivate}
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
    if (name.trim().length === 0) return setError('Type the employee’s name.');
    const r = await confirmed(words.why.add(name.trim(), roleWords[role].toLowerCase()), (approval) =>
      bridge.send('employees.add', { name, role, ...(approval ? { approval } : {}) }),
    );
    if (r?.ok) setName('');
    issued(r);
  };
  const resetPin = async (e: EmployeeView) =>
    issued(
      await confirmed(words.why.reset(e.name), (approval) =>
        bridge.send('employees.resetPin', { employeeId: e.id, ...(approval ? { approval } : {}) }),
      ),
    );
  const reactivate = async (e: EmployeeView) => {
    const r = await confirmed(words.why.reactivate(e.name), (approval) =>
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
    app.getState().notify('success', words.notices.clockedOut(e.name));
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
      <h1 tabIndex={-1}>{words.title}</h1>
      <section className="card" aria-labelledby="add-title">
        <h2 id="add-title">{words.addTitle}</h2>
        <form className="row" onSubmit={(e) => void add(e)}>
          <InputField
            id="new-name"
            label={words.name}
            value={name}
            maxLength={60}
            autoComplete="off"
            onChange={(e) => setName(e.target.value)}
          />
          <SelectField
            id="new-role"
            label={words.role}
            value={role}
            options={roleOptions}
            onChange={setRole}
          />
          <button type="submit" className="btn btn-primary">
            {words.add}
          </button>
        </form>
        <p className="hint">{words.addHint}</p>
      </section>
      <ErrorAlert message={error ?? people.error} />
      <table className="data" aria-describedby="employee-count">
        <caption id="employee-count" className="hint" style={{ textAlign: 'left' }}>
          {people.loading && !people.data
            ? 'Loading…'
            : words.count(employees.length, employees.filter((e) => e.active).length)}
        </caption>
        <TableHead columns={words.columns} />
        <tbody>
          {employees.map((e) => (
            <tr key={e.id} data-employee={e.name} data-active={e.active}>
              <th scope="row">
                {e.name} {e.id === me ? <span className="hint">{words.you}</span> : null}
              </th>
              <td>{roleWords[e.role]}</td>
              <td>
                <span className={`badge ${e.active ? 'badge-ok' : 'badge-muted'}`}>
                  {e.active ? words.active : words.inactive}
                </span>
              </td>
              <td>
                <span className={e.pin === 'demo' ? 'badge badge-warn' : undefined}>
                  {words.pinStates[e.pin]}
                </span>
                {e.pinExpiresAt !== undefined ? (
                  <div className="hint">{words.until(e.pinExpiresAt, zone)}</div>
                ) : null}
                {e.pin === 'demo' ? <div className="hint">{words.demoHint}</div> : null}
              </td>
              <td>
                {e.clockedInAt !== undefined ? (
                  <div className="stack">
                    <span className="nowrap">{words.since(e.clockedInAt, zone)}</span>
                    <button
                      type="button"
                      className="btn btn-small nowrap"
                      aria-label={`${words.clockOut} ${e.name}`}
                      onClick={() => void clockOut(e)}
                    >
                      {words.clockOut}
                    </button>
                  </div>
                ) : (
                  '—'
                )}
              </td>
              <td>
                <div className="row employee-actions">
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={`${words.edit} ${e.name}`}
                    onClick={() => setOpen({ kind: 'edit', employee: e })}
                  >
                    {words.edit}
                  </button>
                  {e.active ? (
                    <>
                      <button
                        type="button"
                        className="btn btn-small"
                        aria-label={`${words.resetPin} of ${e.name}`}
                        onClick={() => void resetPin(e)}
                      >
                        {words.resetPin}
                      </button>
                      <button
                        type="button"
                        className="btn btn-small"
                        aria-label={`${words.deactivate} ${e.name}`}
                        onClick={() => setOpen({ kind: 'deactivate', employee: e })}
                      >
                        {words.deactivate}
                      </button>
                    </>
                  ) : (
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-label={`${words.reactivate} ${e.name}`}
                      onClick={() => void reactivate(e)}
                    >
                      {words.reactivate}
                    </button>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <section className="card employees-clock" aria-labelledby="clock-title">
        <h2 id="clock-title">{words.clockTitle}</h2>
        <label className="check">
          <input
            type="checkbox"
            checked={people.data?.timeClock ?? false}
            disabled={!people.data}
            onChange={(e) => void setTimeClock(e.target.checked)}
            aria-describedby="clock-setting-hint"
          />
          {words.clockLabel}
        </label>
        <p id="clock-setting-hint" className="hint">
          {words.clockHint}
        </p>
      </section>
      {open?.kind === 'pin' ? <OneTimePinDialog issued={open.issued} onClose={() => setOpen(null)} /> : null}
      {open?.kind === 'edit' ? (
        <EditDialog
          employee={open.employee}
          onClose={() => setOpen(null)}
          onSaved={(saved) => {
            setOpen(null);
            app.getState().notify('success', words.notices.renamed(saved.name));
            void people.reload();
          }}
        />
      ) : null}
      {open?.kind === 'deactivate' ? (
        <DeactivateDialog
          employee={open.employee}
          onClose={() => setOpen(null)}
          onDone={() => {
            app.getState().notify('success', words.notices.deactivated(open.employee.name));
            setOpen(null);
            void people.reload();
          }}
        />
      ) : null}
    </div>
  );
}
