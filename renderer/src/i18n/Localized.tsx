import { useEffect, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { StoreLocaleView } from '../../../common/bridge/contract';
import { localeStore, setStoreLocale } from './locale';

/**
 * The root of a window's screens in its language: it re-renders them whenever the language, the store's
 * locale or its currency changes (a render function, so every screen below renders again: the money and
 * time formatters read the locale as they run), and takes the store's locale from the core as it arrives.
 */
export function Localized({
  storeLocale,
  children,
}: {
  storeLocale: StoreLocaleView | undefined;
  children: () => ReactNode;
}) {
  // Subscribed for its re-render; the page's lang attribute follows in i18n.ts.
  useStore(localeStore);
  useEffect(() => {
    if (storeLocale) setStoreLocale(storeLocale);
  }, [storeLocale]);
  return <>{children()}</>;
}
