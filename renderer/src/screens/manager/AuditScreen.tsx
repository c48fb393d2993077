import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditEntryView } from '../../../../common/bridge/contract';
import { formatCents, formatStamp } from '../../format/money';
import { i18n, messageFor } from '../../i18n/i18n';
import { useStoreZone } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { ErrorAlert, SelectField, type SelectOption } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';

const roleWord = (role: AuditEntryView['role']): string => i18n.t(`audit:roles.${role}`);

/** The employee's name; the role for the terminal itself and for lines from before employees. */
function whoText(e: AuditEntryView): string {
  return e.employeeName ?? roleWord(e.role);
}

function approverText(e: AuditEntryView): string {
  if (e.approvedByName) return e.approvedByName;
  return e.approvedBy ? roleWord(e.approvedBy) : i18n.t('audit:none');
}

/** The core's action name in a manager's words, in the window's language; an unknown one as it is. */
function actionText(action: string): string {
  return messageFor(`audit:actions.${action}`) ?? action;
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

const limits = (): readonly SelectOption<number>[] => [
  [50, i18n.t('audit:limits.last50')],
  [200, i18n.t('audit:limits.last200')],
  [1000, i18n.t('audit:limits.last1000')],
];

/**
 * Who did what and when on this lane: sign-ins, refunds and voids with who approved them, settings and
 * batch changes. The core writes the details without card data; the screen shows them in dollars.
 */
export function AuditScreen() {
  const { t } = useTranslation(['audit', 'common']);
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
    ['', t('allActions')],
    ...present.map((a): SelectOption<string> => [a, actionText(a)]),
  ];
  const shown = action ? entries.filter((e) => e.action === action) : entries;
  return (
    <div>
      <h1 tabIndex={-1}>{t('title')}</h1>
      <div className="row card" role="group" aria-label={t('which')}>
        <SelectField
          id="audit-limit"
          label={t('show')}
          value={limit}
          options={limits()}
          onChange={setLimit}
        />
        <SelectField
          id="audit-action"
          label={t('action')}
          value={present.includes(action) ? action : ''}
          options={actionOptions}
          onChange={setAction}
        />
        <button type="button" className="btn" onClick={() => void log.reload()} disabled={log.loading}>
          {t('refresh')}
        </button>
      </div>
      <ErrorAlert message={log.error} />
      <table className="data" aria-describedby="audit-count">
        <caption id="audit-count" className="hint" style={{ textAlign: 'left' }}>
          {log.loading && !log.data ? t('common:loading') : t('count', { count: shown.length })}
        </caption>
        <TableHead
          columns={[
            t('columns.when'),
            t('columns.who'),
            t('columns.action'),
            t('columns.detail'),
            t('columns.approvedBy'),
          ]}
        />
        <tbody>
          {shown.map((e, i) => (
            // Entries carry no id; time, action and position keep the keys stable between reads.
            <tr key={`${e.at}-${e.action}-${i}`} data-action={e.action}>
              <td>
                <time dateTime={new Date(e.at).toISOString()}>{formatStamp(e.at, zone)}</time>
              </td>
              <td>{whoText(e)}</td>
              <td>{actionText(e.action)}</td>
              <td className="audit-detail">{detailText(e.detail)}</td>
              <td>{approverText(e)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
