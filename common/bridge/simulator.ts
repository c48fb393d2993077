import type { DeviceRoleName } from './devices';
import type { SymbologyName } from './scanner';

export type SimulatorStateView = {
  available: boolean;
  unplugged: DeviceRoleName[];
  pinPad: { display: string; awaitingPin: boolean };
  /** The reader's contactless interface listens (an activation, or a start for insert or tap). */
  contactless: { waitingForCard: boolean; beeps: number };
  /** The reader's contact slot: a start waits for a card to be inserted; a card is in a transaction. */
  chip: { waitingForCard: boolean; cardInserted: boolean };
  receiptPrinter: {
    paper: 'ok' | 'near-end' | 'out';
    coverOpen: boolean;
    drawerKicks: number;
    receipts: string[][];
  };
  /**
   * Published sandbox test cards the panel may present, with what they do. `pan` is the one full card
   * number the bridge ever returns: published test numbers only, sandbox only (simulator.* takes it back).
   * `chip`: a contact chip card (service code 201) — insert it; its stripe is for fallback only.
   */
  testCards: { pan: string; maskedPan: string; brand: string; note: string; chip: boolean }[];
  /** What the customer reads on the simulated pole display: two rows of 20 characters. */
  poleDisplay?: { lines: [string, string] };
  /** Scans the simulated scanner has sent. */
  scanner?: { scans: number };
  /** Labels the panel can scan: good codes, price-embedded labels and misreads, with what each should do. */
  testBarcodes?: { symbology: SymbologyName; data: string; note: string }[];
};
