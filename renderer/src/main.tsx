import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, NotConnected } from './App';
import { connectBridge } from './bridge/connect';
import { createStores, StoresProvider, useApp } from './state/context';
import { CustomerApp, isCustomerDisplayPage } from './screens/customer/CustomerApp';
import { i18n } from './i18n/i18n';
import { rememberLanguageIn, storageMemory } from './i18n/locale';
import { Localized } from './i18n/Localized';
import './styles.css';

const root = createRoot(document.getElementById('root') as HTMLElement);
const connected = connectBridge();
const customerPage = isCustomerDisplayPage(window.location.pathname);

// The cashier's language is this machine's choice until changed; the customer's lasts for their sale
// (screens/customer/CustomerApp.tsx), in this tab only.
rememberLanguageIn(
  customerPage
    ? storageMemory('session', 'tillpoint.customerLanguage')
    : storageMemory('local', 'tillpoint.cashierLanguage'),
);

/** The cashier's screens, in the window's language, the store's locale from the terminal's status. */
function CashierRoot() {
  const storeLocale = useApp((s) => s.status?.locale);
  return <Localized storeLocale={storeLocale}>{() => <App />}</Localized>;
}

if (connected.kind === 'none') {
  // connect.ts says why in English for tools; the page says it in the window's language.
  root.render(<NotConnected message={i18n.t('app:notOpened')} />);
} else if (customerPage) {
  // The customer display: its own screen on the same bridge, whose connection the core admits as a
  // customer display's (the launch token or the window says so, never this page).
  root.render(
    <StrictMode>
      <CustomerApp
        bridge={connected.bridge}
        {...(connected.kind === 'browser' ? { connection: connected.bridge } : {})}
      />
    </StrictMode>,
  );
} else {
  const stores = createStores(
    connected.bridge,
    connected.kind === 'browser' ? connected.bridge.state() : 'open',
  );
  if (connected.kind === 'browser')
    connected.bridge.onState((state, message) => stores.app.getState().setConnection(state, message));
  root.render(
    <StrictMode>
      <StoresProvider stores={stores}>
        <CashierRoot />
      </StoresProvider>
    </StrictMode>,
  );
}
