import { useTranslation } from 'react-i18next';
import type { CustomerTicketView } from '../../../../common/bridge/contract';
import { formatCents } from '../../format/money';
import { figureFontSize } from '../../ui/figure';

/** The ticket as rung: every line the ticket carries (one today, the items once it has them) and its sums. */
export function TicketPanel({ ticket }: { ticket: CustomerTicketView }) {
  const { t } = useTranslation('customer');
  const due = ticket.paidCents > 0 && ticket.remainingCents > 0 && ticket.status === 'open';
  const total = formatCents(ticket.totalCents);
  return (
    <section className="cd-ticket" aria-labelledby="cd-order-title">
      <h2 id="cd-order-title" className="cd-section-title">
        {t('yourOrder')}
      </h2>
      <ul className="cd-lines" aria-label={t('lines')}>
        {ticket.lines.map((line) => (
          <li key={line.lineId} className="cd-line">
            <span className="cd-line-name">
              {line.quantity !== undefined && line.quantity !== 1
                ? t('quantity', { quantity: line.quantity })
                : ''}
              {line.wording ? t(`wording.${line.wording}`) : line.description}
              {line.unitPriceCents !== undefined && line.quantity !== undefined && line.quantity !== 1 ? (
                <small> {t('each', { price: formatCents(line.unitPriceCents) })}</small>
              ) : null}
              {line.discountCents ? (
                <small> {t('discount', { amount: formatCents(line.discountCents) })}</small>
              ) : null}
            </span>
            <span className="cd-money">{formatCents(line.amountCents)}</span>
          </li>
        ))}
      </ul>
      <table className="cd-sums" aria-label={t('totals')}>
        <tbody>
          <tr>
            <th scope="row">{t('subtotal')}</th>
            <td>{formatCents(ticket.subtotalCents)}</td>
          </tr>
          <tr>
            <th scope="row">{t('tax')}</th>
            <td>{formatCents(ticket.taxCents)}</td>
          </tr>
          {ticket.tipCents > 0 ? (
            <tr>
              <th scope="row">{t('tip')}</th>
              <td data-testid="cd-tip">{formatCents(ticket.tipCents)}</td>
            </tr>
          ) : null}
          <tr className="cd-total">
            <th scope="row">{t('total')}</th>
            <td data-testid="cd-total" style={{ fontSize: figureFontSize(total, 2.6) }}>
              {total}
            </td>
          </tr>
          {due ? (
            <>
              <tr>
                <th scope="row">{t('paid')}</th>
                <td>{formatCents(ticket.paidCents)}</td>
              </tr>
              <tr className="cd-total">
                <th scope="row">{t('due')}</th>
                <td>{formatCents(ticket.remainingCents)}</td>
              </tr>
            </>
          ) : null}
        </tbody>
      </table>
    </section>
  );
}
