import { chooseLanguage, localeStore, type UiLanguage } from '../../i18n/locale';

/**
 * The customer's language lasts for their sale: chosen on the welcome screen, it goes with the sale that
 * follows; chosen during a sale, with that sale. When the display moves on to another sale or back to
 * its welcome, the next customer starts in the store's language again. (The choice itself is kept in the
 * tab's session storage by main.tsx, so a reload in the middle of the sale keeps it.)
 */
let chosenDuring: string | null = null;

export function chooseCustomerLanguage(language: UiLanguage, ticketId: string | null): void {
  chooseLanguage(language);
  chosenDuring = ticketId;
}

/** What the display shows now: a sale's ticket id, or null for the welcome. */
export function followSale(ticketId: string | null): void {
  if (localeStore.getState().chosen === null) return;
  if (chosenDuring === null) {
    chosenDuring = ticketId;
    return;
  }
  if (ticketId !== chosenDuring) {
    chooseLanguage(null);
    chosenDuring = null;
  }
}
