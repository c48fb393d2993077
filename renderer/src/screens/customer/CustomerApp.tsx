import { useEffect, useState } from 'react';
import { CUSTOMER_DISPLAY_PATH, type Bridge } from '../../../../common/bridge/contract';
import { Localized } from '../../i18n/Localized';
import { CustomerDisplay, type ConnectionWatch } from './CustomerDisplay';
import { CustomerProvider, useCustomer } from './customer-context';
import { followSale } from './customer-language';
import { createCustomerStore } from './customer-store';

/** True for the customer display's page (`/customer`): the same bundle, the customer's screen. */
export function isCustomerDisplayPage(pathname: string): boolean {
  return pathname === CUSTOMER_DISPLAY_PATH;
}

/** The display in the customer's language: the store's locale from the view, the choice for the sale. */
function CustomerRoot({ connection }: { connection?: ConnectionWatch | undefined }) {
  const view = useCustomer((s) => s.view);
  const ticketId = view && view.phase !== 'idle' ? (view.ticket?.ticketId ?? null) : null;
  useEffect(() => {
    if (view) followSale(ticketId);
  }, [view, ticketId]);
  return (
    <Localized storeLocale={view?.locale}>
      {() => <CustomerDisplay {...(connection ? { connection } : {})} />}
    </Localized>
  );
}

export function CustomerApp({ bridge, connection }: { bridge: Bridge; connection?: ConnectionWatch }) {
  const [store] = useState(() => createCustomerStore(bridge));
  return (
    <CustomerProvider store={store}>
      <CustomerRoot connection={connection} />
    </CustomerProvider>
  );
}
