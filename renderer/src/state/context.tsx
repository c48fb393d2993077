import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Bridge } from '../../../common/bridge/contract';
import { createAppStore, type AppState, type AppStore, type Connection } from './app-store';
import { createSaleStore, type SaleState, type SaleStore, type TicketMemory } from './sale-store';
import { createSimulatorStore, type SimulatorState, type SimulatorStore } from './simulator-store';

export type Stores = { bridge: Bridge; app: AppStore; sale: SaleStore; sim: SimulatorStore };

const StoresContext = createContext<Stores | null>(null);

/** The ticket a window shows, kept in its tab across a reload (nothing where the browser refuses storage). */
function tabTicketMemory(): TicketMemory | undefined {
  let storage: Storage;
  try {
    storage = window.sessionStorage;
  } catch {
    return undefined;
  }
  const key = 'tillpoint.saleTicket';
  return {
    get: () => storage.getItem(key),
    set: (id) => (id ? storage.setItem(key, id) : storage.removeItem(key)),
  };
}

export function createStores(bridge: Bridge, connection: Connection = 'open'): Stores {
  return {
    bridge,
    app: createAppStore(bridge, connection),
    sale: createSaleStore(bridge, undefined, typeof window === 'undefined' ? undefined : tabTicketMemory()),
    sim: createSimulatorStore(bridge),
  };
}

export function StoresProvider({ stores, children }: { stores: Stores; children: ReactNode }) {
  useEffect(() => {
    const offs = [
      stores.app.getState().init(),
      stores.sale.getState().init(),
      stores.sim.getState().init(),
      // The next user starts on a clean sale screen; an open ticket stays in the core and comes back.
      stores.app.subscribe((s, before) => {
        if (before.session && !s.session) stores.sale.getState().newSale();
        // The lane's tax and tip settings are read once someone is signed in (the core refuses before).
        if (s.session && s.session.role !== before.session?.role) void stores.sale.getState().loadSettings();
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [stores]);
  return <StoresContext.Provider value={stores}>{children}</StoresContext.Provider>;
}

function useStores(): Stores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('StoresProvider is missing');
  return stores;
}

export function useBridge(): Bridge {
  return useStores().bridge;
}
export function useAppStore(): AppStore {
  return useStores().app;
}
export function useSaleStore(): SaleStore {
  return useStores().sale;
}
export function useApp<T>(selector: (s: AppState) => T): T {
  return useStore(useStores().app, selector);
}
export function useSale<T>(selector: (s: SaleState) => T): T {
  return useStore(useStores().sale, selector);
}
export function useSim<T>(selector: (s: SimulatorState) => T): T {
  return useStore(useStores().sim, selector);
}
export function useSimStore(): SimulatorStore {
  return useStores().sim;
}

/**
 * The store's time zone (the terminal's status: the merchant's, else the machine's): every time on screen
 * is read in it. Until the status arrives, the machine's.
 */
export function useStoreZone(): string {
  const zone = useApp((s) => s.status?.timeZone);
  return zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** A ticking clock for countdowns; re-renders only the component that asks. */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return now;
}
