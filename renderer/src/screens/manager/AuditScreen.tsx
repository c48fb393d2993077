import { useState } from 'react';
import type { AuditEntryView } from '../../../../common/bridge/contract';
import { formatCents, formatStamp } from '../../format/money';
import { useStoreZone } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { ErrorAlert, SelectField, type SelectOption } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';

/** The core's action names (electron/bridge/handlers.ts) in a manager's words; an unknown one shows as is. */
const actionWords: Readonly<Record<string, string>> = {
  'sign-in': 'Signed in',
  'sign-in-failed': 'Sign-in refused',
  'sign-out': 'Signed out',
  'pin-changed': 'PIN changed',
  'pin-change-failed': 'PIN change refused',
  'pin-reset': 'PIN reset',
  'employee-added': 'Employee added',
  'employee-renamed': 'Employee renamed',
  'role-changed': 'Role changed',
  'employee-deactivated': 'Employee deactivated',
  'employee-reactivated': 'Employee reactivated',
  'clock-in': 'Clocked in',
  'clock-out': 'Clocked out',
  'clock-refused': 'Time clock refused',
  'approval-failed': 'Manager PIN refused',
  'lane-changed': 'Lane changed',
  'ticket-abandoned': 'Sale cancelled (reversed)',
  'gift-reload': 'Gift card reload',
  'gift-reload-failed': 'Gift card reload refused',
  'preauth-complete': 'Pre-authorization completed',
  'preauth-complete-failed': 'Pre-authorization completion refused',
  refund: 'Refund',
  void: 'Void',
  'orphan-resolved': 'Orphan resolved',
  'batch-close': 'Batch closed',
  'auto-close-set': 'Automatic close set',
  'auto-close-removed': 'Automatic close removed',
  'settings-changed': 'Settings changed',
  'fraud-option': 'Fraud check changed',
  'payment-link-created': 'Payment link created',
  'payment-link-disabled': 'Payment link disabled',
  'saf-policy': 'Offline policy changed',
  'gateway-settings': 'Gateway settings changed',
  'devices-configured': 'Devices configured',
  'frame-recorder': 'Frame recorder',
  'line-discount': 'Line discount above the limit',
  'ticket-discount': 'Ticket discount above the limit',
  'price-override': 'Price changed',
  'catalog-item-added': 'Catalog item added',
  'catalog-item-changed': 'Catalog item changed',
  'catalog-item-activated': 'Catalog item activated',
  'catalog-item-deactivated': 'Catalog item deactivated',
  'catalog-item-deleted': 'Catalog item deleted',
  'catalog-tax-class': 'Tax class saved',
  'catalog-tax-class-deleted': 'Tax class deleted',
  'catalog-imported': 'Catalog imported',
  'catalog-import-refused': 'Catalog import refused',
};

const roleWords: Readonly<Record<AuditEntryView['role'], string>> = {
  cashier: 'Cashier',
  manager: 'Manager',
  tech: 'Tech',
  system: 'Terminal',
};

/** The employee's name; the role for the terminal itself and for lines from before employees. */
function whoText(e: AuditEntryView): string {
  return e.employeeName ?? roleWords[e.role];
}

function approverText(e: AuditEntryView): string {
  if (e.approvedByName) return e.approvedByName;
  return e.approvedBy ? roleWords[e.approvedBy] : '—';
}

function actionText(action: string): string {
  return actionWords[action] ?? action;
}

/**
 * The core writes amounts in dollars; entries written before it did counted cents ("1000 cents", the
 * offline policy's "per sale 10000, total 50000 cents"): a manager reads those in dollars too.
 */
export function detailText(detail: string): string {
  return detail
    .replace(
      /per sale (\d+), total (\d+) cents/g,
      (_m, a: string, b: string) => `per sale ${formatCents(Number(a))}, total ${formatCents(Number(b))}`,
    )
    .replace(/\b(\d+) cents\b/g, (_m, n: string) => formatCents(Number(n)));
}

const limits: readonly SelectOption<number>[] = [
  [50, 'Last 50'],
  [200, 'Last 200'],
  [1000, 'Last 1,000'],
];

/**
 * Who did what and when on this lane: sign-ins, refunds and voids with who approved them, settings and
 * batch changes. The core writes the details without card data; the screen shows them in dollars.
 */
export function AuditScreen() {
  const zone = useStoreZone();
  const [limit, setLimit] = useState(50);
  const [action, setAction] = useState('');
  const log = useCommand('audit.list', { limit }, String(limit));
  const entries = log.data ?? [];
  // audit.list has no filter of its own: the choice narrows what was read (docs/screens.md, proposals).
  const present = [...new Set(entries.map((e) => e.action))].sort((a, b) =>
    actionText(a).localeCompare(actionText(b)),
  );
  const actionOptions: SelectOption<string>[] = [
    ['', 'All actions'],
    ...present.map((a): SelectOption<string> => [a, actionText(a)]),
  ];
  const shown = action ? entries.filter((e) => e.action === action) : entries;
  return (
    <div>
      <h1 tabIndex={-1}>Audit log</h1>
      <div className="row card" role="group" aria-label="Which entries">
        <SelectField id="audit-limit" label="Show" value={limit} options={limits} onChange={setLimit} />
        <SelectField
          id="audit-action"
          label="Action"
          value={present.includes(action) ? action : ''}
          options={actionOptions}
          onChange={setAction}
        />
        <button type="button" className="btn" onClick={() => void log.reload()} disabled={log.loading}>
          Refresh
        </button>
      </div>
      <ErrorAlert message={log.error} />
      <table className="data" aria-describedby="audit-count">
        <caption id="audit-count" className="hint" style={{ textAlign: 'left' }}>
          {log.loading && !log.data
            ? 'Loading…'
            : `${shown.length} entr${shown.length === 1 ? 'y' : 'ies'}, newest first`}
        </caption>
        <TableHead columns={['When', 'Who', 'Action', 'Detail', 'Approved by']} />
        <tbody>
          {shown.map((e, i) => (
            // Entries carry no id; time, action and position keep the keys stable between reads.
            <tr key={`${e.at}-${e.action}-${i}`} data-action={e.action}>
              <td>
                <time dateTime={new Date(e.at).toISOString()}>{formatStamp(e.at, zone)}</time>
              </td>
              <td>{whoText(e)}</td>
              <td>{actionText(e.action)}</td>
              <td>{detailText(e.detail)}</td>
              <td>{approverText(e)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
