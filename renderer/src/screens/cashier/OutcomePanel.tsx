import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { SaleOutcome, TenderView } from '../../../../common/bridge/contract';
import { tenderChargedCents } from '../../../../common/transaction-amounts';
import { cardLabel, formatCents } from '../../format/money';
import { figureFontSize } from '../../ui/figure';
import { nextStepFor, reversedHeadline, unknownHeadlineFor } from '../../format/outcome';
import { en } from '../../i18n/en';
import { i18n } from '../../i18n/i18n';
import { useSale, useSaleStore } from '../../state/context';
import type { ReversalWatch } from '../../state/sale-store';

type Tone = 'ok' | 'bad' | 'warn';

/** The headline: what happened (an approval the chip card did not confirm is reversed, and says why). */
function headline(t: TenderView, reversal: ReversalWatch | null): { tone: Tone; title: string } {
  if (t.status === 'reversed' && t.cardRefusal)
    return { tone: 'bad', title: i18n.t(`sale:outcome.cardRefusal.${t.cardRefusal}`) };
  // The lost answer's reversal is done: the headline is where things stand, not the warning any more.
  if (t.status === 'unknown' && reversal?.state === 'reversed')
    return { tone: 'warn', title: reversedHeadline() };
  switch (t.status) {
    case 'approved':
      // Nobody approves cash: the drawer took it.
      return {
        tone: 'ok',
        title: i18n.t(t.kind === 'cash' ? 'sale:outcome.status.cash' : 'sale:outcome.status.approved'),
      };
    case 'stored':
    case 'partial':
      return {
        tone: t.status === 'stored' ? 'ok' : 'warn',
        title: i18n.t(`sale:outcome.status.${t.status}`),
      };
    case 'unknown':
      return { tone: 'bad', title: unknownHeadlineFor(t) };
    case 'declined':
    case 'offline-refused':
      return { tone: 'bad', title: i18n.t(`sale:outcome.status.${t.status}`) };
    case 'cancelled':
    case 'reversed':
    case 'voided':
    case 'in-progress':
      return { tone: 'warn', title: i18n.t(`sale:outcome.status.${t.status}`) };
  }
}

type EntryWord = keyof typeof en.sale.outcome.entry;
const isEntryWord = (e: string): e is EntryWord => Object.hasOwn(en.sale.outcome.entry, e);

type TenderWord = keyof typeof en.sale.tenderMessage;

/**
 * The core's own words on a tender (its English) in the window's language, found in the `sale` catalog;
 * a gateway's reason, or words the catalog does not hold, are shown as they came.
 */
function tenderMessage(message: string): string {
  const known = (Object.keys(en.sale.tenderMessage) as TenderWord[]).find(
    (k) => en.sale.tenderMessage[k] === message,
  );
  return known ? i18n.t(`sale:tenderMessage.${known}`) : message;
}

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
  if (!watch.attempts) return i18n.t('sale:outcome.reversing');
  return watch.lastError
    ? i18n.t('sale:outcome.reversingTriedWhy', { count: watch.attempts, why: watch.lastError })
    : i18n.t('sale:outcome.reversingTried', { count: watch.attempts });
}

function ReversalLine({ watch }: { watch: ReversalWatch | null }) {
  const { t } = useTranslation('sale');
  if (!watch) return null;
  return (
    <p role="status" data-reversal={watch.state}>
      {watch.state === 'reversing'
        ? reversingWords(watch)
        : watch.state === 'reversed'
          ? watch.message
            ? tenderMessage(watch.message)
            : t('outcome.reversed')
          : t('outcome.reversalFailed', { why: watch.message ?? t('outcome.reversalFailedSeeRecon') })}
    </p>
  );
}

/** The last tender's outcome in plain words: what happened, the card, and what to do next. */
export function OutcomePanel({ outcome }: { outcome: SaleOutcome }) {
  const { t: say } = useTranslation('sale');
  const t = outcome.tender;
  const ticket = outcome.ticket;
  const reversal = useSale((s) => s.reversal);
  const lastTender = useSale((s) => s.lastTender);
  const sale = useSaleStore();
  const head = headline(t, reversal);
  const lostAndReversed = t.status === 'unknown' && reversal?.state === 'reversed';
  const tone = head.tone;
  // An approved hold has charged nothing yet: the cashier must not read it as a finished sale.
  const title = t.kind === 'preauth' && t.status === 'approved' ? say('outcome.preauthHeld') : head.title;
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
      {change > 0 ? (
        <CashOut label={say('outcome.changeDue')} cents={change} testId="outcome-change" />
      ) : null}
      {cashBack ? (
        <CashOut label={say('outcome.giveCashBack')} cents={t.cashBackCents} testId="outcome-cash-back" />
      ) : null}
      <dl className="facts">
        {t.status === 'partial' ? (
          <>
            <dt>{say('outcome.approved')}</dt>
            <dd>
              {say('outcome.approvedOf', {
                approved: formatCents(t.approvedCents),
                requested: formatCents(t.requestedCents),
              })}
            </dd>
          </>
        ) : cashBack ? (
          <>
            <dt>{say('outcome.purchase')}</dt>
            <dd>{formatCents(t.approvedCents)}</dd>
          </>
        ) : (
          <>
            <dt>{say('outcome.amount')}</dt>
            <dd>
              {formatCents(
                t.status === 'approved' || t.status === 'stored' ? t.approvedCents : t.requestedCents,
              )}
            </dd>
          </>
        )}
        {isCard && t.card ? (
          <>
            <dt>{say('outcome.card')}</dt>
            <dd data-testid="outcome-card">
              {t.card.entry
                ? say('outcome.cardEntry', {
                    card: cardLabel(t.card),
                    entry: isEntryWord(t.card.entry) ? say(`outcome.entry.${t.card.entry}`) : t.card.entry,
                  })
                : cardLabel(t.card)}
            </dd>
          </>
        ) : null}
        {t.authCode ? (
          <>
            <dt>{say('outcome.authNumber')}</dt>
            <dd data-testid="outcome-auth">{t.authCode}</dd>
          </>
        ) : null}
        {t.cashBackCents > 0 ? (
          <>
            <dt>{say('outcome.cashBack')}</dt>
            <dd>{formatCents(t.cashBackCents)}</dd>
          </>
        ) : null}
        {cashBack ? (
          <>
            <dt>{say('outcome.cardCharged')}</dt>
            <dd data-testid="outcome-charged">{formatCents(tenderChargedCents(t))}</dd>
          </>
        ) : null}
        {t.balanceCents !== undefined ? (
          <>
            <dt>{say('outcome.cardBalance')}</dt>
            <dd>{formatCents(t.balanceCents)}</dd>
          </>
        ) : null}
        {ticket.status === 'open' && ticket.remainingCents > 0 ? (
          <>
            <dt>{say('outcome.remaining')}</dt>
            <dd data-testid="outcome-remaining">{formatCents(ticket.remainingCents)}</dd>
          </>
        ) : null}
      </dl>
      {t.message && t.status !== 'partial' && !lostAndReversed ? <p>{tenderMessage(t.message)}</p> : null}
      {t.status === 'partial' ? (
        <p>
          <strong>{say('outcome.collectRest', { amount: formatCents(ticket.remainingCents) })}</strong>
        </p>
      ) : null}
      {t.kind === 'preauth' && t.status === 'approved' ? (
        <p data-testid="outcome-preauth">{say('outcome.preauthNote')}</p>
      ) : null}
      {/* The core's words may already say what to do next: said once, not twice. */}
      {next && !lostAndReversed && !tenderMessage(t.message ?? '').includes(next) ? <p>{next}</p> : null}
      {(t.status === 'unknown' && !lostAndReversed) || t.cardRefusal ? (
        <ReversalLine watch={reversal} />
      ) : null}
      {t.status === 'declined' && t.gatewayCode === 410 && lastTender ? (
        <button
          type="button"
          className="btn btn-danger"
          onClick={() => void sale.getState().pay(lastTender, { allowDuplicate: true })}
        >
          {say('outcome.chargeAgain')}
        </button>
      ) : null}
    </section>
  );
}
