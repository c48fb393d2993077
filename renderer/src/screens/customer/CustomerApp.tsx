import { useState } from 'react';
import { CUSTOMER_DISPLAY_PATH, type Bridge } from '../../../../electron/bridge/contract';
import { CustomerDisplay, type ConnectionWatch } from './CustomerDisplay';
import { CustomerProvider } from './customer-context';
import { createCustomerStore } from './customer-store';

/** True for the customer display's page (`/customer`): the same bundle, the customer's screen. */
export function isCustomerDisplayPage(pathname: string): boolean {
  return pathname === CUSTOMER_DISPLAY_PATH;
}

export function CustomerApp({ bridge, connection }: { bridge: Bridge; connection?: ConnectionWatch }) {
  const [store] = useState(() => createCustomerStore(bridge));
  return (
    <CustomerProvider store={store}>
      <CustomerDisplay {...(connection ? { connection } : {})} />
    </CustomerProvider>
  );
}
