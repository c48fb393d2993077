import {
  moneyFigures,
  tenderLines,
  tillFigures,
  type FigureLine,
  type FigureRow,
  type MovementRow,
  type Tally,
  type TillMovementKind,
} from '../../common/money-figures';
import type {
  EmployeeFiguresView,
  ReturnFiguresView,
  TaxByClassView,
  TillReportView,
  TillSummaryView,
  TillView,
} from '../../common/bridge/contract';

/**
 * The X and Z reports, assembled from the journal's reads by the money figures' one definition: a report
 * never sums money of its own, it hands rows to `moneyFigures` / `tillFigures` (common/money-figures.ts),
 * which is also what the batch screen and Reports read. Every figure is a sum, so the drawer of a day is
 * the till figures of all its tills' rows and movements together, and an employee's the same of theirs.
 *
 * It runs where the reads are consistent: inside the journal's thread, in one transaction (a Z is
 * computed and recorded in the same one).
 */

/** A till's movements grouped by kind and by who made them. */
export type MovementGroup = MovementRow & { employee: string; count: number };

/** Tax collected on the tickets paid in a period, by tax class. */
export type TaxGroup = { taxClass: string; tickets: number; taxableCents: number; taxCents: number };

/** What the report reads: synchronous, inside the journal's transaction. */
export type TillReportSource = {
  /** The journal's rows of `[since, until)` grouped as the money figures read them. */
  figureGroups(since: number, until?: number): FigureRow[];
  movementGroups(tillId: number): MovementGroup[];
  taxGroups(since: number, until: number): TaxGroup[];
  /** The returns' money given back in `[since, until)`, by tender (journal/return-store.ts). */
  returnFigures(since: number, until: number): ReturnFiguresView;
};

export type TillReportInput = {
  kind: 'x' | 'z';
  scope: 'till' | 'day';
  tills: readonly TillView[];
  from: number;
  until: number;
  laneId: string;
  timeZone: string;
  zNumber?: number;
  tillId?: number;
  closedBy?: string;
};

const tally = (): Tally => ({ count: 0, cents: 0 });
const add = (t: Tally, count: number, cents: number) => {
  t.count += count;
  t.cents += cents;
};
const total = (lines: readonly FigureLine[]): Tally =>
  lines.reduce((t, l) => ({ count: t.count + l.count, cents: t.cents + l.amountCents }), tally());

/** The journal rows of a till: those created while it was in the drawer (until now when it still is). */
function tillSpan(t: TillView, until: number): [number, number] {
  return [t.openedAt, t.endedAt ?? until];
}

/** The gaps of `[from, until)` that no till covered (their spans never overlap: one till at a time). */
function gaps(from: number, until: number, tills: readonly TillView[]): [number, number][] {
  const spans = tills.map((t) => tillSpan(t, until)).sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  let at = from;
  for (const [a, b] of spans) {
    if (a > at) out.push([at, Math.min(a, until)]);
    at = Math.max(at, b);
  }
  if (at < until) out.push([at, until]);
  return out.filter(([a, b]) => b > a);
}

function employeeLine(employee: string): EmployeeFiguresView {
  return {
    employee,
    tills: 0,
    sales: tally(),
    cashRefunds: tally(),
    paidIn: tally(),
    paidOut: tally(),
    safeDrops: tally(),
    noSales: 0,
    overShortCents: 0,
  };
}

const BY_EMPLOYEE: Partial<
  Record<
    TillMovementKind,
    keyof Pick<EmployeeFiguresView, 'cashRefunds' | 'paidIn' | 'paidOut' | 'safeDrops'>
  >
> = { refund: 'cashRefunds', 'paid-in': 'paidIn', 'paid-out': 'paidOut', 'safe-drop': 'safeDrops' };

/** The discounts tickets carry, by kind. None yet: the journal's tickets hold no discounts. */
function discountLines(): FigureLine[] {
  return [];
}

export function buildTillReport(source: TillReportSource, input: TillReportInput): TillReportView {
  const { from, until } = input;
  const period = moneyFigures(source.figureGroups(from, until));
  const byTender = tenderLines(period);

  const allRows: FigureRow[] = [];
  const allMoves: MovementRow[] = [];
  const employees = new Map<string, EmployeeFiguresView>();
  const person = (e: string) => {
    let line = employees.get(e);
    if (!line) {
      line = employeeLine(e);
      employees.set(e, line);
    }
    return line;
  };
  const counted = { tills: 0, countedCents: 0, expectedCents: 0, overShortCents: 0 };
  const tills: TillSummaryView[] = input.tills.map((t) => {
    const rows = source.figureGroups(...tillSpan(t, until));
    const moves = source.movementGroups(t.tillId);
    allRows.push(...rows);
    allMoves.push(...moves);
    const lines = tenderLines(moneyFigures(rows));
    // Sales go to who answers for the till; each movement to who made it (its own `employee`).
    const owner = person(t.employee);
    owner.tills += 1;
    const sold = total(lines);
    add(owner.sales, sold.count, sold.cents);
    for (const m of moves) {
      const line = person(m.employee);
      const field = BY_EMPLOYEE[m.kind];
      if (field) add(line[field], m.count, m.amountCents);
      if (m.kind === 'no-sale') line.noSales += m.count;
    }
    if (t.count) {
      counted.tills += 1;
      counted.countedCents += t.count.countedCents;
      counted.expectedCents += t.count.expectedCents;
      counted.overShortCents += t.count.overShortCents;
      owner.overShortCents += t.count.overShortCents;
    }
    return { ...t, figures: tillFigures(rows, moves), byTender: lines };
  });

  const outsideTills = tally();
  if (input.scope === 'day')
    for (const [a, b] of gaps(from, until, input.tills)) {
      const t = total(tenderLines(moneyFigures(source.figureGroups(a, b))));
      add(outsideTills, t.count, t.cents);
    }

  const drawer = tillFigures(allRows, allMoves);
  const discounts = discountLines();
  const taxByClass: TaxByClassView[] = source.taxGroups(from, until);
  return {
    kind: input.kind,
    scope: input.scope,
    ...(input.zNumber !== undefined ? { zNumber: input.zNumber } : {}),
    ...(input.tillId !== undefined ? { tillId: input.tillId } : {}),
    ...(input.closedBy !== undefined ? { closedBy: input.closedBy } : {}),
    laneId: input.laneId,
    from,
    until,
    timeZone: input.timeZone,
    byTender,
    sales: total(byTender),
    card: period.card,
    drawer,
    counted,
    returns: { card: period.card.refunds, cash: drawer.cashRefunds, ...source.returnFigures(from, until) },
    discounts: { total: total(discounts), lines: discounts },
    taxByClass,
    byEmployee: [...employees.values()].sort((a, b) => a.employee.localeCompare(b.employee)),
    tills,
    outsideTills,
  };
}
