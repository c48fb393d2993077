import { figureLineWords } from '../format/figure-line-words';
import { useTranslation } from 'react-i18next';
import type { FigureLine, MoneyFigures } from '../../../common/money-figures';
import { formatCents } from '../format/money';
import { i18n } from '../i18n/i18n';
import { TableHead } from './TableHead';

/** The count and amount columns' headings, in the window's language. */
function figureColumns(first: string): { columns: string[]; numeric: string[] } {
  const count = i18n.t('batch:tables.count');
  const amount = i18n.t('batch:tables.amount');
  return { columns: [first, count, amount], numeric: [count, amount] };
}

type Line = { label: string; count?: number; cents: number; strong?: boolean };

function FigureTable({ caption, hint, lines }: { caption: string; hint: string; lines: Line[] }) {
  return (
    <div className="figures">
      <table className="data">
        <caption>{caption}</caption>
        <TableHead {...figureColumns(i18n.t('batch:tables.figure'))} />
        <tbody>
          {lines.map((l) => (
            <tr key={l.label} className={l.strong ? 'figure-total' : undefined}>
              <th scope="row">{l.label}</th>
              <td className="num">{l.count ?? ''}</td>
              <td className="num">{formatCents(l.cents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">{hint}</p>
    </div>
  );
}

/**
 * The money figures (common/money-figures.ts), each under its one label: the card batch (what the
 * gateway settles) and the drawer (cash and checks) side by side, never summed together.
 */
export function MoneyFiguresTables({ figures }: { figures: MoneyFigures }) {
  const { t } = useTranslation(['batch', 'figures', 'common']);
  const { card, drawer } = figures;
  const cardLines: Line[] = [
    { label: t('figures:cardSales'), count: card.sales.count, cents: card.sales.cents },
    { label: t('figures:cardCashBack'), cents: card.cashBackCents },
    { label: t('figures:cardTips'), cents: card.tipCents },
    { label: t('figures:cardRefunds'), count: card.refunds.count, cents: card.refunds.cents },
    { label: t('figures:cardNet'), cents: card.netCents, strong: true },
  ];
  if (card.storedOffline.count > 0)
    cardLines.push({
      label: t('figures:storedOffline'),
      count: card.storedOffline.count,
      cents: card.storedOffline.cents,
    });
  const drawerLines: Line[] = [
    { label: t('figures:cashTaken'), count: drawer.cashTaken.count, cents: drawer.cashTaken.cents },
    { label: t('figures:cashBackPaid'), cents: drawer.cashBackPaidCents },
    { label: t('figures:expectedCash'), cents: drawer.expectedCashCents, strong: true },
    { label: t('figures:checks'), count: drawer.checks.count, cents: drawer.checks.cents },
  ];
  return (
    <div className="figures-pair">
      <FigureTable caption={t('tables.card')} hint={t('tables.cardHint')} lines={cardLines} />
      <FigureTable caption={t('tables.drawer')} hint={t('tables.drawerHint')} lines={drawerLines} />
    </div>
  );
}

/**
 * A breakdown of the card batch (by card type, by tender): a tender's name in the window's language, a
 * card type the gateway names in words ("Gift") in the window's language too, a brand (Visa) as it is.
 */
export function FigureLinesTable({
  title,
  first,
  lines,
}: {
  title: string;
  first: string;
  lines: FigureLine[];
}) {
  return (
    <table className="data">
      <caption>{title}</caption>
      <TableHead {...figureColumns(first)} />
      <tbody>
        {lines.length === 0 ? (
          <tr>
            <td colSpan={3}>{i18n.t('batch:tables.nothingYet')}</td>
          </tr>
        ) : (
          lines.map((l) => (
            <tr key={l.key}>
              <th scope="row">{figureLineWords(l.key)}</th>
              <td className="num">{l.count}</td>
              <td className="num">{formatCents(l.amountCents)}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
