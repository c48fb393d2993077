import { formatCents } from '../format/money';
import { i18n } from '../i18n/i18n';
import { displayFormat } from '../i18n/locale';
import { TableHead } from './TableHead';

export type Bar = { label: string; value: number; detail?: string };

type BarChartProps = {
  title: string;
  bars: Bar[];
  /** How a value reads in the tooltip and the table (money by default). */
  format?: (value: number) => string;
  height?: number;
};

/**
 * A small hand-rolled SVG bar chart. The SVG is decorative for assistive technology (aria-hidden); the
 * same numbers are in a table beside it, visually hidden, so a screen reader gets the data, not shapes.
 */
export function BarChart({ title, bars, format = formatCents, height = 180 }: BarChartProps) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const width = 720;
  const gap = 4;
  const barWidth = bars.length > 0 ? (width - gap * bars.length) / bars.length : width;
  const labelEvery = bars.length > 12 ? 3 : 1;
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${width} ${height + 28}`} width="100%" aria-hidden="true" preserveAspectRatio="none">
        <line x1="0" y1={height} x2={width} y2={height} stroke="#333" strokeWidth="2" />
        {bars.map((b, i) => {
          const h = Math.round((b.value / max) * (height - 8));
          const x = i * (barWidth + gap);
          return (
            <g key={b.label}>
              <rect x={x} y={height - h} width={barWidth} height={h} fill="#0b5cad">
                <title>{i18n.t('reports:chart.tooltip', { label: b.label, value: format(b.value) })}</title>
              </rect>
              {i % labelEvery === 0 ? (
                <text x={x + barWidth / 2} y={height + 20} textAnchor="middle" fontSize="14" fill="#222">
                  {b.label}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <table className="sr-only">
        <caption>{title}</caption>
        <TableHead columns={[i18n.t('reports:chart.item'), i18n.t('reports:chart.value')]} />
        <tbody>
          {bars.map((b) => (
            <tr key={b.label}>
              <th scope="row">{b.label}</th>
              <td>
                {b.detail
                  ? i18n.t('reports:chart.valueDetail', { value: format(b.value), detail: b.detail })
                  : format(b.value)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

type MixProps = { title: string; parts: Bar[] };

/** "Visa: $12.00 (40 %), 3 payments", in the window's language (its percent written its way). */
function legend(p: Bar, total: number): string {
  const params = { label: p.label, amount: formatCents(p.value), detail: p.detail ?? '' };
  if (total === 0) return i18n.t(p.detail ? 'reports:chart.legendDetail' : 'reports:chart.legend', params);
  const share = new Intl.NumberFormat(displayFormat().locale, { style: 'percent' }).format(
    Math.round((p.value / total) * 100) / 100,
  );
  return i18n.t(p.detail ? 'reports:chart.legendShareDetail' : 'reports:chart.legendShare', {
    ...params,
    share,
  });
}

/** Shares of a whole as one stacked bar with a legend (card mix): reads faster than a pie at a glance. */
export function ShareBar({ title, parts }: MixProps) {
  const total = parts.reduce((s, p) => s + p.value, 0);
  const colors = ['#0b5cad', '#b3261e', '#1b7f3b', '#7a4b00', '#5a2ca0', '#006e7f', '#444'];
  let x = 0;
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <svg viewBox="0 0 720 48" width="100%" aria-hidden="true" preserveAspectRatio="none">
        {total === 0 ? <rect width="720" height="48" fill="#ddd" /> : null}
        {parts.map((p, i) => {
          const w = total === 0 ? 0 : (p.value / total) * 720;
          const rect = (
            <rect key={p.label} x={x} y="0" width={w} height="48" fill={colors[i % colors.length]} />
          );
          x += w;
          return rect;
        })}
      </svg>
      <ul className="legend">
        {parts.map((p, i) => (
          <li key={p.label}>
            <span className="swatch" style={{ background: colors[i % colors.length] }} aria-hidden="true" />
            {legend(p, total)}
          </li>
        ))}
      </ul>
    </figure>
  );
}
