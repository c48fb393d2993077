import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { es } from './es';
import { localeStore, PSEUDO } from './locale';
import { pseudoCatalog } from './pseudo';

/**
 * The screens' i18next instance (docs/screens.md "Languages"): the catalogs in ./en and ./es, one namespace
 * per screen area, and the pseudo-locale built from English. It speaks the window's language
 * (locale.ts) and follows it when it changes. Initialised at import, synchronously (the catalogs are in
 * the bundle: nothing to fetch), so a module may call `i18n.t` as soon as it loads.
 */

declare module 'i18next' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- a module augmentation merges only into an interface
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: typeof en;
  }
}

export const NAMESPACES = Object.keys(en) as (keyof typeof en)[];

export const i18n: I18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: {
    en,
    es,
    [PSEUDO]: Object.fromEntries(Object.entries(en).map(([ns, c]) => [ns, pseudoCatalog(c)])),
  },
  lng: localeStore.getState().language,
  fallbackLng: 'en',
  ns: NAMESPACES,
  defaultNS: 'common',
  initAsync: false,
  // React escapes what it renders; i18next escaping too would show "&amp;".
  interpolation: { escapeValue: false },
  returnEmptyString: false,
});

function showLanguage(language: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language === PSEUDO ? 'en' : language;
}

showLanguage(localeStore.getState().language);
localeStore.subscribe((s, before) => {
  if (s.language === before.language) return;
  void i18n.changeLanguage(s.language);
  showLanguage(s.language);
});

/**
 * A message by a key known only at run time (a refusal's messageId, a device's problem): the typed `t`
 * takes only the catalogs' literal keys. Undefined when the catalog has no such message.
 */
export function messageFor(key: string, params: Record<string, string | number> = {}): string | undefined {
  if (!i18n.exists(key, params)) return undefined;
  return (i18n.t as (k: string, o: Record<string, string | number>) => string)(key, params);
}
