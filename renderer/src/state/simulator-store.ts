import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  Bridge,
  BridgeResult,
  DeviceRoleName,
  ScanView,
  SimulatorStateView,
} from '../../../common/bridge/contract';
import { describeError } from './app-store';

export type SimulatorState = {
  sim: SimulatorStateView | null;
  /** The test card the panel presents next (its number stays in memory; the screen shows it masked). */
  cardPan: string | null;
  pin: string;
  error: string | null;
  /** When the last card action was sent (performance.now()), for the swipe-to-approved measurement. */
  lastCardAt: number | null;
  /** The sample label the panel scans next (index into `sim.testBarcodes`). */
  barcodeIndex: number;
  /** The lane's last scan, whatever scanned it, as the core read it. */
  lastScan: ScanView | null;

  init(): () => void;
  refresh(): Promise<void>;
  chooseCard(pan: string): void;
  swipe(badRead?: boolean): Promise<void>;
  insert(): Promise<void>;
  tap(): Promise<void>;
  /** The customer pulls the inserted card out of the chip slot. */
  removeCard(): Promise<void>;
  pinDigit(d: string): void;
  pinBackspace(): void;
  enterPin(): Promise<void>;
  cancelOnPad(): Promise<void>;
  sign(): Promise<void>;
  setPaper(paper: 'ok' | 'near-end' | 'out'): Promise<void>;
  setCoverOpen(open: boolean): Promise<void>;
  unplug(role: DeviceRoleName): Promise<void>;
  replug(role: DeviceRoleName): Promise<void>;
  chooseBarcode(index: number): void;
  /** Scans the chosen label through the simulated scanner's serial, HID POS or keyboard-wedge side. */
  scan(via: 'serial' | 'hid' | 'wedge'): Promise<void>;
};

export type SimulatorStore = StoreApi<SimulatorState>;

/**
 * The sandbox device-simulator panel (docs/decisions.md#sandbox-data): it drives the simulated reader, PIN
 * pad, signature pad and printer through the bridge's `simulator.*` commands, exactly as the e2e tests and a
 * newcomer do.
 */
export function createSimulatorStore(bridge: Bridge): SimulatorStore {
  return createStore<SimulatorState>()((set, get) => {
    const apply = async (work: Promise<BridgeResult<SimulatorStateView>>): Promise<void> => {
      const r = await work;
      if (r.ok) set({ sim: r.value, error: null });
      else set({ error: describeError(r.error) });
    };
    const pan = (): { pan?: string } => {
      const p = get().cardPan;
      return p ? { pan: p } : {};
    };

    return {
      sim: null,
      cardPan: null,
      pin: '',
      error: null,
      lastCardAt: null,
      barcodeIndex: 0,
      lastScan: null,

      init() {
        const offs = [
          bridge.on('simulator.changed', (sim) => set({ sim })),
          bridge.on('scanner.scanned', (lastScan) => set({ lastScan })),
        ];
        void get().refresh();
        return () => {
          for (const off of offs) off();
        };
      },
      async refresh() {
        const r = await bridge.send('simulator.state', {});
        if (r.ok) {
          const first = r.value.testCards[0]?.pan ?? null;
          set({ sim: r.value, cardPan: get().cardPan ?? first });
        } else if (r.error.code === 'unavailable') set({ sim: null });
      },
      chooseCard(p) {
        set({ cardPan: p });
      },
      swipe(badRead) {
        performance.mark('tillpoint:card');
        set({ lastCardAt: performance.now() });
        return apply(bridge.send('simulator.swipe', { ...pan(), ...(badRead ? { badRead: true } : {}) }));
      },
      insert() {
        performance.mark('tillpoint:card');
        set({ lastCardAt: performance.now() });
        return apply(bridge.send('simulator.insert', pan()));
      },
      tap() {
        performance.mark('tillpoint:card');
        set({ lastCardAt: performance.now() });
        return apply(bridge.send('simulator.tap', pan()));
      },
      removeCard() {
        return apply(bridge.send('simulator.removeCard', {}));
      },
      pinDigit(d) {
        if (/^\d$/.test(d) && get().pin.length < 12) set({ pin: get().pin + d });
      },
      pinBackspace() {
        set({ pin: get().pin.slice(0, -1) });
      },
      async enterPin() {
        const pin = get().pin;
        set({ pin: '' });
        await apply(bridge.send('simulator.typePin', { pin }));
      },
      cancelOnPad() {
        set({ pin: '' });
        return apply(bridge.send('simulator.cancelOnPad', {}));
      },
      sign() {
        return apply(bridge.send('simulator.sign', {}));
      },
      setPaper(paper) {
        return apply(bridge.send('simulator.setPaper', { paper }));
      },
      setCoverOpen(open) {
        return apply(bridge.send('simulator.setCoverOpen', { open }));
      },
      unplug(role) {
        return apply(bridge.send('simulator.unplug', { role }));
      },
      replug(role) {
        return apply(bridge.send('simulator.replug', { role }));
      },
      chooseBarcode(index) {
        set({ barcodeIndex: index });
      },
      async scan(via) {
        const label = get().sim?.testBarcodes?.[get().barcodeIndex];
        if (!label) return;
        await apply(bridge.send('simulator.scan', { symbology: label.symbology, data: label.data, via }));
      },
    };
  });
}
