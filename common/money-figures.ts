/**
 * The manager's money figures: one definition of each, used by the batch screen, the close dialog, the
 * settlement beside them and Reports, so they reconcile with the gateway's settlement to the cent.
 *
 * Two groups that never mix (a till report counts the drawer, the card batch counts the cards):
 *
 * - The card batch: what the gateway batches and settles. Its sales are what the cards were charged — the
 *   approved purchase (base + tax + tip, the amount approved, not the amount asked) plus debit cash back,
 *   because the gateway's settlement counts cash back as charged to the card; its refunds are the refunded
 *   amounts; its net (sales − refunds) is what the batch pays the merchant's bank. Every approved
 *   operation that is neither cash nor a check, a hold or a void joins the gateway's batch — a gift card
 *   load included, as the gateway settles it. Cash never enters it.
 * - The drawer: cash taken for sales (what was kept, change already given back), cash back handed out on
 *   debit purchases, and the cash sales leave in the drawer (taken − cash back). Checks go in the drawer
 *   too but are counted apart. A till (one cashier's drawer from its float to its count) adds what moved
 *   besides sales — the float, cash refunds, paid in, paid out, safe drops — and the cash it should hold
 *   (`tillFigures`); its count is judged against that (`overShortCents`).
 *
 * The inputs are journal rows (or rows grouped by a query: `count` rows with their amounts summed): every
 * figure is a sum, so a group counts as its rows would.
 */

export type FigureRow = {
  operation: string;
  state: string;
  /**
   * What the gateway approved for the purchase (base + tax + tip) — for a partial approval the approved
   * part, not what was asked; for a refund the refunded amount; for cash what the drawer kept.
   */
  approvedCents: number;
  /** Cash handed to the customer on a debit purchase, charged to the card beside the purchase. */
  cashBackCents: number;
  tipCents: number;
  cardType?: string | null | undefined;
  /** How many journal rows this line stands for (1 for a single row). */
  count?: number | undefined;
};

export type Tally = { count: number; cents: number };
export type FigureLine = { key: string; count: number; amountCents: number };

export type CardBatchFigures = {
  /** Charged to cards: approved purchases plus debit cash back. */
  sales: Tally;
  refunds: Tally;
  /** sales − refunds: what the batch settles to the bank. */
  netCents: number;
  /** The part of `sales` that was debit cash back (handed out from the drawer). */
  cashBackCents: number;
  /** The part of `sales` that was tips. */
  tipCents: number;
  byCardType: FigureLine[];
  byTender: FigureLine[];
  /** Card sales stored offline: they join the batch only once forwarded and approved. */
  storedOffline: Tally;
};

export type DrawerFigures = {
  /** Cash kept for sales (change already given back). */
  cashTaken: Tally;
  /** Debit cash back handed to customers from the drawer. */
  cashBackPaidCents: number;
  /** cashTaken − cashBackPaid: the cash sales left in the drawer (a till adds its float and movements). */
  expectedCashCents: number;
  checks: Tally;
};

export type MoneyFigures = { card: CardBatchFigures; drawer: DrawerFigures };

/** What each figure is called on every screen and report (one wording, so a manager can compare). */
export const FIGURE_LABELS = {
  cardSales: 'Card sales (charged to cards)',
  cardRefunds: 'Card refunds',
  cardNet: 'Card net (goes to the bank)',
  cardCashBack: 'Debit cash back in card sales',
  cardTips: 'Tips in card sales',
  storedOffline: 'Stored offline (not at the gateway yet)',
  cashTaken: 'Cash taken',
  cashBackPaid: 'Cash back paid out',
  expectedCash: 'Cash from sales (taken − cash back)',
  checks: 'Checks taken',
  float: 'Opening float',
  cashRefunds: 'Cash refunds',
  paidIn: 'Paid in',
  paidOut: 'Paid out',
  safeDrops: 'Safe drops',
  noSales: 'No sales (drawer opened)',
  expectedInDrawer: 'Expected in drawer',
  counted: 'Counted',
  overShort: 'Over (+) / short (−)',
  allSales: 'Sales, every tender',
} as const;

/** Approved operations that move no money at the gateway's batch, or none of the card batch's. */
const HOLD_OR_VOID = new Set(['preauth', 'void']);
/** A refund's row is the money given back; the original sale keeps counting as a sale. */
const SOLD = new Set(['approved', 'partial', 'refunded']);

const TENDER_NAMES: Readonly<Record<string, string>> = {
  sale: 'Credit',
  'preauth-complete': 'Credit (pre-authorized)',
  'token-sale': 'Card on file',
  debit: 'Debit',
  'ebt-food': 'EBT food',
  'ebt-cash': 'EBT cash',
  'gift-sale': 'Gift card',
  'gift-reload': 'Gift card load',
};

export function tenderName(operation: string): string {
  return TENDER_NAMES[operation] ?? operation;
}

function addLine(lines: Map<string, FigureLine>, key: string, count: number, cents: number): void {
  const l = lines.get(key) ?? { key, count: 0, amountCents: 0 };
  l.count += count;
  l.amountCents += cents;
  lines.set(key, l);
}

const byAmount = (a: FigureLine, b: FigureLine) =>
  b.amountCents - a.amountCents || a.key.localeCompare(b.key);

export function moneyFigures(rows: Iterable<FigureRow>): MoneyFigures {
  const sales: Tally = { count: 0, cents: 0 };
  const refunds: Tally = { count: 0, cents: 0 };
  const storedOffline: Tally = { count: 0, cents: 0 };
  const cashTaken: Tally = { count: 0, cents: 0 };
  const checks: Tally = { count: 0, cents: 0 };
  let cashBackCents = 0;
  let tipCents = 0;
  const byCardType = new Map<string, FigureLine>();
  const byTender = new Map<string, FigureLine>();
  for (const r of rows) {
    const n = r.count ?? 1;
    if (HOLD_OR_VOID.has(r.operation)) continue;
    if (r.operation === 'cash') {
      if (r.state !== 'approved') continue;
      cashTaken.count += n;
      cashTaken.cents += r.approvedCents;
      continue;
    }
    if (r.operation === 'check') {
      if (r.state !== 'approved') continue;
      checks.count += n;
      checks.cents += r.approvedCents;
      continue;
    }
    if (r.operation === 'refund') {
      if (r.state !== 'approved') continue;
      refunds.count += n;
      refunds.cents += r.approvedCents;
      continue;
    }
    const charged = r.approvedCents + r.cashBackCents;
    if (r.state === 'stored') {
      storedOffline.count += n;
      storedOffline.cents += charged;
      continue;
    }
    if (!SOLD.has(r.state)) continue;
    sales.count += n;
    sales.cents += charged;
    cashBackCents += r.cashBackCents;
    tipCents += r.tipCents;
    addLine(byCardType, r.cardType ?? 'Other', n, charged);
    addLine(byTender, tenderName(r.operation), n, charged);
  }
  return {
    card: {
      sales,
      refunds,
      netCents: sales.cents - refunds.cents,
      cashBackCents,
      tipCents,
      byCardType: [...byCardType.values()].sort(byAmount),
      byTender: [...byTender.values()].sort(byAmount),
      storedOffline,
    },
    drawer: {
      cashTaken,
      cashBackPaidCents: cashBackCents,
      expectedCashCents: cashTaken.cents - cashBackCents,
      checks,
    },
  };
}

/**
 * Sales by tender, every tender on one list: the card batch's lines (what each card was charged, debit
 * cash back included), cash as the drawer kept it, and checks. A gift card load is what a customer
 * bought (the gateway settles it as a card sale, so the card batch counts it), not how they paid: its
 * payment is already on the list under its own tender.
 */
export function tenderLines(f: MoneyFigures): FigureLine[] {
  const lines = f.card.byTender.filter((l) => l.key !== tenderName('gift-reload'));
  if (f.drawer.cashTaken.count > 0)
    lines.push({ key: 'Cash', count: f.drawer.cashTaken.count, amountCents: f.drawer.cashTaken.cents });
  if (f.drawer.checks.count > 0)
    lines.push({ key: 'Check', count: f.drawer.checks.count, amountCents: f.drawer.checks.cents });
  return lines.sort(byAmount);
}

// --- Tills: one cashier's drawer, from its float to its count

/**
 * What moves a till's cash besides sales, each recorded with who did it and why: the opening float, a cash
 * refund, paid in, paid out, a safe drop, and a "No sale" (the drawer opened, nothing moved).
 */
export const TILL_MOVEMENT_KINDS = [
  'float',
  'paid-in',
  'paid-out',
  'safe-drop',
  'refund',
  'no-sale',
] as const;
export type TillMovementKind = (typeof TILL_MOVEMENT_KINDS)[number];

/** Which way each movement moves the drawer's cash: in, out, or not at all. */
export const MOVEMENT_DIRECTION: Readonly<Record<TillMovementKind, 1 | -1 | 0>> = {
  float: 1,
  'paid-in': 1,
  'paid-out': -1,
  'safe-drop': -1,
  refund: -1,
  'no-sale': 0,
};

/** A till's movement (or a query's group of them: `count` movements with their amounts summed). */
export type MovementRow = { kind: TillMovementKind; amountCents: number; count?: number | undefined };

/** The drawer of a till — or of several (every figure is a sum, so a day's tills add up to the day). */
export type TillFigures = {
  float: Tally;
  /** Cash kept for sales, as the money figures' drawer counts it. */
  cashTaken: Tally;
  cashBackPaidCents: number;
  cashRefunds: Tally;
  paidIn: Tally;
  paidOut: Tally;
  safeDrops: Tally;
  /** How many times the drawer was opened with no sale. */
  noSales: number;
  /** In the drawer, counted apart from the cash. */
  checks: Tally;
  /** float + cash taken + paid in − cash back paid out − cash refunds − paid out − safe drops. */
  expectedCents: number;
};

/**
 * A till's figures: the sales half is the money figures' drawer over the till's journal rows (so the batch
 * screen, Reports and the till reports count cash one way), the rest its movements, each by its direction.
 */
export function tillFigures(sales: Iterable<FigureRow>, movements: Iterable<MovementRow>): TillFigures {
  const { drawer } = moneyFigures(sales);
  const tally = (): Tally => ({ count: 0, cents: 0 });
  const by: Record<TillMovementKind, Tally> = {
    float: tally(),
    'paid-in': tally(),
    'paid-out': tally(),
    'safe-drop': tally(),
    refund: tally(),
    'no-sale': tally(),
  };
  let moved = 0;
  for (const m of movements) {
    const t = by[m.kind];
    t.count += m.count ?? 1;
    t.cents += m.amountCents;
    moved += MOVEMENT_DIRECTION[m.kind] * m.amountCents;
  }
  return {
    float: by.float,
    cashTaken: drawer.cashTaken,
    cashBackPaidCents: drawer.cashBackPaidCents,
    cashRefunds: by.refund,
    paidIn: by['paid-in'],
    paidOut: by['paid-out'],
    safeDrops: by['safe-drop'],
    noSales: by['no-sale'].count,
    checks: drawer.checks,
    expectedCents: drawer.expectedCashCents + moved,
  };
}

/** What a count says about the drawer: positive over, negative short. */
export function overShortCents(countedCents: number, expectedCents: number): number {
  return countedCents - expectedCents;
}

// rule: till-over-short
/** A count over or short by more than the store's tolerance (either way) waits for a manager's sign-off. */
export function needsSignOff(overShort: number, toleranceCents: number): boolean {
  return Math.abs(overShort) > toleranceCents;
}
