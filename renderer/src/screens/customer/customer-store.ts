import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  Bridge,
  BridgeError,
  BridgeResult,
  CustomerDisplayView,
  CustomerTipChoice,
  SignatureInput,
} from '../../../../common/bridge/contract';
import { isLanguage } from '../../../../common/store-locale';
import { localeStore } from '../../i18n/locale';

export type CustomerState = {
  view: CustomerDisplayView | null;
  /** The last answer the core refused (its code; the screen words it). */
  refused: BridgeError | null;
  busy: boolean;
  init(): () => void;
  /** Reads what the display should show now (at start, after a reload or a dropped connection). */
  refresh(): Promise<void>;
  tip(choice: CustomerTipChoice): Promise<boolean>;
  sign(input: Extract<SignatureInput, { source: 'screen' }>): Promise<boolean>;
  receipt(choice: 'print' | 'email' | 'none', email?: string): Promise<boolean>;
  dismiss(): void;
};

export type CustomerStore = StoreApi<CustomerState>;

/**
 * The customer display's state: the core's customer view (customer.updated; a newer version never gives
 * way to an older one arriving late) and the customer's answers, each for what the view asks now.
 */
export function createCustomerStore(bridge: Bridge): CustomerStore {
  return createStore<CustomerState>()((set, get) => {
    const take = (v: CustomerDisplayView): void => {
      const now = get().view;
      if (!now || v.version >= now.version) set({ view: v });
    };
    const answer = async (call: () => Promise<BridgeResult<CustomerDisplayView>>): Promise<boolean> => {
      if (get().busy) return false;
      set({ busy: true, refused: null });
      try {
        const r = await call();
        if (r.ok) {
          take(r.value);
          return true;
        }
        set({ refused: r.error });
        // The question may have ended meanwhile (the cashier skipped it): show what is asked now.
        if (r.error.code === 'conflict') await get().refresh();
        return false;
      } finally {
        set({ busy: false });
      }
    };
    return {
      view: null,
      refused: null,
      busy: false,
      init() {
        const off = bridge.on('customer.updated', take);
        void get().refresh();
        return off;
      },
      async refresh() {
        const r = await bridge.send('customer.view', {});
        if (r.ok) take(r.value);
      },
      tip(choice) {
        const ask = get().view?.ask;
        if (ask?.kind !== 'tip') return Promise.resolve(false);
        return answer(() => bridge.send('customer.tip', { ticketId: ask.ticketId, choice }));
      },
      sign(input) {
        const ask = get().view?.ask;
        if (ask?.kind !== 'signature') return Promise.resolve(false);
        return answer(() =>
          bridge.send('customer.signature', {
            ticketId: ask.ticketId,
            tenderId: ask.tenderId,
            signature: input,
          }),
        );
      },
      receipt(choice, email) {
        const ask = get().view?.ask;
        const chosen = localeStore.getState().chosen;
        if (ask?.kind !== 'receipt') return Promise.resolve(false);
        return answer(() =>
          bridge.send('customer.receipt', {
            ticketId: ask.ticketId,
            choice,
            ...(email !== undefined ? { email } : {}),
            // The language the customer chose here: an emailed receipt is in it (else the store's).
            ...(isLanguage(chosen) ? { language: chosen } : {}),
          }),
        );
      },
      dismiss() {
        set({ refused: null });
      },
    };
  });
}
