import { Type, type Static } from 'typebox';
import type { CardBatchFigures, FigureLine, Tally, TillFigures, TillMovementKind } from '../money-figures';
import type { ReceiptLineView } from './receipts';
import { Cents, Limit, Text } from './schema-kit';
import { OptionalApproval } from './session';
import type { TransactionView } from './transactions';

/**
 * Tills (docs/terminal.md "Tills"): one cashier's drawer on this lane, from its counted float to its
 * blind count. One till is in the lane's drawer at a time; cash sales, cash back, cash refunds and the
 * movements below go into it. A handed-over till waits for its count (by a manager, in the office); a
 * count over or short beyond the store's tolerance waits for a manager's sign-off. The day closes (Z)
 * when every till of the day is closed.
 */

export type TillState = 'open' | 'handed-over' | 'counted' | 'closed';

/** A count's outcome: recorded when the till was counted, shown only after. */
export type TillCountView = {
  countedCents: number;
  /** What the till should have held when it was counted. */
  expectedCents: number;
  /** counted − expected: positive over, negative short. */
  overShortCents: number;
  countedBy: string;
  countedAt: number;
  /** Beyond the tolerance: a manager signs it off before the till closes. */
  needsSignOff: boolean;
  signedOffBy?: string;
  signedOffAt?: number;
  note?: string;
};

/**
 * A till as a cashier may see it: who opened it, its float, when it was in the drawer. Never its expected
 * cash before it was counted (the count is blind); after the count, the count's outcome.
 */
export type TillView = {
  tillId: number;
  state: TillState;
  /** Who opened it and answers for it (the session's identity as the core records it). */
  employee: string;
  floatCents: number;
  openedAt: number;
  /** When it left the drawer (handed over, or counted at the lane). */
  endedAt?: number;
  endedBy?: string;
  count?: TillCountView;
  /** The Z report that closed its day. */
  zNumber?: number;
};

export type TillMovementView = {
  id: number;
  tillId: number;
  kind: TillMovementKind;
  amountCents: number;
  reason?: string;
  employee: string;
  approvedBy?: string;
  /** A cash refund: the cash sale it gave money back on. */
  userTransactionNumber?: string;
  at: number;
};

export type TillSettingsView = {
  /** A count over or short by more than this (either way) needs a manager's sign-off. Default 5.00. */
  toleranceCents: number;
  /** What the open form offers as the float. Default 100.00. */
  defaultFloatCents: number;
};

export type TillStatusView = {
  /** The till in the lane's drawer: where cash goes now. Null: cash is refused until one is opened. */
  active: TillView | null;
  /** Tills out of the drawer and not yet closed: waiting for a count, or for a sign-off. */
  waiting: TillView[];
  settings: TillSettingsView;
};

/** What a drawer count says: pieces per denomination (common/cash-count.ts), or one total. */
export const CashCountSchema = Type.Union(
  [
    Type.Object({
      totalCents: Cents({ minimum: 0, problem: 'The total is zero or more cents.' }),
    }),
    Type.Object({
      denominations: Type.Record(
        Type.String(),
        Type.Integer({ minimum: 0, problem: 'Count pieces as whole numbers.' }),
        { problem: 'Count pieces per denomination.' },
      ),
    }),
  ],
  { problem: 'Count by denomination or give a total.' },
);
export type CashCount = Static<typeof CashCountSchema>;

const Reason = Type.String({
  minLength: 1,
  maxLength: 140,
  problem: 'Give a reason (at most 140 characters).',
});

export const TillOpenSchema = Type.Object({ float: CashCountSchema });

export const TillMoveSchema = Type.Object({
  kind: Type.Enum(['paid-in', 'paid-out', 'safe-drop', 'no-sale'], {
    problem: 'The movement is paid-in, paid-out, safe-drop or no-sale.',
  }),
  /** Required but for a "No sale" (which moves nothing). */
  amountCents: Type.Optional(
    Cents({ exclusiveMinimum: 0, problem: 'The amount must be a positive number of cents.' }),
  ),
  reason: Reason,
});
export type TillMove = Static<typeof TillMoveSchema>;

/** Cash back on a cash sale of this lane (the drawer pays it): a manager approves, as for a card refund. */
export const TillRefundSchema = Type.Object({
  userTransactionNumber: Text(64, 'userTransactionNumber'),
  /** Omit for what is left to refund. */
  amountCents: Type.Optional(
    Cents({ exclusiveMinimum: 0, problem: 'The refund amount must be a positive number of cents.' }),
  ),
  approval: OptionalApproval,
});

export const TillCountSchema = Type.Object({
  tillId: Type.Integer({ minimum: 1, problem: 'Choose a till.' }),
  count: CashCountSchema,
});

export const TillSignOffSchema = Type.Object({
  tillId: Type.Integer({ minimum: 1, problem: 'Choose a till.' }),
  note: Type.Optional(Type.String({ maxLength: 280, problem: 'The note is at most 280 characters.' })),
  approval: OptionalApproval,
});

/** Which report: a till's shift (X), the day so far (X), or a closed day (Z) by its number. */
export const TillReportScopeSchema = Type.Union(
  [
    Type.Object({ tillId: Type.Integer({ minimum: 1 }) }),
    Type.Object({ day: Type.Literal(true) }),
    Type.Object({ zNumber: Type.Integer({ minimum: 1 }) }),
  ],
  { problem: 'The report is { tillId }, { day: true } or { zNumber }.' },
);
export type TillReportScope = Static<typeof TillReportScopeSchema>;

export const TillSettingsUpdateSchema = Type.Object({
  toleranceCents: Type.Optional(Cents({ minimum: 0, problem: 'The tolerance is zero or more cents.' })),
  defaultFloatCents: Type.Optional(Cents({ minimum: 0, problem: 'The float is zero or more cents.' })),
});

export const ZListSchema = Type.Object({
  /** Keyset paging: the reports numbered below this one. */
  before: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Limit()),
});

export type TillRefundOutcome = { movement: TillMovementView; transaction: TransactionView };

/** One till in a report: its drawer's figures, and its count once counted. */
export type TillSummaryView = TillView & { figures: TillFigures; byTender: FigureLine[] };

/** Per employee, on the `employee` column every till event records. */
export type EmployeeFiguresView = {
  employee: string;
  /** Tills they opened (and answer for). */
  tills: number;
  /** Every tender taken while their tills were in the drawer. */
  sales: Tally;
  cashRefunds: Tally;
  paidIn: Tally;
  paidOut: Tally;
  safeDrops: Tally;
  noSales: number;
  /** Of their counted tills. */
  overShortCents: number;
};

export type TaxByClassView = {
  taxClass: string;
  /** Tickets paid in the period with tax of this class. */
  tickets: number;
  taxableCents: number;
  taxCents: number;
};

/**
 * A till report. X: a till's shift, or the day so far (nothing closes). Z: the day closed, numbered,
 * kept as it was closed for reprints. Its figures come from the journal by the money figures' one
 * definition (common/money-figures.ts): the card batch (what the gateway settles, cash never in it) and
 * the drawer (what the tills count) are reported side by side, never summed together.
 */
export type TillReportView = {
  kind: 'x' | 'z';
  scope: 'till' | 'day';
  zNumber?: number;
  tillId?: number;
  laneId: string;
  /** The period: the journal rows created in [from, until). */
  from: number;
  until: number;
  /** The store's time zone, in which every time of the report is read and printed. */
  timeZone: string;
  closedBy?: string;
  /** Every tender on one list (sales). */
  byTender: FigureLine[];
  sales: Tally;
  card: CardBatchFigures;
  /** Every till of the period together. */
  drawer: TillFigures;
  /** The counted tills: Σ counted, Σ expected when counted, Σ over/short. */
  counted: { tills: number; countedCents: number; expectedCents: number; overShortCents: number };
  /**
   * Every refund of the period (card refunds and cash refunds, of returns or not), and the returns of
   * sales (returns/) by the tender their money went back to: a void counts there, the card batch does not
   * see it. Absent from reports kept before returns existed.
   */
  returns: { card: Tally; cash: Tally; total?: Tally; byTender?: FigureLine[] };
  /** The journal holds no discounts yet: the section reads zero until tickets carry them. */
  discounts: { total: Tally; lines: FigureLine[] };
  taxByClass: TaxByClassView[];
  byEmployee: EmployeeFiguresView[];
  tills: TillSummaryView[];
  /** Sales taken while no till was in the drawer (cards only: cash is refused then). */
  outsideTills: Tally;
};

export type TillPrintResult =
  { printed: true } | { printed: false; reason: string; lines: ReceiptLineView[] };

export type ZSummaryView = {
  zNumber: number;
  from: number;
  until: number;
  closedBy: string;
  tills: number;
  salesCents: number;
  overShortCents: number;
};

export type DayCloseView = { report: TillReportView; print: TillPrintResult };
