import { useTranslation } from 'react-i18next';
import type { TenderForm } from '../../state/sale-store';
import { useSale, useSaleStore } from '../../state/context';

export type TenderOption = {
  id: 'credit' | 'preauth' | TenderForm;
  key: string;
};

/**
 * The tenders a cashier chooses from, with their keyboard shortcuts (shown on the buttons): the same
 * letters in every language (their words: the `sale` catalog's `tenders`).
 */
export const tenderOptions: readonly TenderOption[] = [
  { id: 'credit', key: 'c' },
  { id: 'debit', key: 'd' },
  { id: 'cash', key: 'h' },
  { id: 'keyed', key: 'k' },
  { id: 'gift', key: 'g' },
  { id: 'ebt', key: 'e' },
  { id: 'check', key: 'q' },
  { id: 'preauth', key: 'a' },
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
  const { t: say } = useTranslation('sale');
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
            {say(`tenders.${t.id}.label`)}
            <kbd aria-hidden="true">{t.key.toUpperCase()}</kbd>
            <br />
            <span className="hint">{say(`tenders.${t.id}.hint`)}</span>
          </button>
        ))}
      </div>
    </section>
  );
}
