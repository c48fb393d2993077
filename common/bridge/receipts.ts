export type ReceiptLineView =
  | { kind: 'text'; text: string; align?: 'left' | 'center' | 'right'; bold?: boolean; large?: boolean }
  | { kind: 'pair'; left: string; right: string; bold?: boolean }
  | { kind: 'rule' }
  | { kind: 'qr'; data: string }
  /**
   * A Code 128 symbol of `data` with its text under it: the sale's receipt number (its ticket id, exactly),
   * which the terminal scans back to find the sale (a return). Printed by the printer's own `GS k`.
   */
  | { kind: 'barcode'; data: string };

export type ReceiptView = {
  /** The ticket this is the receipt of ('' for a refund or a void made outside a ticket). */
  ticketId: string;
  /** A refund's or a void's receipt: that transaction (its UserTransactionNumber). */
  userTransactionNumber?: string;
  copy: 'customer' | 'merchant';
  lines: ReceiptLineView[];
  /** Text to encode as a QR for the customer's phone (on-screen receipt). */
  qrData: string;
  /** Plain-text rendering (email body, accessibility). */
  text: string;
};

export type ReceiptPrintResult =
  | { printed: true }
  /** No printer configured or it failed: show `receipt` on screen instead. */
  | { printed: false; reason: string; receipt: ReceiptView };
