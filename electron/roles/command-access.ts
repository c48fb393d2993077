import type { CommandName } from '../../common/bridge/contract';
import type { Permission } from './roles';

/**
 * Who may call a command: anyone, anyone signed in, or a role holding the permission — all on a terminal
 * connection — or `customer`: the customer display's connection only (it may call nothing else, and no
 * terminal connection may call these: a cashier's page cannot answer for the customer).
 */
export type Access = 'public' | 'signed-in' | Permission | 'customer';

/**
 * What a command needs besides its caller's access: a manager's approval — the signed-in manager, or a
 * manager's PIN sent with the call (`manager`); a manager's PIN even from a signed-in manager
 * (`manager-pin`: the employees' records); or either of those only in a case the handler's rule decides
 * (`manager-if`, `manager-pin-if`: the rule's file is named in the row's comment).
 */
export type Approval = 'manager' | 'manager-pin' | 'manager-if' | 'manager-pin-if';

/** A command's row: who may call it, and the approval it needs, if any. */
export type AccessRow = Access | readonly [Access, Approval];

// rule: command-access
/**
 * The access rule of every command, one row each: who may call it (checked by the dispatcher before the
 * handler runs) and, where money or people's records are at stake, the manager's approval it needs
 * (asked by the handler through `approvalFor`, so a cashier's screen can ask for the PIN first). "Void
 * needs a manager" is the row `'transactions.void': ['sell', 'manager']`.
 */
export const accessTable = {
  'session.signIn': 'public',
  'session.signOut': 'public',
  'session.current': 'public',
  'session.changePin': 'signed-in',
  // The PIN names the employee; checked and throttled like a sign-in.
  'timeClock.punch': 'public',
  'terminal.status': 'public',
  'lane.get': 'signed-in',
  'lane.set': 'tech',
  'sale.open': 'sell',
  'sale.current': 'sell',
  'sale.get': 'sell',
  'sale.setTip': 'sell',
  'sale.pay': 'sell',
  'sale.cancel': 'sell',
  // When the ticket holds an approved tender (sale-engine.ts `abandon`).
  'sale.abandon': ['sell', 'manager-if'],
  'sale.live': 'sell',
  'sale.settings': 'signed-in',
  'sale.settings.set': 'manage',
  'sale.signature': 'sell',
  'gift.balance': 'sell',
  // Outside a ticket (the load is then paid from the drawer by hand).
  'gift.reload': ['sell', 'manager-if'],
  'ebt.balance': 'sell',
  'cardWait.cancel': 'sell',
  // A tip above the lane's share of the hold (sale/tip-bound.ts).
  'preauth.complete': ['sell', 'manager-if'],
  'receipt.get': 'sell',
  'receipt.print': 'sell',
  'receipt.reprintLast': 'sell',
  'receipt.transaction.get': 'sell',
  'receipt.transaction.print': 'sell',
  'transactions.list': 'sell',
  // rule: who-may-refund
  'transactions.refund': ['sell', 'manager'],
  // rule: who-may-void
  // (A settled payment's void is refused before the PIN is asked: handlers/transactions.ts.)
  'transactions.void': ['sell', 'manager'],
  // A cashier returns from a receipt; a return without one asks for the manager inside the handler.
  'returns.find': 'sell',
  'returns.sale': 'sell',
  'returns.quote': 'sell',
  'returns.create': 'sell',
  'returns.createWithoutReceipt': ['sell', 'manager'],
  'returns.retry': 'sell',
  'returns.get': 'sell',
  'returns.receipt.get': 'sell',
  'returns.receipt.print': 'sell',
  'returns.settings.get': 'sell',
  'returns.settings.set': 'manage',
  'batch.totals': 'sell',
  'batch.reconcile': 'manage',
  'batch.resolveOrphan': ['sell', 'manager'],
  'batch.settle': ['sell', 'manager'],
  'batch.lastSettlements': 'manage',
  'batch.autoClose.get': 'manage',
  'batch.autoClose.set': ['sell', 'manager'],
  'batch.autoClose.remove': ['sell', 'manager'],
  // The drawer is the cashier's: open, move cash, hand over, count blind. A cash refund and a sign-off
  // ask for the manager's PIN inside the handler; reports (which show expected cash) and the day's close
  // are a manager's.
  'till.status': 'sell',
  'till.open': 'sell',
  'till.move': 'sell',
  'till.refund': ['sell', 'manager'],
  'till.handOver': 'sell',
  'till.count': 'sell',
  'till.signOff': ['sell', 'manager'],
  'till.movements': 'sell',
  'till.list': 'sell',
  'till.report': 'manage',
  'till.print': 'manage',
  'till.closeDay': 'manage',
  'till.zList': 'manage',
  'till.settings.get': 'sell',
  'till.settings.set': 'manage',
  'reports.transactions': 'manage',
  'reports.figures': 'manage',
  'business.get': 'signed-in',
  'business.update': 'manage',
  'fraud.get': 'manage',
  'fraud.set': 'manage',
  'paymentLinks.list': 'manage',
  'paymentLinks.create': 'manage',
  'paymentLinks.disable': 'manage',
  'saf.get': 'signed-in',
  'saf.setPolicy': ['sell', 'manager'],
  'saf.forwardNow': 'signed-in',
  'reversals.get': 'signed-in',
  'reversals.retryNow': 'signed-in',
  'gateway.get': 'tech',
  'gateway.update': 'tech',
  'gateway.test': 'signed-in',
  'devices.list': 'signed-in',
  'devices.discover': 'tech',
  'devices.config.get': 'tech',
  'devices.config.set': 'tech',
  'devices.reconnect': 'tech',
  'devices.test': 'tech',
  'devices.recorder.get': 'tech',
  'devices.recorder.set': 'tech',
  'employees.list': 'manage',
  'employees.add': ['manage', 'manager-pin'],
  // A change of role (employees.ts).
  'employees.update': ['manage', 'manager-pin-if'],
  'employees.resetPin': ['manage', 'manager-pin'],
  'employees.setActive': ['manage', 'manager-pin'],
  'employees.clockOut': 'manage',
  'employees.setTimeClock': 'manage',
  // The cashier's ticket reads the catalog; the manager keeps it (docs/catalog.md).
  'catalog.taxClasses.list': 'sell',
  'catalog.taxClasses.save': 'manage',
  'catalog.taxClasses.delete': 'manage',
  'catalog.categories.list': 'sell',
  'catalog.categories.save': 'manage',
  'catalog.categories.delete': 'manage',
  'catalog.items.list': 'manage',
  'catalog.items.get': 'sell',
  'catalog.items.save': 'manage',
  'catalog.items.setActive': 'manage',
  'catalog.items.delete': 'manage',
  'catalog.lookup': 'sell',
  'catalog.search': 'sell',
  'catalog.quickKeys': 'sell',
  'catalog.import.begin': 'manage',
  'catalog.import.append': 'manage',
  'catalog.import.commit': 'manage',
  'catalog.export': 'manage',
  // A discount above the limit or a changed price (sale/discount-approval-rules.ts).
  'ticket.open': 'sell',
  'ticket.addItem': ['sell', 'manager-if'],
  'ticket.addScan': ['sell', 'manager-if'],
  'ticket.addOpenItem': ['sell', 'manager-if'],
  'ticket.setQuantity': ['sell', 'manager-if'],
  'ticket.setPrice': ['sell', 'manager-if'],
  'ticket.setLineDiscount': ['sell', 'manager-if'],
  'ticket.setDiscount': ['sell', 'manager-if'],
  'ticket.voidLine': ['sell', 'manager-if'],
  'store.profile.get': 'signed-in',
  'store.profile.update': 'manage',
  'store.discountLimits.get': 'sell',
  'store.discountLimits.update': 'manage',
  // The locale also reaches every window through terminal.status (public: the sign-in screen speaks it).
  'store.locale.get': 'signed-in',
  'store.locale.update': 'manage',
  'audit.list': 'manage',
  'diagnostics.bundle': 'signed-in',
  'simulator.state': 'public',
  'simulator.swipe': 'public',
  'simulator.insert': 'public',
  'simulator.tap': 'public',
  'simulator.removeCard': 'public',
  'simulator.typePin': 'public',
  'simulator.cancelOnPad': 'public',
  'simulator.sign': 'public',
  'simulator.setPaper': 'public',
  'simulator.setCoverOpen': 'public',
  'simulator.unplug': 'public',
  'simulator.replug': 'public',
  'simulator.scan': 'public',
  // Any signed-in screen may take a wedge scan: the cashier's sale, the tech's device test.
  'scanner.wedgeScan': 'signed-in',
  // Only a sale screen rings a scan.
  'scanner.claim': 'sell',
  'scanner.wedgeSettings': 'signed-in',
  // The receipt screen's email field is the cashier's; the mail server and its queue are the manager's.
  'email.receipt': 'sell',
  'email.settings.get': 'manage',
  'email.settings.set': 'manage',
  'email.test': 'manage',
  'email.queue.get': 'manage',
  'email.queue.retry': 'manage',
  // The customer display's own commands (its connection kind, not a role, admits it).
  'customer.view': 'customer',
  'customer.tip': 'customer',
  'customer.signature': 'customer',
  'customer.receipt': 'customer',
  // The cashier's side of the customer display.
  'customerDisplay.get': 'sell',
  'customerDisplay.launch': 'sell',
  'customerDisplay.askTip': 'sell',
  'customerDisplay.endTipAsk': 'sell',
} as const satisfies Record<CommandName, AccessRow>;

/** Who may call each command (the dispatcher's check). */
export const commandAccess: Record<CommandName, Access> = Object.fromEntries(
  Object.entries(accessTable).map(([name, row]) => [name, typeof row === 'string' ? row : row[0]]),
) as Record<CommandName, Access>;

/** The commands whose row asks for a manager's approval. */
export type ApprovalCommand = {
  [K in CommandName]: (typeof accessTable)[K] extends readonly [Access, Approval] ? K : never;
}[CommandName];

/** The approval `command`'s row asks for. */
export function approvalFor(command: ApprovalCommand): Approval {
  return (accessTable[command] as readonly [Access, Approval])[1];
}
