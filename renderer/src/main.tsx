import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, NotConnected } from './App';
import { connectBridge } from './bridge/connect';
import { createStores, StoresProvider } from './state/context';
import './styles.css';

const root = createRoot(document.getElementById('root') as HTMLElement);
const connected = connectBridge();

if (connected.kind === 'none') {
  root.render(<NotConnected message={connected.message} />);
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
