import type { TenderForm } from '../../state/sale-store';
import { useSale, useSaleStore } from '../../state/context';

export type TenderOption = {
  id: 'credit' | 'preauth' | TenderForm;
  label: string;
  hint: string;
  key: string;
};

/** The tenders a cashier chooses from, with their keyboard shortcuts (shown on the buttons). */
export const tenderOptions: readonly TenderOption[] = [
  { id: 'credit', label: 'Credit', hint: 'Insert, tap or swipe', key: 'c' },
  { id: 'debit', label: 'Debit', hint: 'PIN, cash back', key: 'd' },
  { id: 'cash', label: 'Cash', hint: 'Change due', key: 'h' },
  { id: 'keyed', label: 'Keyed card', hint: 'Type the number', key: 'k' },
  { id: 'gift', label: 'Gift card', hint: 'Swipe or type', key: 'g' },
  { id: 'ebt', label: 'EBT', hint: 'Food or cash', key: 'e' },
  { id: 'check', label: 'Check', hint: 'Routing and account', key: 'q' },
  { id: 'preauth', label: 'Pre-auth', hint: 'Hold now, complete later', key: 'a' },
];

/**
 * Starts the chosen tender: credit and pre-authorization go straight to the devices (a hold is read like a
 * credit card), the others ask for their details. An amount above the lane's ceiling waits for the
 * cashier's confirmation first (`confirmed`: it was given).
 */
export function useStartTender(): (id: TenderOption['id'], confirmed?: boolean) => void {
  const sale = useSaleStore();
  return (id, confirmed = false) => {
    const s = sale.getState();
    if (!confirmed && s.holdForConfirmation(id)) return;
    if (id === 'credit') void s.pay({ kind: 'credit', entry: 'present' });
    else if (id === 'preauth') void s.pay({ kind: 'preauth', entry: 'present' });
    else void s.chooseForm(id);
  };
}

/** `quiet`: no tender stands out (a lost answer is still being reversed: Credit is not the next step). */
export function TenderChoice({ title, quiet = false }: { title: string; quiet?: boolean }) {
  const start = useStartTender();
  const hasAmount = useSale((s) => s.ticket !== null || s.subtotalCents > 0);
  return (
    <section aria-labelledby="tender-title">
      <h2 id="tender-title">{title}</h2>
      <div className="tenders">
        {tenderOptions.map((t) => (
          <button
            key={t.id}
            type="button"
            className={`btn ${t.id === 'credit' && !quiet ? 'btn-primary' : ''}`}
            aria-keyshortcuts={t.key.toUpperCase()}
            aria-disabled={!hasAmount || undefined}
            onClick={() => start(t.id)}
            data-tender={t.id}
          >
            {t.label}
            <kbd aria-hidden="true">{t.key.toUpperCase()}</kbd>
            <br />
            <span className="hint">{t.hint}</span>
          </button>
        ))}
      </div>
    </section>
  );
}
