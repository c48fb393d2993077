import { useEffect } from 'react';
import type { SaleOutcome, TenderView } from '../../../../common/bridge/contract';
import { tenderChargedCents } from '../../../../common/transaction-amounts';
import { cardLabel, formatCents } from '../../format/money';
import { figureFontSize } from '../../ui/figure';
import { nextStepFor, REVERSED_HEADLINE, unknownHeadlineFor } from '../../format/outcome';
import { useSale, useSaleStore } from '../../state/context';
import type { ReversalWatch } from '../../state/sale-store';

type Tone = 'ok' | 'bad' | 'warn';

/** An approval the chip card did not confirm: reversed (EMV Book 4 §6.3.8), and why. */
const cardRefusalTitle: Record<NonNullable<TenderView['cardRefusal']>, string> = {
  'declined-by-card': 'Declined by card — payment reversed',
  'card-removed': 'Card removed too soon — payment reversed',
  'card-not-answering': 'The card did not answer — payment reversed',
};

function headline(t: TenderView, reversal: ReversalWatch | null): { tone: Tone; title: string } {
  if (t.status === 'reversed' && t.cardRefusal)
    return { tone: 'bad', title: cardRefusalTitle[t.cardRefusal] };
  // The lost answer's reversal is done: the headline is where things stand, not the warning any more.
  if (t.status === 'unknown' && reversal?.state === 'reversed')
    return { tone: 'warn', title: REVERSED_HEADLINE };
  switch (t.status) {
    case 'approved':
      // Nobody approves cash: the drawer took it.
      return { tone: 'ok', title: t.kind === 'cash' ? 'Cash received' : 'Approved' };
    case 'stored':
      return { tone: 'ok', title: 'Approved offline' };
    case 'partial':
      return { tone: 'warn', title: 'Partially approved' };
    case 'declined':
      return { tone: 'bad', title: 'Declined' };
    case 'unknown':
      return { tone: 'bad', title: unknownHeadlineFor(t) };
    case 'offline-refused':
      return { tone: 'bad', title: 'Offline — not charged' };
    case 'cancelled':
      return { tone: 'warn', title: 'Cancelled' };
    case 'reversed':
      return { tone: 'warn', title: 'Reversed' };
    case 'voided':
      return { tone: 'warn', title: 'Voided' };
    case 'in-progress':
      return { tone: 'warn', title: 'In progress' };
  }
}

const entryWords: Record<string, string> = {
  swipe: 'Swiped',
  chip: 'Chip',
  contactless: 'Contactless',
  keyed: 'Keyed',
  present: 'Card present',
};

/**
 * Cash the cashier hands over — change, or a debit's cash back — is the largest figure on the screen:
 * it is what the cashier must count out next.
 */
function CashOut({ label, cents, testId }: { label: string; cents: number; testId: string }) {
  const text = formatCents(cents);
  return (
    <p className="figure-hero" data-testid={testId}>
      <span className="figure-label">{label}</span>
      <strong style={{ fontSize: figureFontSize(text, 3.5) }}>{text}</strong>
    </p>
  );
}

function reversingWords(watch: ReversalWatch): string {
  if (!watch.attempts) return 'Reversing the payment at the gateway…';
  const tried = `tried ${watch.attempts} time${watch.attempts === 1 ? '' : 's'}`;
  return `Reversing the payment at the gateway — ${tried}${watch.lastError ? ` (${watch.lastError})` : ''}, trying again…`;
}

function ReversalLine({ watch }: { watch: ReversalWatch | null }) {
  if (!watch) return null;
  return (
    <p role="status" data-reversal={watch.state}>
      {watch.state === 'reversing'
        ? reversingWords(watch)
        : watch.state === 'reversed'
          ? (watch.message ?? 'Reversed: the customer is not charged.')
          : `Reversal failed: ${watch.message ?? 'the manager sees it in the reconciliation view'}.`}
    </p>
  );
}

/** The last tender's outcome in plain words: what happened, the card, and what to do next. */
export function OutcomePanel({ outcome }: { outcome: SaleOutcome }) {
  const t = outcome.tender;
  const ticket = outcome.ticket;
  const reversal = useSale((s) => s.reversal);
  const lastTender = useSale((s) => s.lastTender);
  const sale = useSaleStore();
  const head = headline(t, reversal);
  const lostAndReversed = t.status === 'unknown' && reversal?.state === 'reversed';
  const tone = head.tone;
  // An approved hold has charged nothing yet: the cashier must not read it as a finished sale.
  const title = t.kind === 'preauth' && t.status === 'approved' ? 'Pre-authorized (held)' : head.title;
  const next = nextStepFor(t);
  const isCard = t.kind !== 'cash' && t.kind !== 'check';
  const taken = t.status === 'approved' || t.status === 'stored' || t.status === 'partial';
  // A debit with cash back charges the card the purchase and the cash back: both are stated, and the sum.
  const cashBack = t.cashBackCents > 0 && taken;
  const change = t.changeCents !== undefined && t.changeCents > 0 ? t.changeCents : 0;
  // The e2e run reads this mark against `tillpoint:card` (the simulated swipe) for its swipe-to-approved
  // figure; the frame callback places it after the outcome is on screen, not merely committed.
  useEffect(() => {
    const id = requestAnimationFrame(() =>
      performance.mark(`tillpoint:outcome:${t.tenderId}`, { detail: t.status }),
    );
    return () => cancelAnimationFrame(id);
  }, [t.tenderId, t.status]);
  return (
    <section
      className={`outcome outcome-${tone}`}
      aria-labelledby="outcome-title"
      data-outcome={t.status}
      data-reversal={t.status === 'unknown' || t.cardRefusal ? reversal?.state : undefined}
      role={tone === 'ok' ? 'status' : 'alert'}
    >
      <h2 id="outcome-title" tabIndex={-1}>
        {title}
      </h2>
      {change > 0 ? <CashOut label="Change due" cents={change} testId="outcome-change" /> : null}
      {cashBack ? (
        <CashOut label="Give cash back" cents={t.cashBackCents} testId="outcome-cash-back" />
      ) : null}
      <dl className="facts">
        {t.status === 'partial' ? (
          <>
            <dt>Approved</dt>
            <dd>
              {formatCents(t.approvedCents)} of {formatCents(t.requestedCents)}
            </dd>
          </>
        ) : cashBack ? (
          <>
            <dt>Purchase</dt>
            <dd>{formatCents(t.approvedCents)}</dd>
          </>
        ) : (
          <>
            <dt>Amount</dt>
            <dd>
              {formatCents(
                t.status === 'approved' || t.status === 'stored' ? t.approvedCents : t.requestedCents,
              )}
            </dd>
          </>
        )}
        {isCard && t.card ? (
          <>
            <dt>Card</dt>
            <dd data-testid="outcome-card">
              {cardLabel(t.card)}
              {t.card.entry ? ` · ${entryWords[t.card.entry] ?? t.card.entry}` : ''}
            </dd>
          </>
        ) : null}
        {t.authCode ? (
          <>
            <dt>Auth number</dt>
            <dd data-testid="outcome-auth">{t.authCode}</dd>
          </>
        ) : null}
        {t.cashBackCents > 0 ? (
          <>
            <dt>Cash back</dt>
            <dd>{formatCents(t.cashBackCents)}</dd>
          </>
        ) : null}
        {cashBack ? (
          <>
            <dt>Card charged</dt>
            <dd data-testid="outcome-charged">{formatCents(tenderChargedCents(t))}</dd>
          </>
        ) : null}
        {t.balanceCents !== undefined ? (
          <>
            <dt>Card balance</dt>
            <dd>{formatCents(t.balanceCents)}</dd>
          </>
        ) : null}
        {ticket.status === 'open' && ticket.remainingCents > 0 ? (
          <>
            <dt>Remaining</dt>
            <dd data-testid="outcome-remaining">{formatCents(ticket.remainingCents)}</dd>
          </>
        ) : null}
      </dl>
      {t.message && t.status !== 'partial' && !lostAndReversed ? <p>{t.message}</p> : null}
      {t.status === 'partial' ? (
        <p>
          <strong>Collect the remaining {formatCents(ticket.remainingCents)} with another tender.</strong>
        </p>
      ) : null}
      {t.kind === 'preauth' && t.status === 'approved' ? (
        <p data-testid="outcome-preauth">
          Nothing is charged yet. Complete it with the final amount and tip on the Pre-authorizations screen.
        </p>
      ) : null}
      {/* The core's words may already say what to do next: said once, not twice. */}
      {next && !lostAndReversed && !(t.message ?? '').includes(next) ? <p>{next}</p> : null}
      {(t.status === 'unknown' && !lostAndReversed) || t.cardRefusal ? (
        <ReversalLine watch={reversal} />
      ) : null}
      {t.status === 'declined' && t.gatewayCode === 410 && lastTender ? (
        <button
          type="button"
          className="btn btn-danger"
          onClick={() => void sale.getState().pay(lastTender, { allowDuplicate: true })}
        >
          Charge again
        </button>
      ) : null}
    </section>
  );
}
