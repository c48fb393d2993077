import { Type, type Static, type TSchema } from 'typebox';
import type {
  BatchTotals,
  LastSettlementView,
  AutoCloseView,
  ReconciliationView,
  SettlementView,
} from './batch';
import { OrphanResolutionSchema } from './batch';
import type { BalanceView } from './card-services';
import { customerCommandPayloads, type CustomerCommandValues } from './customer';
import { GiftReloadRequestSchema, PreauthCompleteRequestSchema } from './card-services';
import type {
  DeviceConfigView,
  DeviceStatusView,
  DeviceTestResultView,
  DiscoveryView,
  FrameRecorderView,
} from './devices';
import { DeviceConfigSchema, DeviceRoleSchema, DeviceTestRequestSchema } from './devices';
import type { ActiveChangeView, EmployeesView, EmployeeView, OneTimePinView, PunchView } from './employees';
import { EmployeeAddSchema, EmployeeIdSchema, EmployeeUpdateSchema, PunchSchema } from './employees';
import type { EmailQueueView, EmailReceiptQueuedView, EmailSettingsView, EmailTestResult } from './email';
import {
  EmailQueueQuerySchema,
  EmailReceiptRequestSchema,
  EmailRetrySchema,
  EmailSettingsUpdateSchema,
  EmailTestRequestSchema,
} from './email';
import type { GatewaySettingsView, GatewayTestResult } from './gateway';
import { GatewaySettingsUpdateSchema } from './gateway';
import type {
  BusinessSettingsView,
  FraudOptionsView,
  PaymentLinkView,
  ReportFigures,
  ReportView,
} from './merchant';
import {
  BusinessSettingsUpdateSchema,
  FraudCheckSchema,
  PaymentLinkCreateSchema,
  ReportQuerySchema,
} from './merchant';
import type { ReceiptPrintResult, ReceiptView } from './receipts';
import type { ReversalQueueView } from './reversals';
import type { LiveTenderView, SaleOutcome, SaleSettingsView, TenderView, TicketView } from './sale';
import {
  EbtProgramSchema,
  GiftEntrySchema,
  KeyedGiftCardSchema,
  SaleOpenRequestSchema,
  SalePayRequestSchema,
  SignatureInputSchema,
  TicketIdSchema,
  TipSchema,
} from './sale';
import { Limit, Text } from './schema-kit';
import type { ScanView, WedgeSettingsView } from './scanner';
import { SimulatorScanSchema } from './scanner';
import type { Session } from './session';
import type {
  CatalogExportPage,
  CatalogImportResult,
  CatalogImportStaged,
  CatalogItemView,
  CatalogLookupView,
  CatalogPage,
  CategoryView,
  TaxClassView,
} from './catalog';
import {
  CatalogCursorSchema,
  CatalogItemInputSchema,
  CatalogListQuerySchema,
  CatalogLookupSchema,
  CategoryInputSchema,
  TaxClassInputSchema,
} from './catalog';
import { CATALOG_LIMITS } from './retail-limits';
import type { DiscountLimitsView, StoreLocaleView, StoreProfileView } from './store-profile';
import { DiscountLimitsSchema, StoreLocaleSchema, StoreProfileSchema } from './store-profile';
import {
  TicketAddItemSchema,
  TicketAddOpenItemSchema,
  TicketAddScanSchema,
  TicketSetDiscountSchema,
  TicketSetLineDiscountSchema,
  TicketSetPriceSchema,
  TicketSetQuantitySchema,
  TicketVoidLineSchema,
} from './ticket';
import { OptionalApproval, RoleSchema } from './session';
import type { SimulatorStateView } from './simulator';
import type { AuditEntryView, DiagnosticsBundle, TerminalStatusView } from './status';
import type { SafView } from './store-and-forward';
import { SafPolicySchema } from './store-and-forward';
import type {
  DayCloseView,
  TillMovementView,
  TillPrintResult,
  TillRefundOutcome,
  TillReportView,
  TillSettingsView,
  TillStatusView,
  TillView,
  ZSummaryView,
} from './till';
import {
  TillCountSchema,
  TillMoveSchema,
  TillOpenSchema,
  TillRefundSchema,
  TillReportScopeSchema,
  TillSettingsUpdateSchema,
  TillSignOffSchema,
  ZListSchema,
} from './till';
import type {
  ReturnableSaleView,
  ReturnFindResult,
  ReturnQuoteView,
  ReturnSettingsView,
  ReturnView,
} from './returns';
import {
  ReturnCreateSchema,
  ReturnFindSchema,
  ReturnGiftCardSchema,
  ReturnQuoteSchema,
  ReturnSettingsSchema,
  ReturnWithoutReceiptSchema,
} from './returns';
import type { RefundOutcome, TransactionListRow, TransactionView } from './transactions';
import { RefundRequestSchema, TransactionQuerySchema, VoidRequestSchema } from './transactions';

const Empty = Type.Object({});
const Copy = Type.Optional(
  Type.Enum(['customer', 'merchant'], { problem: 'The copy is customer or merchant.' }),
);
const Pan = Type.Optional(Type.String());
const ApprovalOnly = Type.Object({ approval: OptionalApproval });
const CatalogId = Type.Object({ id: Type.Integer({ minimum: 1, problem: 'Choose one.' }) });
const ImportId = Text(64, 'importId');
const ReturnId = Type.Integer({ minimum: 1, problem: 'Choose a return.' });

/**
 * Every command's payload, declared once: the dispatcher checks each call against it before the handler
 * runs (bridge/payload-check.ts), and `CommandPayload<K>` is derived from it. A command's access rule is
 * roles/command-access.ts; its answer is `CommandValues` below.
 */
export const commandPayloads = {
  // --- session & terminal
  'session.signIn': Type.Object({ pin: Type.String({ problem: 'Type a PIN.' }) }),
  'session.signOut': Empty,
  'session.current': Empty,
  /**
   * Changes the signed-in employee's own PIN (4-8 digits, not a weak one) with `currentPin`, their PIN as
   * it is now (the one-time PIN right after a reset). A wrong current PIN and a new PIN someone else holds
   * get the same `forbidden` answer; changes are throttled (docs/bridge.md). Another employee's PIN is
   * never set here: a manager resets it (`employees.resetPin`). `role` and `approval` are from before
   * employees: a `role` other than the session's is refused.
   */
  'session.changePin': Type.Object({
    role: Type.Optional(RoleSchema),
    newPin: Type.String({ problem: 'A PIN is 4 to 8 digits.' }),
    currentPin: Type.Optional(Type.String({ problem: 'The current PIN is digits.' })),
    approval: OptionalApproval,
  }),
  /** Time clock (when on): clock in or out by PIN, at the sign-in screen. */
  'timeClock.punch': PunchSchema,
  'terminal.status': Empty,
  'lane.get': Empty,
  /** Tech only. Changes the UserTransactionNumber prefix; the counter continues, so numbers stay unique. */
  'lane.set': Type.Object({
    laneId: Type.String({
      pattern: '^[A-Za-z0-9]{1,16}$',
      problem: 'A lane id is 1 to 16 letters or digits.',
    }),
  }),

  // --- sale
  'sale.open': SaleOpenRequestSchema,
  'sale.current': Empty,
  'sale.get': Type.Object({ ticketId: TicketIdSchema }),
  /** Sets the ticket's tip before (more) tenders are taken. */
  'sale.setTip': Type.Object({ ticketId: TicketIdSchema, tipCents: TipSchema }),
  /** Takes one tender; resolves when it is finished. Progress arrives as `sale.progress` events. */
  'sale.pay': SalePayRequestSchema,
  /** Cancels the tender in progress (stops the device wait); an authorization already sent is not cancelled. */
  'sale.cancel': Type.Object({ ticketId: TicketIdSchema }),
  /** Gives up an unfinished ticket; approved tenders are reversed (manager approval needed if any). */
  'sale.abandon': Type.Object({ ticketId: TicketIdSchema, approval: OptionalApproval }),
  /** The tender running on the lane now (any window's), or null: a new or reloaded window re-attaches to it. */
  'sale.live': Empty,
  /** The lane's tax, tip and large-amount settings (local: answered with the gateway down). */
  'sale.settings': Empty,
  /** The manager saves the lane's sale settings (as business.update does, without asking the gateway). */
  'sale.settings.set': BusinessSettingsUpdateSchema,
  /** Captures the signature required by the last tender. */
  'sale.signature': Type.Object({
    ticketId: TicketIdSchema,
    tenderId: Text(64, 'tenderId'),
    signature: SignatureInputSchema,
  }),

  // --- balances and other card operations outside a ticket
  'gift.balance': Type.Object({
    entry: Type.Optional(GiftEntrySchema),
    keyed: Type.Optional(KeyedGiftCardSchema),
  }),
  'gift.reload': GiftReloadRequestSchema,
  'ebt.balance': Type.Object({ program: EbtProgramSchema }),
  /**
   * Stops a gift balance, gift load or EBT balance waiting for a card or a PIN (readers and PIN pad stop);
   * `cancelled: false` when none is waiting. A tender's wait is `sale.cancel`'s.
   */
  'cardWait.cancel': Empty,
  'preauth.complete': PreauthCompleteRequestSchema,

  // --- receipts
  'receipt.get': Type.Object({ ticketId: TicketIdSchema, copy: Copy }),
  'receipt.print': Type.Object({ ticketId: TicketIdSchema, copy: Copy }),
  'receipt.reprintLast': Empty,
  /** The receipt of a refund or a void (a journal row outside a ticket), by its UserTransactionNumber. */
  'receipt.transaction.get': Type.Object({
    userTransactionNumber: Text(64, 'userTransactionNumber'),
    copy: Copy,
  }),
  'receipt.transaction.print': Type.Object({
    userTransactionNumber: Text(64, 'userTransactionNumber'),
    copy: Copy,
  }),

  // --- lane transactions, refunds, voids
  'transactions.list': TransactionQuerySchema,
  'transactions.refund': RefundRequestSchema,
  'transactions.void': VoidRequestSchema,

  // --- returns from a receipt (docs/terminal.md "Returns"): a cashier's with the receipt, a manager's without
  /** Sales by receipt number (scanned or typed), or by store days, last four and total; any day, paged. */
  'returns.find': ReturnFindSchema,
  /** A sale's lines with what earlier returns took, and its tenders with what each can still take back. */
  'returns.sale': Type.Object({ ticketId: Text(64, 'ticketId') }),
  /** What a return would give back, line by line and tender by tender, before it is confirmed. */
  'returns.quote': ReturnQuoteSchema,
  /** Returns lines of a sale; the money goes back to its tenders in `order`. A retry answers the same return. */
  'returns.create': ReturnCreateSchema,
  /** A return without a receipt: a manager approves; cash or a gift card, as the store chose. */
  'returns.createWithoutReceipt': ReturnWithoutReceiptSchema,
  /** Tries again the money a return still owes (a card refund that failed, cash with no till open). */
  'returns.retry': Type.Object({ returnId: ReturnId, giftCard: Type.Optional(ReturnGiftCardSchema) }),
  'returns.get': Type.Object({ returnId: ReturnId }),
  /** The return's own receipt (items and tax returned, tenders refunded, last four only). */
  'returns.receipt.get': Type.Object({ returnId: ReturnId, copy: Copy }),
  'returns.receipt.print': Type.Object({ returnId: ReturnId, copy: Copy }),
  'returns.settings.get': Empty,
  /** Where a return without a receipt puts the money (manager). */
  'returns.settings.set': ReturnSettingsSchema,

  // --- batch (manager)
  'batch.totals': Empty,
  'batch.reconcile': Empty,
  'batch.resolveOrphan': OrphanResolutionSchema,
  'batch.settle': ApprovalOnly,
  'batch.lastSettlements': Empty,
  'batch.autoClose.get': Empty,
  /** Enrolls, or changes the time when already enrolled. */
  'batch.autoClose.set': Type.Object({ time: Text(5, 'time'), approval: OptionalApproval }),
  'batch.autoClose.remove': ApprovalOnly,

  // --- tills: the lane's cash drawer (docs/terminal.md "Tills")
  /** The till in the drawer and the tills waiting for a count or a sign-off (never an expected figure). */
  'till.status': Empty,
  /** Opens a till in the drawer with its float, counted by denomination or as a total. */
  'till.open': TillOpenSchema,
  /** Paid in, paid out, safe drop (with an amount) or "No sale" (none); a reason always. Opens the drawer. */
  'till.move': TillMoveSchema,
  /** Cash given back on a cash sale of this lane, from the till in the drawer (a manager approves). */
  'till.refund': TillRefundSchema,
  /** The till leaves the drawer for its count; the next cashier opens their own. */
  'till.handOver': Empty,
  /** The blind count: the answer is the first place the till's expected figure appears. */
  'till.count': TillCountSchema,
  /** A manager accepts a count beyond the tolerance; the till closes. */
  'till.signOff': TillSignOffSchema,
  /** A till's movements, newest first (the till in the drawer when `tillId` is left out). */
  'till.movements': Type.Object({
    tillId: Type.Optional(Type.Integer({ minimum: 1, problem: 'Choose a till.' })),
    limit: Type.Optional(Limit()),
  }),
  /** The day's tills (no Z has closed them yet), as the cashier may see them. */
  'till.list': Empty,
  /** An X report (a till's shift, or the day so far) or a closed day's Z. */
  'till.report': TillReportScopeSchema,
  /** The same, on the receipt printer. */
  'till.print': TillReportScopeSchema,
  /** Closes the day (Z): every till of it closed first. Numbered, kept, printed. */
  'till.closeDay': Empty,
  /** Closed days, newest first. */
  'till.zList': ZListSchema,
  'till.settings.get': Empty,
  'till.settings.set': TillSettingsUpdateSchema,

  // --- reports (manager)
  'reports.transactions': ReportQuerySchema,
  'reports.figures': ReportQuerySchema,

  // --- merchant passthroughs (manager)
  'business.get': Empty,
  'business.update': BusinessSettingsUpdateSchema,
  'fraud.get': Empty,
  'fraud.set': Type.Object({ check: FraudCheckSchema, enabled: Type.Boolean() }),
  'paymentLinks.list': Empty,
  'paymentLinks.create': PaymentLinkCreateSchema,
  'paymentLinks.disable': Type.Object({
    id: Type.String({ minLength: 1, maxLength: 64, problem: 'Choose a link.' }),
  }),

  // --- store-and-forward (manager for policy)
  'saf.get': Empty,
  'saf.setPolicy': Type.Object({ ...SafPolicySchema.properties, approval: OptionalApproval }),
  /** Tries to forward the queue now (it is also forwarded automatically when the gateway returns). */
  'saf.forwardNow': Empty,

  // --- reversal queue
  'reversals.get': Empty,
  /** Tries every pending reversal now instead of waiting for its backoff. */
  'reversals.retryNow': Empty,

  // --- gateway connection (tech)
  'gateway.get': Empty,
  'gateway.update': GatewaySettingsUpdateSchema,
  'gateway.test': Empty,

  // --- devices (tech)
  'devices.list': Empty,
  'devices.discover': Empty,
  'devices.config.get': Empty,
  'devices.config.set': Type.Object({ config: DeviceConfigSchema }),
  'devices.reconnect': Type.Object({ role: DeviceRoleSchema }),
  'devices.test': DeviceTestRequestSchema,
  'devices.recorder.get': Type.Object({ limit: Type.Optional(Limit()) }),
  'devices.recorder.set': Type.Object({ enabled: Type.Boolean() }),

  // --- barcode scanner
  /**
   * A keyboard-wedge scan the screen told from typing (common/wedge-scan.ts): its text without the
   * scanner's prefix and suffix. The scanner reads it like any scan: the answer, and `scanner.scanned`.
   */
  'scanner.wedgeScan': Type.Object({ data: Text(4096, 'data') }),
  /** How to tell a wedge scan from typing; `null` when the scanner is not a keyboard wedge. */
  'scanner.wedgeSettings': Empty,
  /**
   * A sale screen claims a scan before it rings it, naming the ticket it shows: every window hears every
   * scan, and one claim of a scan is true, so a lane with two windows open rings an item once. While the
   * lane rings a ticket of lines, only a window showing that ticket may claim; another is told `ringing`
   * (that ticket's id) to follow it, and claims again.
   */
  'scanner.claim': Type.Object({ scanId: Text(64, 'scanId'), ticketId: Type.Optional(TicketIdSchema) }),
  // --- employees (manager; every change but a rename confirmed with a manager's PIN, docs/bridge.md)
  'employees.list': Empty,
  /** Answers the new employee's one-time PIN, to hand over. */
  'employees.add': EmployeeAddSchema,
  'employees.update': EmployeeUpdateSchema,
  /** The old PIN stops working at once; answers a one-time PIN, to hand over. */
  'employees.resetPin': Type.Object({ employeeId: EmployeeIdSchema, approval: OptionalApproval }),
  /** Deactivating ends their sessions and frees their PIN; reactivating answers a one-time PIN. */
  'employees.setActive': Type.Object({
    employeeId: EmployeeIdSchema,
    active: Type.Boolean(),
    approval: OptionalApproval,
  }),
  /** Closes an employee's open shift (they forgot to clock out). */
  'employees.clockOut': Type.Object({ employeeId: EmployeeIdSchema }),
  'employees.setTimeClock': Type.Object({ enabled: Type.Boolean() }),

  // --- catalog (docs/catalog.md): the cashier looks up; the manager keeps it
  'catalog.taxClasses.list': Empty,
  'catalog.taxClasses.save': TaxClassInputSchema,
  /** Only a class no item is in. */
  'catalog.taxClasses.delete': CatalogId,
  'catalog.categories.list': Empty,
  'catalog.categories.save': CategoryInputSchema,
  /** Its items stay, without a category. */
  'catalog.categories.delete': CatalogId,
  /** A page of items in name order (a name prefix, inactive ones too if asked); keyset paging by `after`. */
  'catalog.items.list': CatalogListQuerySchema,
  'catalog.items.get': CatalogId,
  /** Adds (no `id`) or changes an item; barcodes are checked by the scan rule (a wrong check digit is refused). */
  'catalog.items.save': CatalogItemInputSchema,
  'catalog.items.setActive': Type.Object({ ...CatalogId.properties, active: Type.Boolean() }),
  /** Only an item never put on a ticket; one a sale refers to is deactivated instead. */
  'catalog.items.delete': CatalogId,
  /** An item by barcode (as scanned or typed; a price-embedded label carries its price) or by SKU. */
  'catalog.lookup': CatalogLookupSchema,
  /** Active items whose name starts with `query`, paged. */
  'catalog.search': Type.Object({
    query: Type.String({ maxLength: CATALOG_LIMITS.nameLength, problem: 'The search is too long.' }),
    after: Type.Optional(CatalogCursorSchema),
    limit: Type.Optional(Type.Integer({ minimum: 1, problem: 'The limit is a positive integer.' })),
  }),
  /** The sale screen's quick keys: active items with a key, in key order. */
  'catalog.quickKeys': Empty,
  /** A CSV import goes in pieces (the bridge's frames are bounded): begin, append each piece, commit. */
  'catalog.import.begin': Empty,
  'catalog.import.append': Type.Object({
    importId: ImportId,
    text: Type.String({
      maxLength: CATALOG_LIMITS.importChunkChars,
      problem: `A piece of the file is at most ${CATALOG_LIMITS.importChunkChars} characters.`,
    }),
  }),
  /** Imports the whole file in one transaction, or nothing of it (every bad row named by its line). */
  'catalog.import.commit': Type.Object({ importId: ImportId }),
  /** One page of the CSV export; `after` is the previous page's `next`. */
  'catalog.export': Type.Object({
    after: Type.Optional(Type.Integer({ minimum: 0, problem: 'Continue from the previous page.' })),
  }),

  // --- a ticket of lines (docs/ticket-pricing.md): priced by the one rule; approvals enforced here
  'ticket.open': Empty,
  'ticket.addItem': TicketAddItemSchema,
  'ticket.addScan': TicketAddScanSchema,
  'ticket.addOpenItem': TicketAddOpenItemSchema,
  'ticket.setQuantity': TicketSetQuantitySchema,
  'ticket.setPrice': TicketSetPriceSchema,
  'ticket.setLineDiscount': TicketSetLineDiscountSchema,
  'ticket.setDiscount': TicketSetDiscountSchema,
  'ticket.voidLine': TicketVoidLineSchema,

  // --- the store on its receipts, and what a cashier may discount (manager)
  'store.profile.get': Empty,
  'store.profile.update': StoreProfileSchema,
  'store.discountLimits.get': Empty,
  'store.discountLimits.update': DiscountLimitsSchema,
  /** The store's locale and currency (docs/terminal.md "Languages and locale"). */
  'store.locale.get': Empty,
  'store.locale.update': StoreLocaleSchema,

  // --- the customer's side: the customer display's commands and the cashier's about it (contract/customer.ts)
  ...customerCommandPayloads,

  // --- audit and diagnostics
  'audit.list': Type.Object({ limit: Type.Optional(Limit()) }),
  'diagnostics.bundle': Empty,

  // --- sandbox simulator panel (sandbox only; `unavailable` otherwise)
  'simulator.state': Empty,
  'simulator.swipe': Type.Object({ pan: Pan, badRead: Type.Optional(Type.Boolean()) }),
  'simulator.insert': Type.Object({ pan: Pan }),
  'simulator.tap': Type.Object({ pan: Pan }),
  /** The customer pulls the inserted card out of the chip slot. */
  'simulator.removeCard': Empty,
  'simulator.typePin': Type.Object({ pin: Text(12, 'pin') }),
  'simulator.cancelOnPad': Empty,
  'simulator.sign': Empty,
  'simulator.setPaper': Type.Object({
    paper: Type.Enum(['ok', 'near-end', 'out'], { problem: 'paper is ok, near-end or out.' }),
  }),
  'simulator.setCoverOpen': Type.Object({ open: Type.Boolean() }),
  'simulator.unplug': Type.Object({ role: DeviceRoleSchema }),
  'simulator.replug': Type.Object({ role: DeviceRoleSchema }),
  /** Scans a label through the simulated scanner's serial, HID POS or keyboard-wedge side. */
  'simulator.scan': SimulatorScanSchema,

  // --- emailed receipts (docs/terminal.md "Emailed receipts")
  /**
   * Queues the customer copy of a paid sale's receipt for an address and answers at once ("Receipt queued
   * for …"); the terminal sends it in the background. Once per receipt and address.
   */
  'email.receipt': EmailReceiptRequestSchema,
  /** The store's mail server (manager). The password is write-only. */
  'email.settings.get': Empty,
  'email.settings.set': EmailSettingsUpdateSchema,
  /** Sends a test email through the saved settings now; answers what happened in people's words. */
  'email.test': EmailTestRequestSchema,
  /** The queue, newest first (addresses masked): waiting, sent, given up with the reason. */
  'email.queue.get': EmailQueueQuerySchema,
  /** Tries a waiting email now, or queues a given-up one again (while its address is kept). */
  'email.queue.retry': EmailRetrySchema,
} satisfies Record<string, TSchema>;

export type CommandName = keyof typeof commandPayloads;

/** What each command answers with (its `value` when `ok`). */
export type CommandValues = CustomerCommandValues & {
  'session.signIn': Session;
  'session.signOut': null;
  'session.current': Session | null;
  /** null: the PIN is saved and the session ended (time clock on: clock in, then sign in). */
  'session.changePin': Session | null;
  'timeClock.punch': PunchView;
  'terminal.status': TerminalStatusView;
  'lane.get': { laneId: string };
  'lane.set': { laneId: string };
  'sale.open': TicketView;
  'sale.current': TicketView | null;
  'sale.get': TicketView;
  'sale.setTip': TicketView;
  'sale.pay': SaleOutcome;
  'sale.cancel': TicketView;
  'sale.abandon': TicketView;
  'sale.live': LiveTenderView | null;
  'sale.settings': SaleSettingsView;
  'sale.settings.set': SaleSettingsView;
  'sale.signature': TenderView;
  'gift.balance': BalanceView;
  'gift.reload': TransactionView;
  'ebt.balance': BalanceView;
  'cardWait.cancel': { cancelled: boolean };
  'preauth.complete': TransactionView;
  'receipt.get': ReceiptView;
  'receipt.print': ReceiptPrintResult;
  'receipt.reprintLast': ReceiptPrintResult;
  'receipt.transaction.get': ReceiptView;
  'receipt.transaction.print': ReceiptPrintResult;
  'transactions.list': TransactionListRow[];
  'transactions.refund': RefundOutcome;
  'transactions.void': RefundOutcome;
  'returns.find': ReturnFindResult;
  'returns.sale': ReturnableSaleView;
  'returns.quote': ReturnQuoteView;
  'returns.create': ReturnView;
  'returns.createWithoutReceipt': ReturnView;
  'returns.retry': ReturnView;
  'returns.get': ReturnView;
  'returns.receipt.get': ReceiptView;
  'returns.receipt.print': ReceiptPrintResult;
  'returns.settings.get': ReturnSettingsView;
  'returns.settings.set': ReturnSettingsView;
  'batch.totals': BatchTotals;
  'batch.reconcile': ReconciliationView;
  'batch.resolveOrphan': ReconciliationView;
  'batch.settle': SettlementView;
  'batch.lastSettlements': LastSettlementView[];
  'batch.autoClose.get': AutoCloseView;
  'batch.autoClose.set': AutoCloseView;
  'batch.autoClose.remove': AutoCloseView;
  'till.status': TillStatusView;
  'till.open': TillView;
  'till.move': TillMovementView;
  'till.refund': TillRefundOutcome;
  'till.handOver': TillView;
  'till.count': TillView;
  'till.signOff': TillView;
  'till.movements': TillMovementView[];
  'till.list': TillView[];
  'till.report': TillReportView;
  'till.print': TillPrintResult;
  'till.closeDay': DayCloseView;
  'till.zList': ZSummaryView[];
  'till.settings.get': TillSettingsView;
  'till.settings.set': TillSettingsView;
  'reports.transactions': ReportView;
  'reports.figures': ReportFigures;
  'business.get': BusinessSettingsView;
  'business.update': BusinessSettingsView;
  'fraud.get': FraudOptionsView;
  'fraud.set': FraudOptionsView;
  'paymentLinks.list': PaymentLinkView[];
  'paymentLinks.create': PaymentLinkView;
  'paymentLinks.disable': PaymentLinkView;
  'saf.get': SafView;
  'saf.setPolicy': SafView;
  'saf.forwardNow': SafView;
  'reversals.get': ReversalQueueView;
  'reversals.retryNow': ReversalQueueView;
  'gateway.get': GatewaySettingsView;
  'gateway.update': GatewaySettingsView;
  'gateway.test': GatewayTestResult;
  'devices.list': DeviceStatusView[];
  'devices.discover': DiscoveryView;
  'devices.config.get': DeviceConfigView;
  'devices.config.set': DeviceConfigView;
  'devices.reconnect': DeviceStatusView;
  'devices.test': DeviceTestResultView;
  'devices.recorder.get': FrameRecorderView;
  'devices.recorder.set': FrameRecorderView;
  'scanner.wedgeScan': ScanView;
  'scanner.wedgeSettings': WedgeSettingsView | null;
  'scanner.claim': { claimed: boolean; ringing?: string };
  'employees.list': EmployeesView;
  'employees.add': OneTimePinView;
  'employees.update': EmployeeView;
  'employees.resetPin': OneTimePinView;
  'employees.setActive': ActiveChangeView;
  'employees.clockOut': EmployeeView;
  'employees.setTimeClock': EmployeesView;
  'catalog.taxClasses.list': TaxClassView[];
  'catalog.taxClasses.save': TaxClassView;
  'catalog.taxClasses.delete': null;
  'catalog.categories.list': CategoryView[];
  'catalog.categories.save': CategoryView;
  'catalog.categories.delete': null;
  'catalog.items.list': CatalogPage & { exact?: CatalogItemView };
  'catalog.items.get': CatalogItemView;
  'catalog.items.save': CatalogItemView;
  'catalog.items.setActive': CatalogItemView;
  'catalog.items.delete': null;
  'catalog.lookup': CatalogLookupView;
  'catalog.search': CatalogPage;
  'catalog.quickKeys': CatalogItemView[];
  'catalog.import.begin': CatalogImportStaged;
  'catalog.import.append': CatalogImportStaged;
  'catalog.import.commit': CatalogImportResult;
  'catalog.export': CatalogExportPage;
  'ticket.open': TicketView;
  'ticket.addItem': TicketView;
  'ticket.addScan': TicketView;
  'ticket.addOpenItem': TicketView;
  'ticket.setQuantity': TicketView;
  'ticket.setPrice': TicketView;
  'ticket.setLineDiscount': TicketView;
  'ticket.setDiscount': TicketView;
  'ticket.voidLine': TicketView;
  'store.profile.get': StoreProfileView;
  'store.profile.update': StoreProfileView;
  'store.discountLimits.get': DiscountLimitsView;
  'store.discountLimits.update': DiscountLimitsView;
  'store.locale.get': StoreLocaleView;
  'store.locale.update': StoreLocaleView;
  'audit.list': AuditEntryView[];
  'diagnostics.bundle': DiagnosticsBundle;
  'simulator.state': SimulatorStateView;
  'simulator.swipe': SimulatorStateView;
  'simulator.insert': SimulatorStateView;
  'simulator.tap': SimulatorStateView;
  'simulator.removeCard': SimulatorStateView;
  'simulator.typePin': SimulatorStateView;
  'simulator.cancelOnPad': SimulatorStateView;
  'simulator.sign': SimulatorStateView;
  'simulator.setPaper': SimulatorStateView;
  'simulator.setCoverOpen': SimulatorStateView;
  'simulator.unplug': SimulatorStateView;
  'simulator.replug': SimulatorStateView;
  'simulator.scan': SimulatorStateView;
  'email.receipt': EmailReceiptQueuedView;
  'email.settings.get': EmailSettingsView;
  'email.settings.set': EmailSettingsView;
  'email.test': EmailTestResult;
  'email.queue.get': EmailQueueView;
  'email.queue.retry': EmailQueueView;
};

/** The command map: name -> { payload, value }, payloads derived from their schemas. */
export type Commands = {
  [K in CommandName]: { payload: Static<(typeof commandPayloads)[K]>; value: CommandValues[K] };
};
export type CommandPayload<K extends CommandName> = Commands[K]['payload'];
export type CommandValue<K extends CommandName> = Commands[K]['value'];
