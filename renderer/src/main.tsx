import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, NotConnected } from './App';
import { connectBridge } from './bridge/connect';
import { createStores, StoresProvider } from './state/context';
import { CustomerApp, isCustomerDisplayPage } from './screens/customer/CustomerApp';
import './styles.css';

const root = createRoot(document.getElementById('root') as HTMLElement);
const connected = connectBridge();

if (connected.kind === 'none') {
  root.render(<NotConnected message={connected.message} />);
} else if (isCustomerDisplayPage(window.location.pathname)) {
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
        <App />
      </StoresProvider>
    </StrictMode>,
  );
}
