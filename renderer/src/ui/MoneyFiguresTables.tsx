import { FIGURE_LABELS, type FigureLine, type MoneyFigures } from '../../../common/money-figures';
import { formatCents } from '../format/money';
import { TableHead } from './TableHead';

type Line = { label: string; count?: number; cents: number; strong?: boolean };

function FigureTable({ caption, hint, lines }: { caption: string; hint: string; lines: Line[] }) {
  return (
    <div className="figures">
      <table className="data">
        <caption>{caption}</caption>
        <TableHead columns={['Figure', 'Count', 'Amount']} numeric={['Count', 'Amount']} />
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
  const { card, drawer } = figures;
  const cardLines: Line[] = [
    { label: FIGURE_LABELS.cardSales, count: card.sales.count, cents: card.sales.cents },
    { label: FIGURE_LABELS.cardCashBack, cents: card.cashBackCents },
    { label: FIGURE_LABELS.cardTips, cents: card.tipCents },
    { label: FIGURE_LABELS.cardRefunds, count: card.refunds.count, cents: card.refunds.cents },
    { label: FIGURE_LABELS.cardNet, cents: card.netCents, strong: true },
  ];
  if (card.storedOffline.count > 0)
    cardLines.push({
      label: FIGURE_LABELS.storedOffline,
      count: card.storedOffline.count,
      cents: card.storedOffline.cents,
    });
  const drawerLines: Line[] = [
    { label: FIGURE_LABELS.cashTaken, count: drawer.cashTaken.count, cents: drawer.cashTaken.cents },
    { label: FIGURE_LABELS.cashBackPaid, cents: drawer.cashBackPaidCents },
    { label: FIGURE_LABELS.expectedCash, cents: drawer.expectedCashCents, strong: true },
    { label: FIGURE_LABELS.checks, count: drawer.checks.count, cents: drawer.checks.cents },
  ];
  return (
    <div className="figures-pair">
      <FigureTable
        caption="Card batch"
        hint="What the gateway settles: card payments only (cash back included, the card paid it). Card net = card sales − card refunds. Cash never enters it."
        lines={cardLines}
      />
      <FigureTable
        caption="Drawer"
        hint="Cash and checks from sales at this lane: cash from sales = cash taken − cash back paid out. The tills count the drawer itself (float, cash refunds, paid in and out, safe drops): see Tills."
        lines={drawerLines}
      />
    </div>
  );
}

/** A breakdown of the card batch (by card type, by tender). */
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
      <TableHead columns={[first, 'Count', 'Amount']} numeric={['Count', 'Amount']} />
      <tbody>
        {lines.length === 0 ? (
          <tr>
            <td colSpan={3}>Nothing yet.</td>
          </tr>
        ) : (
          lines.map((l) => (
            <tr key={l.key}>
              <th scope="row">{l.key}</th>
              <td className="num">{l.count}</td>
              <td className="num">{formatCents(l.amountCents)}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
