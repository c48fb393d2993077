import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_CONFIRM_ABOVE_CENTS } from '../../../../common/amount-ceiling';
import { formatCents, taxOf, tipOf } from '../../format/money';
import { useApp, useAppStore, useBridge, useSale, useSaleStore } from '../../state/context';
import { useRing } from '../../state/use-ticket-change';
import { useWedgeScan } from '../../state/use-wedge-scan';
import { Dialog } from '../../ui/Dialog';
import { figureFontSize } from '../../ui/figure';
import { Keypad } from '../../ui/Keypad';
import {
  CustomerChoices,
  CustomerDisplayButton,
  SignOnDisplayNote,
  TipOnDisplayNote,
  TipWaitPanel,
} from './CustomerSide';
import { OutcomePanel } from './OutcomePanel';
import { PromptPanel } from './PromptPanel';
import { ReceiptActions, ReceiptDialog } from './ReceiptPanel';
import { SignaturePanel } from './SignaturePanel';
import { TenderChoice, tenderOptions, useStartTender } from './TenderChoice';
import { TenderFormPanel } from './TenderForms';
import { AddItems } from './AddItems';
import { TicketDialogs } from './TicketDialogs';
import { TicketPanel } from './TicketPanel';

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.id === 'sale-amount') return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * The cashier's keys: digits and Backspace on the amount, letters for tenders, Esc to cancel, N for next.
 *
 * A keyboard-wedge scanner types into the same page: its keys go through the wedge rule
 * (common/wedge-scan.ts) first. Its digits reach the keypad before its suffix tells them from typing; once
 * it does, the amount goes back to what it was before the burst and the scan is rung (it arrives as
 * `scanner.scanned`): a scan never becomes an amount. A letter shortcut waits for the scanner's gap before
 * it acts, and a key right behind it (a Code 128 label's next character) cancels it, so a label's letters
 * start no tender and print no receipt.
 */
function useSaleKeys() {
  const sale = useSaleStore();
  const app = useAppStore();
  const start = useStartTender();
  const wedge = useWedgeScan({
    onError: (text) => sale.getState().setScanNote({ tone: 'bad', text }),
  });
  const settings = useRef(wedge.settings);
  settings.current = wedge.settings;
  const feed = wedge.onKeyDown;
  // Kept across re-renders: a burst's keys and a waiting shortcut outlive the listener they came through.
  const burst = useRef({ lastCharAt: -Infinity, amountBefore: 0 });
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(
    () => () => {
      if (pending.current !== undefined) clearTimeout(pending.current);
    },
    [],
  );
  useEffect(() => {
    const gap = () => settings.current?.maxGapMs ?? 50;
    const later = (act: () => void) => {
      pending.current = setTimeout(() => {
        pending.current = undefined;
        act();
      }, gap() + 5);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      if (app.getState().approval || document.querySelector('dialog[open]')) return;
      const s = sale.getState();
      const editable = isEditable(e.target);
      if (pending.current !== undefined && (e.key.length === 1 || e.key === 'Enter')) {
        clearTimeout(pending.current);
        pending.current = undefined;
      }
      if (!editable) {
        const b = burst.current;
        if (e.key.length === 1) {
          if (e.timeStamp - b.lastCharAt > gap()) b.amountBefore = s.subtotalCents;
          b.lastCharAt = e.timeStamp;
        }
        if (feed(e).kind === 'scan') {
          s.undoScanKeys(b.amountBefore);
          return;
        }
      }
      const onControl = e.target instanceof HTMLButtonElement || e.target instanceof HTMLAnchorElement;
      const key = e.key.toLowerCase();
      if (s.phase === 'paying') {
        if (e.key === 'Escape') {
          e.preventDefault();
          void s.cancel();
        }
        return;
      }
      if (s.phase === 'tip') {
        if (e.key === 'Escape') {
          e.preventDefault();
          void s.endTipAsk('cancel');
        }
        return;
      }
      if (s.phase === 'form') {
        if (e.key === 'Escape') {
          e.preventDefault();
          s.closeForm();
        }
        return;
      }
      if (editable) return;
      if (s.phase === 'entry' && !s.ticket) {
        // A scanner's burst after the keypad overflowed: its last digits and its Enter start nothing.
        if (s.scanGuard) {
          e.preventDefault();
          if (['Enter', 'Escape', 'Backspace', 'Delete'].includes(e.key)) s.endScan();
          return;
        }
        if (/^\d$/.test(e.key)) {
          e.preventDefault();
          s.digit(e.key);
          return;
        }
        if (e.key === 'Backspace') {
          e.preventDefault();
          s.backspace();
          return;
        }
        if (e.key === 'Escape' || e.key === 'Delete') {
          e.preventDefault();
          s.clearAmount();
          return;
        }
        if (e.key === 'Enter' && !onControl && s.subtotalCents > 0) {
          e.preventDefault();
          start('credit');
          return;
        }
      }
      if (s.phase === 'entry' && s.ticket?.itemized && e.key === 'Escape') {
        e.preventDefault();
        s.selectLine(null);
        return;
      }
      if (s.phase === 'entry' || s.phase === 'result') {
        const option = tenderOptions.find((t) => t.key === key);
        if (option) {
          e.preventDefault();
          later(() => start(option.id));
        }
        return;
      }
      if (s.phase === 'done') {
        if (e.key === 'Enter' && !onControl) {
          e.preventDefault();
          s.newSale();
        } else if (key === 'n') {
          e.preventDefault();
          later(() => sale.getState().newSale());
        } else if (key === 'p') {
          e.preventDefault();
          later(() => void sale.getState().printReceipt());
        } else if (key === 'r') {
          e.preventDefault();
          later(() => void sale.getState().showReceipt());
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [sale, app, start, feed]);
}

/**
 * The ticket's figures. The one the customer pays — the total, tax and tip in, or what remains once part
 * is paid — is the largest figure on the screen (`pay`); the typed amount is pre-tax and smaller.
 */
function Totals() {
  const { t } = useTranslation('sale');
  const ticket = useSale((s) => s.ticket);
  const subtotal = useSale((s) => s.subtotalCents);
  const tip = useSale((s) => s.tipCents);
  const rate = useSale((s) => s.settings?.taxRatePercent ?? 0);
  const partPaid = ticket !== null && ticket.paidCents > 0 && ticket.status === 'open';
  // The id names the row's figure for tests and tools in any language (data-testid `total-<id>`).
  type Row = [id: string, label: string, cents: number, cls?: string];
  const rows: Row[] = ticket
    ? [
        ['subtotal', t('totals.subtotal'), ticket.subtotalCents],
        ['tax', t('totals.tax'), ticket.taxCents],
        ['tip', t('totals.tip'), ticket.tipCents],
        ['total', t('totals.total'), ticket.totalCents, partPaid ? 'total' : 'total pay'],
        ...(ticket.paidCents > 0
          ? ([
              ['paid', t('totals.paid'), ticket.paidCents],
              ['remaining', t('totals.remaining'), ticket.remainingCents, partPaid ? 'total pay' : undefined],
            ] as Row[])
          : []),
      ]
    : [
        ['subtotal', t('totals.subtotal'), subtotal],
        ['tax', t('totals.taxRate', { rate }), taxOf(subtotal, rate)],
        ['tip', t('totals.tip'), tip],
        ['total', t('totals.total'), subtotal + taxOf(subtotal, rate) + tip, 'total pay'],
      ];
  return (
    <table className="totals" aria-label={t('totals.caption')}>
      <tbody>
        {rows.map(([id, label, cents, cls]) => {
          const text = formatCents(cents);
          const pay = cls?.includes('pay') === true;
          return (
            <tr key={id} className={cls}>
              <th scope="row">{pay && ticket?.status !== 'paid' ? t('totals.toPay', { label }) : label}</th>
              <td
                data-testid={`total-${id}`}
                style={pay ? { fontSize: figureFontSize(text, 2.6) } : undefined}
              >
                {text}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function TipChoice() {
  const { t } = useTranslation('sale');
  const settings = useSale((s) => s.settings);
  const ticket = useSale((s) => s.ticket);
  // A ticket of lines takes its tip on the pre-tax amount the core priced (`sale.setTip`); the keypad's
  // amount takes it with the ticket it opens.
  const lines =
    ticket?.itemized !== undefined &&
    ticket.tenders.every((t) => t.status === 'declined' || t.status === 'cancelled');
  const subtotal = useSale((s) => (lines && s.ticket ? s.ticket.subtotalCents : s.subtotalCents));
  const tip = useSale((s) => (lines && s.ticket ? s.ticket.tipCents : s.tipCents));
  const sale = useSaleStore();
  const fromCustomer = useSale((s) => s.tipFromCustomer());
  if (!settings?.tipPrompt || (ticket && !lines)) return null;
  if (fromCustomer) return <TipOnDisplayNote />;
  const options = [0, ...settings.tipPresetsPercent];
  // One choice shows as chosen: the first whose amount is the tip. On $0.00 (or a few cents) several
  // presets come to the same cents, and a radio group marks the last of several checked ones.
  const chosen = options.findIndex((p) => tipOf(subtotal, p) === tip);
  return (
    <fieldset className="row">
      <legend>{t('tip.legend')}</legend>
      {options.map((p, i) => {
        const cents = tipOf(subtotal, p);
        return (
          <label key={p} className="check">
            <input
              type="radio"
              name="tip"
              checked={i === chosen}
              onChange={() =>
                lines ? void sale.getState().setTicketTip(cents) : sale.getState().setTip(cents)
              }
            />
            {p === 0 ? t('tip.none') : t('tip.preset', { percent: p, amount: formatCents(cents) })}
          </label>
        );
      })}
    </fieldset>
  );
}

function AmountPanel() {
  const { t } = useTranslation('sale');
  const sale = useSaleStore();
  const subtotal = useSale((s) => s.subtotalCents);
  const locked = useSale((s) => s.ticket !== null || s.phase !== 'entry');
  const ticket = useSale((s) => s.ticket);
  const canEdit = useSale(
    (s) =>
      s.phase === 'entry' &&
      s.ticket !== null &&
      s.ticket.tenders.every((t) => t.status === 'declined' || t.status === 'cancelled'),
  );
  const amountText = formatCents(ticket ? ticket.subtotalCents : subtotal);
  return (
    <section aria-labelledby="amount-label" className="stack">
      <label id="amount-label" htmlFor="sale-amount">
        {t('amount.label')}
      </label>
      <input
        id="sale-amount"
        className="amount"
        readOnly
        inputMode="none"
        style={{ fontSize: figureFontSize(amountText, 2) }}
        value={amountText}
        aria-describedby="amount-hint"
        data-autofocus={!locked || undefined}
      />
      <p id="amount-hint" className="hint">
        {t('amount.hint')}
      </p>
      {/* Once the ticket is open the amount is fixed: the keypad gives its room to what happens now. */}
      {locked ? null : (
        <Keypad
          label={t('amount.keypad')}
          onDigit={(d) => sale.getState().digit(d)}
          onBackspace={() => sale.getState().backspace()}
        />
      )}
      {canEdit ? (
        <button type="button" className="btn" onClick={() => void sale.getState().editAmount()}>
          {t('amount.change')}
        </button>
      ) : null}
      <Totals />
    </section>
  );
}

/**
 * An amount above the lane's ceiling waits for the cashier before any card wait or form: a barcode scanned
 * into the amount or a slip of the finger is not a sale. The safe answer has the focus, so a second Enter
 * (a scanner's, or a hasty cashier's) goes back to the amount.
 */
function ConfirmAmount() {
  const { t } = useTranslation('sale');
  const sale = useSaleStore();
  const start = useStartTender();
  const confirming = useSale((s) => s.confirming);
  const toPay = useSale((s) => s.toPayCents());
  const ceiling = useSale((s) => s.settings?.confirmAboveCents ?? DEFAULT_CONFIRM_ABOVE_CENTS);
  const lines = useSale((s) => s.ticket?.itemized !== undefined);
  if (!confirming) return null;
  const amount = formatCents(toPay);
  return (
    <Dialog
      title={t('confirm.title')}
      onClose={() => sale.getState().cancelConfirmation()}
      initialFocus="confirm-amount-back"
    >
      <p className="dialog-reason">{t('confirm.reason', { amount, ceiling: formatCents(ceiling) })}</p>
      <p className="hint">{lines ? t('confirm.hintLines') : t('confirm.hintAmount')}</p>
      <div className="row">
        <button
          id="confirm-amount-back"
          type="button"
          className="btn btn-primary"
          onClick={() => sale.getState().cancelConfirmation()}
        >
          {t('confirm.back')}
        </button>
        <button
          type="button"
          className="btn btn-danger"
          onClick={() => {
            const pending = sale.getState().confirmAmount();
            if (pending) start(pending, true);
          }}
        >
          {t('confirm.charge', { amount })}
        </button>
      </div>
    </Dialog>
  );
}

function CancelSale() {
  const { t } = useTranslation('sale');
  const sale = useSaleStore();
  const app = useAppStore();
  const ticket = useSale((s) => s.ticket);
  if (!ticket) return null;
  const taken = ticket.tenders.some((t) => t.status === 'approved' || t.status === 'partial');
  const cancel = async () => {
    const r = taken
      ? await app
          .getState()
          .withManager(t('cancelSale.approval'), (approval) => sale.getState().abandon(approval))
      : await sale.getState().abandon(undefined);
    if (r?.ok) app.getState().notify('info', taken ? t('cancelSale.doneReversing') : t('cancelSale.done'));
  };
  return (
    <button type="button" className="btn btn-danger" onClick={() => void cancel()}>
      {t('cancelSale.button')}
    </button>
  );
}

export function SaleScreen() {
  const { t } = useTranslation('sale');
  const phase = useSale((s) => s.phase);
  const form = useSale((s) => s.form);
  const outcome = useSale((s) => s.outcome);
  const error = useSale((s) => s.error);
  const note = useSale((s) => s.receiptNote);
  const ticket = useSale((s) => s.ticket);
  const openTicketId = useApp((s) => s.status?.openTicketId);
  const recoveredTicketId = useApp((s) => s.status?.recoveredTicketId);
  const signedIn = useApp((s) => s.session !== null);
  // A lost answer still being reversed: no tender is offered first (the cashier must not run the card
  // again until the reversal is through); once reversed, Credit is where the next payment starts.
  const reversing = useSale(
    (s) => s.outcome?.tender.status === 'unknown' && s.reversal?.state !== 'reversed',
  );
  const sale = useSaleStore();
  const bridge = useBridge();
  const ring = useRing();
  const itemized = ticket?.itemized !== undefined;
  useSaleKeys();

  // Every scanner's scans (serial, USB HID POS, a keyboard wedge's once told from typing) ring the item.
  // Every window of the lane hears a scan: a hidden one (minimised, a background tab) leaves it to the
  // window the cashier sees, and of the windows in view the core lets one ring it (scanner.claim).
  useEffect(
    () =>
      bridge.on('scanner.scanned', (scan) => {
        if (signedIn && document.visibilityState !== 'hidden') void ring.scan(scan);
      }),
    [bridge, ring, signedIn],
  );

  // The quick keys and the catalog as they are now (a manager may have changed them meanwhile).
  useEffect(() => {
    if (signedIn) void sale.getState().loadCatalog();
  }, [signedIn, sale]);

  // Each phase puts the keyboard where the cashier's next action is (the amount, Cancel, New sale…).
  useEffect(() => {
    const id = requestAnimationFrame(() => {
      const root = document.getElementById('sale-root');
      if (
        !root ||
        (document.activeElement &&
          document.activeElement !== document.body &&
          root.contains(document.activeElement) &&
          phase === 'form')
      )
        return;
      const targets = root.querySelectorAll<HTMLElement>(
        phase !== 'result' ? '[data-autofocus]' : reversing ? '#outcome-title' : '[data-tender="credit"]',
      );
      targets[targets.length - 1]?.focus();
    });
    return () => cancelAnimationFrame(id);
  }, [phase, reversing]);

  // A reload, a second window or a restart: show what the lane is doing (the tender the core runs, the
  // open ticket, or the ticket this window showed) instead of an empty keypad beside a running payment.
  useEffect(() => {
    if (signedIn) void sale.getState().attach(openTicketId, recoveredTicketId);
  }, [openTicketId, recoveredTicketId, signedIn, sale]);

  return (
    <div id="sale-root" className={itemized ? 'sale-with-ticket' : undefined}>
      <h1 tabIndex={-1} className="sale-title">
        {t('title')}
      </h1>
      <div className={itemized ? 'sale sale-ticket' : 'sale'}>
        {ticket && itemized ? <TicketPanel ticket={ticket} /> : <AmountPanel />}
        <div className="stack">
          {error ? (
            <p className="outcome outcome-bad" role="alert" data-testid="sale-error">
              {error}
            </p>
          ) : null}
          {phase === 'entry' ? (
            <>
              <AddItems />
              <TipChoice />
              <TenderChoice title={t('chooseTender')} />
              <div className="row">
                <button type="button" className="btn" onClick={() => void sale.getState().reprintLast()}>
                  {t('reprintLast')}
                </button>
                <CustomerDisplayButton />
                <CancelSale />
              </div>
              <CustomerChoices />
              {note ? <p role="status">{note}</p> : null}
            </>
          ) : null}
          {phase === 'form' && form ? <TenderFormPanel form={form} /> : null}
          {phase === 'tip' ? <TipWaitPanel /> : null}
          {phase === 'paying' ? <PromptPanel /> : null}
          {phase === 'result' && outcome ? <OutcomePanel outcome={outcome} /> : null}
          {phase === 'result' ? (
            <>
              <TenderChoice
                quiet={reversing}
                title={
                  ticket && ticket.remainingCents > 0
                    ? t('nextTender', { amount: formatCents(ticket.remainingCents) })
                    : t('chooseTender')
                }
              />
              <div className="row">
                <CancelSale />
              </div>
            </>
          ) : null}
          {phase === 'signature' && outcome ? (
            <>
              {/* "Sign here" and its action first: they are what the counter is waiting for. */}
              <SignaturePanel />
              <SignOnDisplayNote />
              <OutcomePanel outcome={outcome} />
            </>
          ) : null}
          {phase === 'done' && outcome ? (
            <>
              <OutcomePanel outcome={outcome} />
              <CustomerChoices />
              <ReceiptActions />
            </>
          ) : null}
        </div>
      </div>
      <ReceiptDialog />
      <ConfirmAmount />
      <TicketDialogs />
    </div>
  );
}
