import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CashCount } from '../../../../common/bridge/contract';
import {
  USD_DENOMINATIONS,
  cashCountProblem,
  countTotalCents,
  type Denomination,
} from '../../../../common/cash-count';
import { formatCents, parseMoney } from '../../format/money';
import type { en } from '../../i18n/en';
import { ErrorAlert } from '../../ui/fields';

type Mode = 'denominations' | 'total';
/** The denominations' ids, which the catalog names (one label per language; common/cash-count.ts). */
type DenominationId = keyof typeof en.till.count.denominations;

const GROUPS: readonly Denomination['kind'][] = ['bill', 'coin', 'roll'];

/**
 * A drawer counted by denomination (pieces of each bill, coin and roll; the total by the one rule,
 * common/cash-count.ts) or as one total. The opening float and the blind count at close use it; it shows
 * only what the counter typed, never what the drawer should hold.
 */
export function CashCountForm({
  id,
  legend,
  submitLabel,
  initialMode = 'denominations',
  initialTotalCents,
  busy,
  error,
  onCount,
  children,
}: {
  id: string;
  legend: string;
  submitLabel: string;
  initialMode?: Mode;
  initialTotalCents?: number;
  busy?: boolean;
  error?: string | null | undefined;
  onCount: (count: CashCount, totalCents: number) => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation('till');
  const [mode, setMode] = useState<Mode>(initialMode);
  const [pieces, setPieces] = useState<Record<string, string>>({});
  const [total, setTotal] = useState(
    initialTotalCents !== undefined ? (initialTotalCents / 100).toFixed(2) : '',
  );
  const [problem, setProblem] = useState<string | null>(null);

  const counts: Record<string, number> = {};
  for (const [k, v] of Object.entries(pieces)) if (v.trim() !== '') counts[k] = Number(v);
  const piecesProblem = cashCountProblem(counts);
  const countedTotal = piecesProblem ? undefined : countTotalCents(counts);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (mode === 'denominations') {
      // The fields take up to five digits each, so a problem here is a slip the counter checks again.
      if (piecesProblem || countedTotal === undefined) return setProblem(t('count.check'));
      setProblem(null);
      onCount({ denominations: counts }, countedTotal);
      return;
    }
    const cents = parseMoney(total);
    if (cents === undefined) return setProblem(t('count.typeTotal'));
    setProblem(null);
    onCount({ totalCents: cents }, cents);
  };

  return (
    <form className="stack" onSubmit={submit} aria-labelledby={`${id}-legend`}>
      <fieldset className="row">
        <legend id={`${id}-legend`}>{legend}</legend>
        <label className="check">
          <input
            type="radio"
            name={`${id}-mode`}
            checked={mode === 'denominations'}
            onChange={() => setMode('denominations')}
          />
          {t('count.byDenomination')}
        </label>
        <label className="check">
          <input
            type="radio"
            name={`${id}-mode`}
            checked={mode === 'total'}
            onChange={() => setMode('total')}
          />
          {t('count.asTotal')}
        </label>
      </fieldset>
      {mode === 'denominations' ? (
        <p className="count-total" role="status">
          {t('count.counted')}{' '}
          <strong data-testid={`${id}-total`}>
            {countedTotal === undefined ? '—' : formatCents(countedTotal)}
          </strong>
        </p>
      ) : null}
      {mode === 'denominations' ? (
        <div className="count-grid">
          {GROUPS.map((kind) => (
            <table key={kind} className="data count-table">
              <caption>{t(`count.groups.${kind}`)}</caption>
              <tbody>
                {USD_DENOMINATIONS.filter((d) => d.kind === kind).map((d) => {
                  const n = counts[d.id];
                  return (
                    <tr key={d.id}>
                      <th scope="row">
                        <label htmlFor={`${id}-${d.id}`}>
                          {t(`count.denominations.${d.id as DenominationId}`)}
                        </label>
                      </th>
                      <td>
                        <input
                          id={`${id}-${d.id}`}
                          className="count-input"
                          inputMode="numeric"
                          autoComplete="off"
                          value={pieces[d.id] ?? ''}
                          onChange={(e) =>
                            setPieces((p) => ({
                              ...p,
                              [d.id]: e.target.value.replace(/\D/g, '').slice(0, 5),
                            }))
                          }
                        />
                      </td>
                      <td className="num">
                        {n !== undefined && Number.isSafeInteger(n) ? formatCents(n * d.cents) : ''}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          ))}
        </div>
      ) : (
        <div className="field">
          <label htmlFor={`${id}-total`}>{t('count.total')}</label>
          <input
            id={`${id}-total`}
            inputMode="decimal"
            autoComplete="off"
            value={total}
            onChange={(e) => setTotal(e.target.value)}
          />
        </div>
      )}
      {children}
      <ErrorAlert message={problem ?? error} />
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
