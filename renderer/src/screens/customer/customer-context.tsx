import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { CustomerState, CustomerStore } from './customer-store';

const CustomerContext = createContext<CustomerStore | null>(null);

export function CustomerProvider({ store, children }: { store: CustomerStore; children: ReactNode }) {
  return <CustomerContext.Provider value={store}>{children}</CustomerContext.Provider>;
}

export function useCustomerStore(): CustomerStore {
  const store = useContext(CustomerContext);
  if (!store) throw new Error('CustomerProvider is missing');
  return store;
}

export function useCustomer<T>(selector: (s: CustomerState) => T): T {
  return useStore(useCustomerStore(), selector);
}
