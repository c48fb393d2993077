import { createStore } from 'zustand/vanilla';
import {
  DEFAULT_STORE_LOCALE,
  formatLocale,
  isLanguage,
  languageOf,
  type Language,
  type StoreLocale,
} from '../../../common/store-locale';

/**
 * A window's language and the store's locale (docs/screens.md "Languages"). The store's locale and
 * currency come from the core (terminal.status for the cashier's window, the customer view for the
 * customer display); the window speaks the store's language until someone at it chooses another, which
 * the window remembers (the cashier's in this machine's storage, the customer's for their sale only).
 *
 * `en-XA` is the pseudo-locale: English with every message wrapped in ⟦…⟧, so a test sees at a glance
 * which words on a screen did not come from the catalogs (test/e2e/no-literals.test.ts). It is never
 * offered; only a test puts it in a window's storage.
 */
export const PSEUDO = 'en-XA';
export type UiLanguage = Language | typeof PSEUDO;

export function isUiLanguage(value: unknown): value is UiLanguage {
  return value === PSEUDO || isLanguage(value);
}

/** Where a window keeps the language chosen at it (absent: nowhere, e.g. in a test in Node). */
export type LanguageMemory = { get(): string | null; set(language: UiLanguage | null): void };

export type LocaleState = {
  /** The store's locale and currency (the core's). */
  store: StoreLocale;
  /** The language chosen at this window, if any. */
  chosen: UiLanguage | null;
  /** The language this window speaks: the one chosen here, else the store's. */
  language: UiLanguage;
};

export const localeStore = createStore<LocaleState>()(() => ({
  store: DEFAULT_STORE_LOCALE,
  chosen: null,
  language: languageOf(DEFAULT_STORE_LOCALE.locale),
}));

let memory: LanguageMemory | undefined;

const effective = (store: StoreLocale, chosen: UiLanguage | null): UiLanguage =>
  chosen ?? languageOf(store.locale);

/** This window's memory of its choice: what it remembered is taken at once. */
export function rememberLanguageIn(m: LanguageMemory | undefined): void {
  memory = m;
  const kept = m?.get();
  const chosen = isUiLanguage(kept) ? kept : null;
  const { store } = localeStore.getState();
  localeStore.setState({ chosen, language: effective(store, chosen) });
}

export function setStoreLocale(store: StoreLocale): void {
  const now = localeStore.getState();
  if (now.store.locale === store.locale && now.store.currency === store.currency) return;
  localeStore.setState({ store, language: effective(store, now.chosen) });
}

/** Someone at this window chose a language (null: back to the store's). */
export function chooseLanguage(language: UiLanguage | null): void {
  memory?.set(language);
  const { store } = localeStore.getState();
  localeStore.setState({ chosen: language, language: effective(store, language) });
}

/** The locale figures and dates are written in on this window, and the store's currency. */
export function displayFormat(state: LocaleState = localeStore.getState()): {
  locale: string;
  currency: string;
} {
  const language: Language = state.language === PSEUDO ? 'en' : state.language;
  return { locale: formatLocale(language, state.store.locale), currency: state.store.currency };
}

/** A window's memory in its browser storage; nothing where the browser refuses storage. */
export function storageMemory(kind: 'local' | 'session', key: string): LanguageMemory | undefined {
  let storage: Storage;
  try {
    storage = kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return undefined;
  }
  return {
    get: () => storage.getItem(key),
    set: (language) => (language ? storage.setItem(key, language) : storage.removeItem(key)),
  };
}
