/**
 * The one contract between the renderer and the terminal core (docs/bridge.md). Types and a few string
 * constants only: the renderer imports this file and nothing else of electron/, so it must never import
 * Node, Electron or native code. The core checks its own types against these at compile time.
 *
 * Conventions (they hold for every command and event):
 * - Money is integer cents (`...Cents`), never a float.
 * - Card numbers appear only masked (first six / last four) or as `last4`. The only fields that carry a
 *   full card or account number are the keyed-entry inputs below; the core forwards them to the gateway
 *   and never logs, journals or echoes them.
 * - Times are epoch milliseconds (`...At`) unless the name says otherwise.
 * - Every command answers `{ ok: true, value } | { ok: false, error }`: Electron IPC keeps only an
 *   Error's message, so errors travel as data with a stable code (the Signal habit).
 * - New fields are only ever added as optional, and commands are never renamed: a renderer built
 *   against an older contract keeps working.
 */

/** Bumped when a change is not backwards compatible (never so far). */
export const BRIDGE_CONTRACT_VERSION = 1;

/** The global the Electron preload exposes (`window.tillpoint`). */
export const BRIDGE_GLOBAL = 'tillpoint';

/**
 * Browser mode: the `<meta name=...>` in the served index.html holding the WebSocket URL (no secret: the
 * page is readable by any local process; see ClientMessage `hello`).
 */
export const BRIDGE_META_NAME = 'tillpoint-bridge';

/** Browser mode: the fragment parameter of the launch URL carrying the one-time token (`/#launch=…`). */
export const BRIDGE_LAUNCH_PARAM = 'launch';

/** Browser mode: where the window keeps its page key (sessionStorage: this tab, this origin only). */
export const BRIDGE_PAGE_KEY_STORAGE = 'tillpoint.pageKey';

/** Browser mode: the WebSocket path on the terminal's loopback port. */
export const BRIDGE_WS_PATH = '/bridge';

// =====================================================================================================
// Results and errors

/**
 * The error taxonomy of the bridge. A renderer switches on `code`; `message` is plain words for the
 * cashier (never card data).
 * - `invalid`: the payload is wrong (amount not integer cents, unknown ticket, missing field).
 * - `unauthorized`: nobody is signed in, or the PIN is wrong.
 * - `forbidden`: the signed-in role may not do this and no valid manager approval came with it.
 * - `declined`: the gateway or issuer said no (also in SaleOutcome; here for non-sale commands).
 * - `unreachable`: the gateway could not be reached; nothing was charged.
 * - `unknown-outcome`: the request may have reached the gateway; the terminal is reversing it.
 * - `offline`: refused because the gateway is unreachable and store-and-forward does not allow it.
 * - `busy`: another tender or device action is in progress.
 * - `device`: a device is missing or failed (the message says which).
 * - `not-found`: the referenced transaction, ticket or item does not exist.
 * - `conflict`: the state does not allow it (e.g. batch close with unresolved orphans).
 * - `unavailable`: the feature is not available here (e.g. simulator controls outside the sandbox).
 * - `internal`: a bug; the diagnostics bundle has the details.
 */
export type BridgeErrorCode =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'declined'
  | 'unreachable'
  | 'unknown-outcome'
  | 'offline'
  | 'busy'
  | 'device'
  | 'not-found'
  | 'conflict'
  | 'unavailable'
  | 'internal';

export type BridgeError = {
  code: BridgeErrorCode;
  message: string;
  /** Gateway ResponseCode when the gateway answered (see docs/response-codes.md). */
  gatewayCode?: number;
  /** A decline's reason (gatewayCode 3): the DeclineCode table of docs/response-codes.md. */
  declineCode?: number;
  /** For `invalid`: one entry per problem. */
  problems?: string[];
};

export type BridgeResult<T> = { ok: true; value: T } | { ok: false; error: BridgeError };

// =====================================================================================================
// Session and roles

export type Role = 'cashier' | 'manager' | 'tech';

export type Session = {
  role: Role;
  /** Display name of the user ("Cashier", "Manager", "Tech" unless renamed). */
  name: string;
  signedInAt: number;
};

/**
 * A manager's PIN typed for one action (refund, void, batch close, store-and-forward policy, PIN
 * changes) while a cashier is signed in. Not needed when a manager is signed in.
 */
export type ManagerApproval = { managerPin: string };

// =====================================================================================================
// Sales: tickets and tenders

/**
 * How the card reaches the terminal. `present` = "Insert, tap or swipe": the first of the card reader
 * and the chip/contactless reader wins. `keyed` = the cashier types the number (card not present at
 * the reader, e.g. damaged stripe).
 */
export type CardEntry = 'present' | 'swipe' | 'chip' | 'contactless' | 'keyed';

/** Keyed card data. Sent to the gateway only; never logged, journaled or returned. */
export type KeyedCard = {
  cardNumber: string;
  /** MMYY. */
  expiry: string;
  cvn?: string;
  zip?: string;
  street?: string;
};

export type CheckDetails = {
  routingNumber: string;
  accountNumber: string;
  checkNumber: string;
  accountType: 'CHECKING' | 'SAVING';
  firstName?: string;
  lastName?: string;
  dlNumber?: string;
  dlState?: string;
  phone?: string;
};

export type EbtProgram = 'food' | 'cash';

/** One way of paying part or all of a ticket. */
export type TenderRequest =
  | { kind: 'credit'; entry: CardEntry; keyed?: KeyedCard }
  /** PIN debit: the card is read, the customer enters the PIN on the pad. */
  | { kind: 'debit'; entry?: 'present' | 'swipe' | 'chip' | 'contactless'; cashBackCents?: number }
  | { kind: 'ebt'; program: EbtProgram; entry?: 'present' | 'swipe' }
  | { kind: 'gift'; entry?: 'swipe' | 'keyed'; keyed?: { cardNumber: string } }
  | { kind: 'check'; check: CheckDetails }
  /** Card on file: a vault token from the gateway (SaleWithToken). */
  | { kind: 'token'; token: string }
  /** Cash is recorded locally (no gateway); `tenderedCents` >= amount gives change. */
  | { kind: 'cash'; tenderedCents: number }
  /** Pre-authorization (hold); completed later with `preauth.complete`. */
  | { kind: 'preauth'; entry: CardEntry; keyed?: KeyedCard };

export type TenderKind = TenderRequest['kind'];

/** The steps a tender goes through; `prompt` in SaleProgress is the words to show. */
export type SaleStep =
  | 'waiting-for-card' // "Insert, tap or swipe"
  | 'reading-card' // "Reading card…"
  | 'pin-entry' // "Customer entering PIN"
  | 'authorizing' // "Authorizing…"
  | 'remove-card' // "Remove card"
  | 'signature' // "Sign here"
  | 'printing' // "Printing receipt…"
  | 'reversing' // "Do not retry — the terminal is reversing this sale"
  | 'done';

export type TenderStatus =
  | 'in-progress'
  | 'approved'
  | 'partial' // approved for less than asked: the rest needs another tender
  | 'declined'
  | 'cancelled'
  | 'unknown' // no answer: being reversed, do not retry
  | 'reversed'
  | 'offline-refused' // gateway unreachable and store-and-forward not allowed
  | 'stored' // accepted offline under store-and-forward, forwarded when the gateway returns
  | 'voided';

/**
 * Why a chip card did not confirm the issuer's approval, which is then reversed (EMV 4.4 Book 4 §6.3.8):
 * the card answered AAC, was pulled out before it answered, or never answered.
 */
export type CardRefusal = 'declined-by-card' | 'card-removed' | 'card-not-answering';

export type CardSummary = {
  /** First six / last four. */
  maskedPan?: string;
  last4?: string;
  /** Visa, Mastercard, Amex, Discover, Gift, EBT, … as the gateway or the BIN says. */
  cardType?: string;
  entry?: CardEntry;
  cardholderName?: string;
};

export type TenderView = {
  tenderId: string;
  kind: TenderKind;
  status: TenderStatus;
  /** What was asked of this tender. */
  requestedCents: number;
  /** What was approved (partial approvals: less than requested). */
  approvedCents: number;
  tipCents: number;
  cashBackCents: number;
  /** Cash: change due. */
  changeCents?: number;
  card?: CardSummary;
  authCode?: string;
  /** Gateway id of the payment (refunds and voids use it). */
  serviceReferenceNumber?: string;
  userTransactionNumber?: string;
  /** Gift and EBT: remaining balance reported by the gateway. */
  balanceCents?: number;
  /** Plain words for the cashier: decline reason and what to try next, or the unknown-outcome warning. */
  message?: string;
  gatewayCode?: number;
  /** A decline's reason when gatewayCode is 3 (the DeclineCode table of docs/response-codes.md). */
  declineCode?: number;
  /** A chip sale the issuer approved and the card did not confirm: reversed, and why. */
  cardRefusal?: CardRefusal;
  signature?: { required: boolean; captured: boolean; svg?: string };
  at: number;
};

export type TicketStatus = 'open' | 'paid' | 'abandoned';

export type TicketView = {
  ticketId: string;
  status: TicketStatus;
  subtotalCents: number;
  taxCents: number;
  tipCents: number;
  /** subtotal + tax + tip. Cash back is not part of the ticket total. */
  totalCents: number;
  paidCents: number;
  remainingCents: number;
  tenders: TenderView[];
  invoiceNumber?: string;
  /** Set for a ticket opened to pay for a gift card load. */
  purpose?: 'gift-reload';
  /** The load of a `gift-reload` ticket, once tried. */
  giftReload?: GiftReloadView;
  openedAt: number;
  closedAt?: number;
};

/**
 * What a ticket is for. `gift-reload`: the payment for loading a gift card — no tax, no tip, paid by a
 * real payment (not a pre-authorization, not gift value); once paid, `gift.reload { ticketId }` loads it.
 */
export type TicketPurpose = 'sale' | 'gift-reload';

/** The load a `gift-reload` ticket paid for. */
export type GiftReloadView = {
  /** `loaded`: the gateway approved it; `failed`: refused, load again; `unknown`: no answer, being reversed. */
  state: 'loaded' | 'failed' | 'unknown';
  amountCents: number;
  userTransactionNumber?: string;
  last4?: string;
  message?: string;
};

export type SaleOpenRequest = {
  subtotalCents: number;
  /** Default `sale`. */
  purpose?: TicketPurpose;
  /** Omit to let the core apply the merchant's tax rate from settings. */
  taxCents?: number;
  tipCents?: number;
  invoiceNumber?: string;
};

export type SalePayRequest = {
  ticketId: string;
  tender: TenderRequest;
  /** Omit to pay the remaining balance. */
  amountCents?: number;
  /** Tip on this tender (credit: added to the authorization). */
  tipCents?: number;
  /**
   * The cashier confirmed a repeat of the same card and amount within the duplicate window (the gateway
   * refused it with code 410 first).
   */
  allowDuplicate?: boolean;
};

/** What `sale.pay` resolves with once the tender is finished (approved, declined, unknown…). */
export type SaleOutcome = {
  ticket: TicketView;
  tender: TenderView;
  /** True when the rest of the ticket still needs paying (partial approval or a split). */
  needsAnotherTender: boolean;
  /** True when a signature must be captured before the ticket can finish (see `sale.signature`). */
  signatureRequired: boolean;
};

export type SaleProgress = {
  ticketId: string;
  tenderId: string;
  step: SaleStep;
  /** The words for the screen, e.g. "Insert, tap or swipe", "Customer entering PIN", "Sign here". */
  prompt: string;
  /** Seconds until the device gives up, when it has a timeout. */
  timeoutSeconds?: number;
};

export type SignatureInput =
  /** Captured on the terminal's screen (no signature pad): strokes in CSS pixels of a box. */
  | { source: 'screen'; width: number; height: number; strokes: { x: number; y: number; t: number }[][] }
  /** Finish the capture running on the signature pad. */
  | { source: 'pad' };

// =====================================================================================================
// Balances, gift reload, pre-authorization completion

export type BalanceView = {
  kind: 'gift' | 'ebt-food' | 'ebt-cash';
  balanceCents: number;
  card: CardSummary;
};

/**
 * Loads value on a gift card. Paid: `ticketId` of a `gift-reload` ticket paid in full, `amountCents` its
 * amount (each ticket loads once). Unpaid (a promotion, a correction): a manager's approval. Audited.
 */
export type GiftReloadRequest = {
  amountCents: number;
  entry?: 'swipe' | 'keyed';
  keyed?: { cardNumber: string };
  ticketId?: string;
  approval?: ManagerApproval;
};

export type PreauthCompleteRequest = {
  serviceReferenceNumber: string;
  /** Final base amount, at most the authorized amount. */
  amountCents: number;
  /**
   * Above `preauthTipMaxPercent` of the hold (20 % unless changed), or on a hold this lane did not make,
   * a tip needs a manager: a signed-in manager or `approval`.
   */
  tipCents?: number;
  approval?: ManagerApproval;
};

// =====================================================================================================
// Receipts

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

// =====================================================================================================
// Today's lane transactions, refunds and voids

export type JournalState =
  | 'sending' // committed, request leaving (only seen after a crash, until recovery)
  | 'approved'
  | 'partial'
  | 'declined'
  | 'unknown' // no answer: queued for reversal
  | 'awaiting-card' // a contact chip sale the issuer approved, until the card's TC (AAC or no answer: reversed)
  | 'reversing'
  | 'reversed'
  | 'voided'
  | 'refunded'
  | 'stored' // store-and-forward, waiting for the gateway
  | 'failed'; // refused before charging (invalid, unreachable)

export type JournalOperation =
  | 'sale'
  | 'preauth'
  | 'preauth-complete'
  | 'debit'
  | 'ebt-food'
  | 'ebt-cash'
  | 'gift-sale'
  | 'gift-reload'
  | 'check'
  | 'token-sale'
  | 'cash'
  | 'refund'
  | 'void';

export type TransactionView = {
  userTransactionNumber: string;
  ticketId?: string;
  operation: JournalOperation;
  state: JournalState;
  amountCents: number;
  tipCents: number;
  cashBackCents: number;
  last4?: string;
  cardType?: string;
  authCode?: string;
  serviceReferenceNumber?: string;
  /** For refunds and voids: the original's gateway id. */
  originalServiceReferenceNumber?: string;
  refundedCents: number;
  createdAt: number;
  updatedAt: number;
  message?: string;
  /** A contact chip sale: the card's answer to the approval (TC confirmed it; AAC refused it: reversed). */
  cardDecision?: 'TC' | 'AAC';
  /** The Issuer Script Results (9F5B) the card reported, hex: 5 bytes per issuer script. */
  scriptResults?: string;
};

export type TransactionQuery = {
  last4?: string;
  amountCents?: number;
  /** Default: since local midnight of today. */
  since?: number;
  limit?: number;
};

export type RefundRequest = {
  serviceReferenceNumber: string;
  /** Omit for a full refund of the remaining balance. */
  amountCents?: number;
  approval?: ManagerApproval;
};

export type VoidRequest = { serviceReferenceNumber: string; approval?: ManagerApproval };

export type RefundOutcome = {
  transaction: TransactionView;
  /** For a refund: how much stays refundable on the original. */
  remainingRefundableCents?: number;
};

// =====================================================================================================
// Batch, reconciliation, settlement, automatic close

export type TotalsLine = { key: string; count: number; amountCents: number };

export type BatchTotals = {
  /** From the lane's journal for the open batch. */
  saleCount: number;
  saleCents: number;
  refundCount: number;
  refundCents: number;
  netCents: number;
  tipCents: number;
  byCardType: TotalsLine[];
  byTender: TotalsLine[];
  /** From the gateway's open batch (all lanes of the merchant), when reachable. */
  gateway?: { count: number; amountCents: number };
};

export type ReconciliationRow = {
  userTransactionNumber: string;
  journal?: { state: JournalState; amountCents: number; operation: JournalOperation };
  gateway?: { status: string; amountCents: number; serviceReferenceNumber: string; inOpenBatch: boolean };
  /**
   * `match`: both agree. `orphan`: approved at the gateway, unknown or missing locally (must be
   * resolved before batch close). `pending-reversal`: the journal is reversing it. `mismatch`: they
   * disagree (amount or state). `local-only`: in the journal, not at the gateway (declined/failed/cash).
   */
  verdict: 'match' | 'orphan' | 'pending-reversal' | 'mismatch' | 'local-only';
  note?: string;
};

export type ReconciliationView = {
  at: number;
  rows: ReconciliationRow[];
  orphans: number;
  mismatches: number;
  pendingReversals: number;
  /** True when nothing blocks closing the batch. */
  canClose: boolean;
  /** Why not, in plain words. */
  blockers: string[];
};

/** `keep`: the gateway's approval stands, the journal adopts it. `reverse`: send DoReversal. */
export type OrphanResolution = {
  userTransactionNumber: string;
  action: 'keep' | 'reverse';
  approval?: ManagerApproval;
};

export type SettlementView = {
  amountSettledCents: number;
  batches: { batchNumber: string; count: number; saleCents: number; returnCents: number; netCents: number }[];
  completedAt?: string;
};

export type LastSettlementView = { amountSettledCents: number; batches: string[]; completedOn: string };

export type AutoCloseView = {
  enrolled: boolean;
  /** HH:MM, merchant local time, when known. */
  time?: string;
};

// =====================================================================================================
// Reports

export type ReportRow = {
  serviceReferenceNumber: string;
  userTransactionNumber: string;
  type: string;
  status: string;
  amountCents: number;
  totalCents: number;
  tipCents: number;
  refundedCents: number;
  cardType: string;
  last4: string;
  authCode: string;
  batchNumber?: string;
  madeOn: string;
};

export type ReportQuery = { from?: string; to?: string };

export type ReportView = {
  rows: ReportRow[];
  /** 24 entries, local hour 0..23. */
  salesByHour: { hour: number; count: number; amountCents: number }[];
  cardMix: TotalsLine[];
  refunds: { count: number; amountCents: number };
  /** The rows as CSV (header line first). */
  csv: string;
};

// =====================================================================================================
// Merchant passthroughs: business settings, fraud auto-deny, payment links

export type BusinessSettingsView = {
  surchargeEnabled: boolean;
  surchargePercent: number;
  cardDifferenceEnabled: boolean;
  cardDifferencePercent: number;
  threeDSecureEnabled: boolean;
  /** The lane's own sale settings (kept by the terminal). */
  taxRatePercent: number;
  tipPrompt: boolean;
  tipPresetsPercent: number[];
  /** A pre-authorization completion's tip above this share of the hold needs a manager (default 20). */
  preauthTipMaxPercent?: number;
  /**
   * How many times a chip card's chip must fail in one card wait before its swipe is taken (as
   * ChipFallbackSwipe); until then the swipe is refused with "insert the card". Default 1.
   */
  chipFallbackAfterFailures?: number;
};

export type BusinessSettingsUpdate = {
  taxRatePercent?: number;
  tipPrompt?: boolean;
  tipPresetsPercent?: number[];
  preauthTipMaxPercent?: number;
  /** 1 to 3. */
  chipFallbackAfterFailures?: number;
};

export type FraudCheck = 'account' | 'address' | 'cvv' | 'zipCode';

export type FraudOptionsView = { enabled: FraudCheck[]; known: boolean };

export type PaymentLinkView = {
  id: string;
  link: string;
  amountCents?: number;
  description?: string;
  status: string;
  active: boolean;
  createdOn?: string;
};

export type PaymentLinkCreate = { amountCents?: number; description?: string; invoiceNumber?: string };

// =====================================================================================================
// Store-and-forward

export type SafPolicy = {
  enabled: boolean;
  /** Largest single offline sale. */
  perTransactionLimitCents: number;
  /** Largest total held offline at once. */
  totalLimitCents: number;
  /** Older stored sales are not forwarded; they are reported for follow-up. */
  maxAgeHours: number;
};

export type SafItemView = {
  userTransactionNumber: string;
  amountCents: number;
  last4: string;
  cardType?: string;
  storedAt: number;
  state: 'queued' | 'forwarding' | 'forwarded' | 'declined' | 'expired' | 'failed';
  message?: string;
};

export type SafView = {
  policy: SafPolicy;
  exposureCents: number;
  count: number;
  items: SafItemView[];
};

// =====================================================================================================
// Reversal queue and gateway connection

export type ReversalItemView = {
  userTransactionNumber: string;
  amountCents: number;
  operation: JournalOperation;
  attempts: number;
  nextAttemptAt?: number;
  lastError?: string;
  since: number;
};

export type ReversalQueueView = { pending: number; items: ReversalItemView[] };

export type GatewayTimeouts = {
  /** Money-moving operations (sale, debit, refund…): no answer by then = unknown outcome. */
  saleMs: number;
  /** Reversals, reports and other reads. */
  otherMs: number;
};

export type GatewaySettingsView = {
  baseUrl: string;
  mid: number;
  cid: number;
  userName: string;
  appKey: string;
  appType: number;
  passwordSet: boolean;
  timeouts: GatewayTimeouts;
  /** True when the core runs the embedded sandbox gateway. */
  embeddedSandbox: boolean;
};

export type GatewaySettingsUpdate = {
  baseUrl?: string;
  mid?: number;
  cid?: number;
  userName?: string;
  /** Write-only: never read back. */
  password?: string;
  appKey?: string;
  appType?: number;
  timeouts?: Partial<GatewayTimeouts>;
};

export type GatewayTestResult = { ok: boolean; latencyMs: number; message: string };

export type GatewayStatusView = {
  online: boolean;
  lastCheckedAt?: number;
  lastError?: string;
};

// =====================================================================================================
// Devices

export type DeviceRoleName = 'cardReader' | 'pinPad' | 'contactless' | 'signaturePad' | 'receiptPrinter';

export type DeviceStateName = 'connected' | 'missing' | 'reconnecting' | 'error';

export type SerialLine = {
  baudRate: number;
  dataBits: 7 | 8;
  parity: 'none' | 'even' | 'odd';
  stopBits: 1 | 2;
};

export type DeviceConnectionView =
  | ({ kind: 'serial'; path: string } & SerialLine)
  | { kind: 'hid'; vendorId: number; productId: number }
  | { kind: 'wedge' }
  | { kind: 'simulated' }
  | { kind: 'none' };

export type DeviceConfigView = {
  cardReader: DeviceConnectionView;
  pinPad: DeviceConnectionView;
  contactless: DeviceConnectionView;
  signaturePad: DeviceConnectionView;
  receiptPrinter: DeviceConnectionView;
};

export type DeviceStatusView = {
  role: DeviceRoleName;
  kind: DeviceConnectionView['kind'];
  attachment: string;
  state: DeviceStateName;
  lastError?: string;
  lastSeenAt?: number;
  attempts: number;
  nextAttemptAt?: number;
  detail?: Record<string, string | number | boolean>;
};

export type DiscoveredDeviceView = {
  transport: 'serial' | 'hid';
  path: string;
  vendorId?: number;
  productId?: number;
  manufacturer?: string;
  product?: string;
  guess?: { role: DeviceRoleName; model: string; confidence: 'high' | 'low' };
  suggestion?: DeviceConnectionView;
};

export type DiscoveryView = {
  devices: DiscoveredDeviceView[];
  serialMethod: string;
  serialNote?: string;
  hid: { available: boolean; reason?: string };
};

export type DeviceTestRequest =
  | { role: 'cardReader'; action: 'read-card'; timeoutMs?: number }
  | { role: 'pinPad'; action: 'display-text'; text?: string }
  | { role: 'contactless'; action: 'beep' | 'ping' }
  | { role: 'receiptPrinter'; action: 'print-test-receipt' | 'status' }
  | { role: DeviceRoleName; action: 'heartbeat' };

export type DeviceTestResultView = { ok: boolean; detail: string };

/** One recorded frame, as native's frame recorder wrote it: card data masked, PIN blocks dropped. */
export type FrameView = {
  at: number;
  role: DeviceRoleName;
  direction: 'in' | 'out';
  length: number;
  /** The frame's bytes (already masked by the recorder) as hex. */
  hex?: string;
  /** The same bytes as printable ASCII, other bytes shown as `.`. */
  ascii?: string;
};

export type FrameRecorderView = { enabled: boolean; frames: FrameView[]; file?: string };

// =====================================================================================================
// Sandbox device simulator (only when the devices are simulated)

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
};

// =====================================================================================================
// Terminal status, audit, diagnostics

export type TerminalStatusView = {
  laneId: string;
  mid: number;
  cid: number;
  sandbox: boolean;
  version: string;
  contractVersion: number;
  session: Session | null;
  gateway: GatewayStatusView;
  reversals: { pending: number };
  saf: { enabled: boolean; exposureCents: number; count: number };
  devices: DeviceStatusView[];
  /** The last ticket still open on this lane (e.g. after a restart). */
  openTicketId?: string;
};

export type AuditEntryView = {
  at: number;
  role: Role | 'system';
  action: string;
  /** No card data, ever. */
  detail: string;
  approvedBy?: Role;
};

export type DiagnosticsBundle = {
  fileName: string;
  /** JSON text: status, settings (no secrets), device status and frames, journal summary, logs (masked). */
  json: string;
};

// =====================================================================================================
// The command map: name -> [payload, value]

type Cmd<P, V> = { payload: P; value: V };
type Empty = Record<string, never>;

export type Commands = {
  // --- session & terminal
  'session.signIn': Cmd<{ pin: string }, Session>;
  'session.signOut': Cmd<Empty, null>;
  'session.current': Cmd<Empty, Session | null>;
  /**
   * Changes a role's PIN (4-8 digits). Your own: with `currentPin`, that role's PIN as it is now. Another
   * role's: with `approval`, a manager's PIN (also when a manager is signed in). A wrong PIN and a new PIN
   * another role holds get the same `forbidden` answer; changes are throttled (docs/bridge.md).
   */
  'session.changePin': Cmd<
    { role: Role; newPin: string; currentPin?: string; approval?: ManagerApproval },
    null
  >;
  'terminal.status': Cmd<Empty, TerminalStatusView>;
  'lane.get': Cmd<Empty, { laneId: string }>;
  /** Tech only. Changes the UserTransactionNumber prefix; the counter continues, so numbers stay unique. */
  'lane.set': Cmd<{ laneId: string }, { laneId: string }>;

  // --- sale
  'sale.open': Cmd<SaleOpenRequest, TicketView>;
  'sale.current': Cmd<Empty, TicketView | null>;
  'sale.get': Cmd<{ ticketId: string }, TicketView>;
  /** Sets the ticket's tip before (more) tenders are taken. */
  'sale.setTip': Cmd<{ ticketId: string; tipCents: number }, TicketView>;
  /** Takes one tender; resolves when it is finished. Progress arrives as `sale.progress` events. */
  'sale.pay': Cmd<SalePayRequest, SaleOutcome>;
  /** Cancels the tender in progress (stops the device wait); an authorization already sent is not cancelled. */
  'sale.cancel': Cmd<{ ticketId: string }, TicketView>;
  /** Gives up an unfinished ticket; approved tenders are reversed (manager approval needed if any). */
  'sale.abandon': Cmd<{ ticketId: string; approval?: ManagerApproval }, TicketView>;
  /** Captures the signature required by the last tender. */
  'sale.signature': Cmd<{ ticketId: string; tenderId: string; signature: SignatureInput }, TenderView>;

  // --- balances and other card operations outside a ticket
  'gift.balance': Cmd<{ entry?: 'swipe' | 'keyed'; keyed?: { cardNumber: string } }, BalanceView>;
  'gift.reload': Cmd<GiftReloadRequest, TransactionView>;
  'ebt.balance': Cmd<{ program: EbtProgram }, BalanceView>;
  'preauth.complete': Cmd<PreauthCompleteRequest, TransactionView>;

  // --- receipts
  'receipt.get': Cmd<{ ticketId: string; copy?: 'customer' | 'merchant' }, ReceiptView>;
  'receipt.print': Cmd<{ ticketId: string; copy?: 'customer' | 'merchant' }, ReceiptPrintResult>;
  'receipt.reprintLast': Cmd<Empty, ReceiptPrintResult>;

  // --- lane transactions, refunds, voids
  'transactions.list': Cmd<TransactionQuery, TransactionView[]>;
  'transactions.refund': Cmd<RefundRequest, RefundOutcome>;
  'transactions.void': Cmd<VoidRequest, RefundOutcome>;

  // --- batch (manager)
  'batch.totals': Cmd<Empty, BatchTotals>;
  'batch.reconcile': Cmd<Empty, ReconciliationView>;
  'batch.resolveOrphan': Cmd<OrphanResolution, ReconciliationView>;
  'batch.settle': Cmd<{ approval?: ManagerApproval }, SettlementView>;
  'batch.lastSettlements': Cmd<Empty, LastSettlementView[]>;
  'batch.autoClose.get': Cmd<Empty, AutoCloseView>;
  /** Enrolls, or changes the time when already enrolled. */
  'batch.autoClose.set': Cmd<{ time: string; approval?: ManagerApproval }, AutoCloseView>;
  'batch.autoClose.remove': Cmd<{ approval?: ManagerApproval }, AutoCloseView>;

  // --- reports (manager)
  'reports.transactions': Cmd<ReportQuery, ReportView>;

  // --- merchant passthroughs (manager)
  'business.get': Cmd<Empty, BusinessSettingsView>;
  'business.update': Cmd<BusinessSettingsUpdate, BusinessSettingsView>;
  'fraud.get': Cmd<Empty, FraudOptionsView>;
  'fraud.set': Cmd<{ check: FraudCheck; enabled: boolean }, FraudOptionsView>;
  'paymentLinks.list': Cmd<Empty, PaymentLinkView[]>;
  'paymentLinks.create': Cmd<PaymentLinkCreate, PaymentLinkView>;
  'paymentLinks.disable': Cmd<{ id: string }, PaymentLinkView>;

  // --- store-and-forward (manager for policy)
  'saf.get': Cmd<Empty, SafView>;
  'saf.setPolicy': Cmd<SafPolicy & { approval?: ManagerApproval }, SafView>;
  /** Tries to forward the queue now (it is also forwarded automatically when the gateway returns). */
  'saf.forwardNow': Cmd<Empty, SafView>;

  // --- reversal queue
  'reversals.get': Cmd<Empty, ReversalQueueView>;
  /** Tries every pending reversal now instead of waiting for its backoff. */
  'reversals.retryNow': Cmd<Empty, ReversalQueueView>;

  // --- gateway connection (tech)
  'gateway.get': Cmd<Empty, GatewaySettingsView>;
  'gateway.update': Cmd<GatewaySettingsUpdate, GatewaySettingsView>;
  'gateway.test': Cmd<Empty, GatewayTestResult>;

  // --- devices (tech)
  'devices.list': Cmd<Empty, DeviceStatusView[]>;
  'devices.discover': Cmd<Empty, DiscoveryView>;
  'devices.config.get': Cmd<Empty, DeviceConfigView>;
  'devices.config.set': Cmd<{ config: DeviceConfigView }, DeviceConfigView>;
  'devices.reconnect': Cmd<{ role: DeviceRoleName }, DeviceStatusView>;
  'devices.test': Cmd<DeviceTestRequest, DeviceTestResultView>;
  'devices.recorder.get': Cmd<{ limit?: number }, FrameRecorderView>;
  'devices.recorder.set': Cmd<{ enabled: boolean }, FrameRecorderView>;

  // --- audit and diagnostics
  'audit.list': Cmd<{ limit?: number }, AuditEntryView[]>;
  'diagnostics.bundle': Cmd<Empty, DiagnosticsBundle>;

  // --- sandbox simulator panel (sandbox only; `unavailable` otherwise)
  'simulator.state': Cmd<Empty, SimulatorStateView>;
  'simulator.swipe': Cmd<{ pan?: string; badRead?: boolean }, SimulatorStateView>;
  'simulator.insert': Cmd<{ pan?: string }, SimulatorStateView>;
  'simulator.tap': Cmd<{ pan?: string }, SimulatorStateView>;
  /** The customer pulls the inserted card out of the chip slot. */
  'simulator.removeCard': Cmd<Empty, SimulatorStateView>;
  'simulator.typePin': Cmd<{ pin: string }, SimulatorStateView>;
  'simulator.cancelOnPad': Cmd<Empty, SimulatorStateView>;
  'simulator.sign': Cmd<Empty, SimulatorStateView>;
  'simulator.setPaper': Cmd<{ paper: 'ok' | 'near-end' | 'out' }, SimulatorStateView>;
  'simulator.setCoverOpen': Cmd<{ open: boolean }, SimulatorStateView>;
  'simulator.unplug': Cmd<{ role: DeviceRoleName }, SimulatorStateView>;
  'simulator.replug': Cmd<{ role: DeviceRoleName }, SimulatorStateView>;
};

export type CommandName = keyof Commands;
export type CommandPayload<K extends CommandName> = Commands[K]['payload'];
export type CommandValue<K extends CommandName> = Commands[K]['value'];

// =====================================================================================================
// Events: pushed by the core to every connected renderer

export type Events = {
  'sale.progress': SaleProgress;
  'sale.updated': TicketView;
  'session.changed': Session | null;
  'devices.status': DeviceStatusView;
  'gateway.status': GatewayStatusView;
  'reversals.updated': ReversalQueueView;
  'saf.updated': SafView;
  'simulator.changed': SimulatorStateView;
  'receipt.printed': { ticketId: string; printed: boolean; reason?: string };
};

export type EventName = keyof Events;

// =====================================================================================================
// The API the renderer holds (window.tillpoint in Electron; a WebSocket client in browser mode)

export type Bridge = {
  send<K extends CommandName>(command: K, payload: CommandPayload<K>): Promise<BridgeResult<CommandValue<K>>>;
  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
};

// =====================================================================================================
// Browser-mode wire protocol (JSON text frames over ws://127.0.0.1:PORT/bridge)

export type ClientMessage =
  /**
   * First frame, with one proof: `secret` (a tool: `<data>/bridge.json`, owner-only), `launchToken` (the
   * window the terminal opened: the one-time `#launch=` of its URL), or `pageKey` (that window again,
   * after a reload or a dropped socket).
   */
  | { type: 'hello'; secret?: string; launchToken?: string; pageKey?: string; contractVersion: number }
  | { type: 'call'; id: number; command: CommandName; payload: unknown };

export type ServerMessage =
  /** `pageKey`: given once, for a spent launch token; the window keeps it to come back. */
  | { type: 'welcome'; contractVersion: number; pageKey?: string }
  | { type: 'result'; id: number; result: BridgeResult<unknown> }
  | { type: 'event'; event: EventName; payload: unknown }
  /** Sent before the server closes the socket (bad secret, protocol error). */
  | { type: 'refused'; message: string };
