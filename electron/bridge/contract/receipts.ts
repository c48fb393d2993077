export type ReceiptLineView =
  | { kind: 'text'; text: string; align?: 'left' | 'center' | 'right'; bold?: boolean; large?: boolean }
  | { kind: 'pair'; left: string; right: string; bold?: boolean }
  | { kind: 'rule' }
  | { kind: 'qr'; data: string };

export type ReceiptView = {
  ticketId: string;
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
