/**
 * The device roles the terminal core programs against. Types only: drivers implement them, the device
 * manager hands out stable facades of them (a facade survives reconnects, so the core subscribes once).
 *
 * Card data rules (docs/decisions.md#card-data): the raw tracks, EMV TLV and PIN blocks below exist only to
 * be forwarded to the gateway. Never log them; log `maskedPan` and the sanitized EMV tags instead.
 */

import type { Symbology } from '../protocols/aim-symbology-id';
import type { LabelledAmount, MoneyFormatter } from '../protocols/pole-display-lines';

export type { Symbology } from '../protocols/aim-symbology-id';
export type { LabelledAmount, MoneyFormatter } from '../protocols/pole-display-lines';

export type DeviceRole =
  'cardReader' | 'pinPad' | 'contactless' | 'signaturePad' | 'receiptPrinter' | 'scanner' | 'poleDisplay';

/**
 * `connected`: the transport is open and the device answered its last heartbeat (or has none).
 * `missing`: not configured, not found, or never opened. `reconnecting`: it was connected, went away, and
 * the manager is retrying with backoff. `error`: open but not answering, or its configuration is unusable.
 */
export type DeviceState = 'connected' | 'missing' | 'reconnecting' | 'error';

export type DeviceHealth = {
  state: DeviceState;
  /** Human-readable, for the tech screen; never contains card data. */
  lastError?: string;
  /** Epoch ms of the last byte or heartbeat answer from the device. */
  lastSeenAt?: number;
  /** Protocol-specific facts worth showing (paper state, link retries, …). */
  detail?: Readonly<Record<string, string | number | boolean>>;
  /**
   * Connected but unable to do its job, in a person's words ("out of paper", "cover open"): the cashier's
   * status bar and the tech's Devices screen show it, so nobody learns of it from a failed receipt.
   */
  problem?: string;
};

export type Unsubscribe = () => void;

// ---------------------------------------------------------------------------------------------------
// Card reader (magstripe: MagTek serial ASCII, MagTek USB HID, keyboard wedge)

export type CardSwipe = {
  kind: 'swipe';
  /** Which reader path produced it. */
  source: 'serial' | 'hid' | 'wedge';
  /** ISO 7813 track 2 without sentinels; for the gateway only. */
  track2: string;
  /** Track 1 without sentinels when the reader read it; for the gateway only. */
  track1?: string;
  /** First six / last four (PCI DSS 3.4): the only PAN form that may be shown or logged. */
  maskedPan: string;
  last4: string;
  brand: string;
  /** YYMM, as encoded on the stripe. */
  expiry: string;
  serviceCode: string;
  cardholderName?: string;
};

/** A swipe that produced no usable track 2 (bad read, blank card, non-financial card). */
export type CardReadError = {
  kind: 'read-error';
  source: 'serial' | 'hid' | 'wedge';
  reason: 'bad-read' | 'no-track2' | 'unparseable' | 'not-financial';
  /** Safe to show: which tracks decoded, never their contents. */
  message: string;
};

export type CardReaderEvent = CardSwipe | CardReadError;

export type CardReader = {
  readonly role: 'cardReader';
  /** Every swipe is delivered exactly once to each listener. */
  onCard(listener: (event: CardReaderEvent) => void): Unsubscribe;
  health(): DeviceHealth;
};

// ---------------------------------------------------------------------------------------------------
// PIN pad (VISA/VeriFone packet protocol, DUKPT)

export type PinRequest = {
  /** Needed by the pad to build the ISO 9564 format 0 block; sent to the pad only. */
  pan: string;
  amountCents: number;
  /** How long the cardholder has to enter the PIN. */
  timeoutMs: number;
};

export type PinResult =
  | { kind: 'pin'; ksn: string; pinBlock: string }
  | { kind: 'cancelled' }
  | { kind: 'timeout' }
  /** The pad refused (e.g. no DUKPT key) or the link failed; `reason` is safe to show. */
  | { kind: 'failed'; reason: string };

export type PinPad = {
  readonly role: 'pinPad';
  /** Shows a line of text (Z2). */
  display(text: string): Promise<void>;
  /** One request at a time: a second call while one is pending resolves `failed`. */
  requestPin(request: PinRequest): Promise<PinResult>;
  /** Cancels a pending PIN request (packet 72); the pending call resolves `cancelled`. */
  cancel(): Promise<void>;
  health(): DeviceHealth;
};

// ---------------------------------------------------------------------------------------------------
// Contactless reader (ID TECH ViVOpay Protocol 2)

export type ContactlessRequest = { amountCents: number; timeoutMs: number };

export type ContactlessResult =
  | {
      kind: 'emv';
      /** Full BER-TLV as hex, for the gateway only. */
      emvTlvHex: string;
      /** The same TLV with the card-data tags (56, 57, 5A, 5F20, 5F24, 99, 9F0B, 9F1F, 9F20, 9F6B) removed: what may be logged. */
      sanitizedEmvHex: string;
      maskedPan?: string;
    }
  | { kind: 'cancelled' }
  | { kind: 'timeout' }
  | { kind: 'failed'; reason: string };

export type ContactlessReader = {
  readonly role: 'contactless';
  /** Protocol 2 ping (cmd 18 01): true when the reader answered OK. */
  ping(): Promise<boolean>;
  activateTransaction(request: ContactlessRequest): Promise<ContactlessResult>;
  cancel(): Promise<void>;
  /** Short beep, for the tech's "which reader is this" test. */
  beep(): Promise<void>;
  health(): DeviceHealth;
};

// ---------------------------------------------------------------------------------------------------
// Contact chip reader (ID TECH NGA Protocol 2 contact EMV: 60-10 / 60-11 / 60-12; docs/chip.md)
//
// Call order: start() → (the sale engine prompts the CVM, authorises online with `emvTlvHex` as EmvData)
// → complete(the gateway's answer, or 'unable-to-go-online') → TC or AAC. cancel() ends whatever is open.
// One transaction at a time; a second start() while one is open resolves `failed` (code `busy`).

/** 9C (EMV Book 3 Annex A): purchase 00, cash 01, purchase with cash back 09, refund 20. */
export type ChipTransactionType = 'purchase' | 'cash' | 'purchase-with-cashback' | 'refund';

export type ChipStartRequest = {
  /** 9F02: everything the card is charged, cash back included, in cents. */
  amountCents: number;
  /** 9F03: the cash back part of `amountCents`. Default 0. */
  otherAmountCents?: number;
  /** Default `purchase` (`purchase-with-cashback` when otherAmountCents > 0). */
  type?: ChipTransactionType;
  /** How long the reader waits for the card to be inserted. */
  timeoutMs: number;
  /** 5F2A, ISO 4217 numeric. Default 840. */
  currencyCode?: number;
  /**
   * Also wait for a tap: one 02-40 with DFEF37 = contact + contactless, so the reader serves whichever
   * interface the customer uses ("insert, tap or swipe"). An NGA reader runs one transaction at a time and
   * takes any other command during one as Cancel (docs/idtech-emv.md §2), so a contactless activation beside
   * a contact start is not an option. Default false: 60-10, the contact slot only.
   */
  contactless?: boolean;
};

/** What the card's CVM list asks for (8E, EMV Book 3 §10.5): the sale engine prompts accordingly. */
export type ChipCvm = 'online-pin' | 'signature' | 'no-cvm' | 'fail';

/** The card as it may be shown and kept: masked, never the PAN. */
export type ChipCardInfo = {
  maskedPan: string;
  last4: string;
  brand: string;
  /** YYMM. */
  expiry?: string;
  /** From the track 2 equivalent (57): 201 for the sandbox chip cards. */
  serviceCode?: string;
  /** 5F34. */
  panSequenceNumber?: string;
  /** 50, e.g. "VISA CREDIT". */
  applicationLabel?: string;
  /** 84/4F as hex. */
  aid?: string;
};

export type ChipFailureCode =
  | 'not-connected'
  | 'busy'
  | 'invalid-request'
  /** The card stopped answering (reader result 3006). */
  | 'card-not-answering'
  /** The reader answered something it should not have (a status, a result code); `reason` says what. */
  | 'reader-error'
  /** The reader did not answer at all within the host's wait. */
  | 'no-answer'
  /** complete() without a start() that went online. */
  | 'no-transaction';

export type ChipFailure = { kind: 'failed'; code: ChipFailureCode; reason: string };

export type ChipStartResult =
  | {
      /** The card asked to go online (ARQC): authorise, then complete(). */
      kind: 'online';
      card: ChipCardInfo;
      cvm: ChipCvm;
      /** 9F39: contact EMV. PosEntryMode `Chip` at the gateway. */
      entryMode: '05';
      /** The 60-11 output TLVs: the request's `EmvData`. Card data: never log it. */
      emvTlvHex: string;
      /** The same with the card-data tags removed: what may be logged. */
      sanitizedEmvHex: string;
    }
  | {
      /** The card decided offline at the 1st GENERATE AC (TC approved / AAC declined): nothing to complete. */
      kind: 'offline';
      decision: 'TC' | 'AAC';
      card: ChipCardInfo;
      emvTlvHex: string;
      sanitizedEmvHex: string;
    }
  /**
   * A start with `contactless: true` was answered for the contactless interface: the tap's EMV record
   * (9F39 07), complete as a contactless read is. Nothing to authenticate or complete.
   */
  | {
      kind: 'contactless';
      /** Full BER-TLV as hex, for the gateway only. */
      emvTlvHex: string;
      sanitizedEmvHex: string;
    }
  /** The chip could not be read (reader result 0007): the sale may fall back to a swipe (ChipFallbackSwipe). */
  | { kind: 'fallback'; reason: string }
  | { kind: 'cancelled' }
  /** No card was inserted in time. */
  | { kind: 'timeout' }
  /** The card was pulled out during the transaction. */
  | { kind: 'card-removed' }
  | ChipFailure;

/** The issuer's answer, as the gateway returns it in the sale response's EmvData (readIssuerResponse). */
export type ChipHostResponse = {
  /** 8A as its two characters, "00" for an approval. */
  arc: string;
  /** 91 as hex: ARPC || ARC (method 1) or ARPC || CSU (method 2). */
  issuerAuthData?: string;
  /** 71/72 templates as hex TLV. */
  scripts?: string;
};

export type ChipCompletion =
  | {
      kind: 'completed';
      /** The card's final say: TC approves, AAC declines (EMV Book 4 §6.3.8: reverse an approval it declines). */
      decision: 'TC' | 'AAC';
      /** 9F5B as hex, when the issuer sent scripts: 5 bytes per script. Keep it with the transaction. */
      scriptResults?: string;
      /** The 60-12 output TLVs (9F27, 9F26 TC/AAC, 9F36, 9F10, 95, 9B, 8A, 9F5B). */
      emvTlvHex: string;
      sanitizedEmvHex: string;
    }
  /** The card was pulled out before the 2nd GENERATE AC: no TC, so an online approval must be reversed. */
  | { kind: 'card-removed' }
  | { kind: 'cancelled' }
  | ChipFailure;

export type ChipReader = {
  readonly role: 'chipReader';
  start(request: ChipStartRequest): Promise<ChipStartResult>;
  complete(response: ChipHostResponse | 'unable-to-go-online'): Promise<ChipCompletion>;
  /** Ends the open transaction (a start waiting for a card, or a card waiting for completion). */
  cancel(): Promise<void>;
  /** True from start() until its transaction is over (completed, cancelled, failed). */
  inTransaction(): boolean;
  health(): DeviceHealth;
};

// ---------------------------------------------------------------------------------------------------
// Signature pad (Topaz-style pen packets, reverse-engineered: docs/devices.md §5.1)

export type SignaturePoint = { x: number; y: number; t: number };

export type Signature = {
  strokes: SignaturePoint[][];
  width: number;
  height: number;
  svg: string;
  pngBase64: string;
};

export type SignaturePad = {
  readonly role: 'signaturePad';
  /** Clears anything drawn so far and starts collecting strokes. */
  startCapture(): void;
  /** Each completed stroke, for a live preview. */
  onStroke(listener: (stroke: SignaturePoint[]) => void): Unsubscribe;
  /** Ends the capture; undefined when nothing was drawn. */
  finishCapture(): Promise<Signature | undefined>;
  health(): DeviceHealth;
};

// ---------------------------------------------------------------------------------------------------
// Receipt printer (ESC/POS)

export type ReceiptLine =
  | { kind: 'text'; text: string; align?: 'left' | 'center' | 'right'; bold?: boolean; large?: boolean }
  /** Left text and right text on one line (item and amount). */
  | { kind: 'pair'; left: string; right: string; bold?: boolean }
  | { kind: 'rule' }
  | { kind: 'feed'; lines: number }
  /** A Code 128 symbol of `data` (printable ASCII), its text printed under it. */
  | { kind: 'barcode'; data: string }
  | { kind: 'qr'; data: string };

export type Receipt = {
  lines: ReceiptLine[];
  /** Cut after printing (default true). */
  cut?: boolean;
  /** Pulse the cash drawer after printing (cash tender). */
  openDrawer?: boolean;
};

export type PrinterStatus = {
  online: boolean;
  paper: 'ok' | 'near-end' | 'out';
  coverOpen: boolean;
  drawerOpen: boolean;
};

export type PrintResult =
  { ok: true } | { ok: false; reason: 'paper-out' | 'cover-open' | 'offline' | 'failed'; message: string };

export type ReceiptPrinter = {
  readonly role: 'receiptPrinter';
  /** Checks status first (DLE EOT): a receipt is never sent to a printer known to be out of paper. */
  print(receipt: Receipt): Promise<PrintResult>;
  cut(): Promise<void>;
  kickDrawer(): Promise<void>;
  status(): Promise<PrinterStatus>;
  health(): DeviceHealth;
};

// ---------------------------------------------------------------------------------------------------
// Barcode scanner (serial ASCII, USB HID POS usage page 0x8C, keyboard wedge)

/**
 * One scan, whatever brought it, read by the barcode rule (protocols/barcode-scan.ts). A scan is never an
 * amount: the only money in it is a price-embedded label's item price, for that item's ticket line.
 */
export type BarcodeScan = {
  kind: 'scan';
  source: 'serial' | 'hid' | 'wedge';
  symbology: Symbology;
  /** The symbol's data without identifier or suffix: digits as printed for EAN/UPC, text as-is otherwise. */
  data: string;
  /** The AIM identifier the scanner sent (`]E0`), if any. */
  aimId?: string;
  /** False for a misread (a check digit that does not match) or an unusable scan: never look it up. */
  validated: boolean;
  checkedBy: 'check-digit' | 'scanner';
  /** Why it was refused, in words a cashier can act on. */
  problem?: string;
  /** EAN/UPC: the 14-digit GTIN a catalog is keyed by. */
  gtin?: string;
  priceEmbedded?: { itemCode: string; priceCents: number };
  /** Epoch ms when the scan was complete. */
  at: number;
};

export type BarcodeScanner = {
  readonly role: 'scanner';
  /** Every scan, refused ones included, is delivered exactly once to each listener. */
  onScan(listener: (scan: BarcodeScan) => void): Unsubscribe;
  health(): DeviceHealth;
};

// ---------------------------------------------------------------------------------------------------
// Pole display (2 x 20 characters, ESC/POS customer display command set, serial)

/**
 * What the customer reads while the cashier rings (protocols/pole-display-lines.ts fits it to 20 columns).
 * Money comes as integer cents with the caller's formatter: the lane's locale and currency decide how an
 * amount reads, not the display.
 */
export type PoleDisplay = {
  readonly role: 'poleDisplay';
  /** The item just rung and its price on the top row; a subtotal (or nothing) below. */
  showItem(
    item: { name: string; priceCents: number },
    format: MoneyFormatter,
    second?: LabelledAmount,
  ): Promise<void>;
  /** The total on the top row; a second amount (tendered, change due) below. */
  showTotal(total: LabelledAmount, format: MoneyFormatter, second?: LabelledAmount): Promise<void>;
  /** A centred message: welcome / idle, thank you, lane closed. */
  showMessage(first: string, second?: string): Promise<void>;
  clear(): Promise<void>;
  /** The two rows as the terminal last wrote them; undefined before the first write. */
  lines(): readonly [string, string] | undefined;
  health(): DeviceHealth;
};

export type RoleApi = {
  cardReader: CardReader;
  pinPad: PinPad;
  contactless: ContactlessReader;
  /**
   * The contact interface of the EMV reader configured as `contactless` (an ID TECH NGA reader serves
   * contact and contactless on one link): it shares that device's connection and health.
   */
  chipReader: ChipReader;
  signaturePad: SignaturePad;
  receiptPrinter: ReceiptPrinter;
  scanner: BarcodeScanner;
  poleDisplay: PoleDisplay;
};
