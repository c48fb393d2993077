import { describe, expect, it } from 'vitest';
import type { JournalRow, ReversalRow } from '../../../electron/journal/journal-store';
import { reconcile, type OpenBatchEntry } from '../../../electron/batch/reconciliation';

function row(
  utn: string,
  state: JournalRow['state'],
  cents: number,
  extra: Partial<JournalRow> = {},
): JournalRow {
  return {
    utn,
    seq: 1,
    laneId: 'L1',
    ticketId: null,
    tenderId: null,
    operation: 'sale',
    state,
    amountCents: cents,
    tipCents: 0,
    cashBackCents: 0,
    taxCents: 0,
    approvedCents: state === 'approved' ? cents : 0,
    refundedCents: 0,
    last4: '1111',
    cardType: 'Visa',
    entryMode: 'keyed',
    authCode: null,
    srn: null,
    originalSrn: null,
    gatewayCode: null,
    message: null,
    cardDecision: null,
    scriptResults: null,
    employeeId: null,
    approvedById: null,
    createdAt: 0,
    updatedAt: 0,
    ...extra,
  };
}

/** A payment of the gateway's open batch (GetUnsettledTransactions): its base amount. */
function open(utn: string, cents: number): [string, OpenBatchEntry] {
  return [utn, { utn, serviceReferenceNumber: `S-${utn}`, amountCents: cents }];
}

describe("reconciliation rules (the journal against the gateway's open batch)", () => {
  const base = {
    reversals: [] as ReversalRow[],
    safQueued: 0,
    now: 1,
    isOurs: (utn: string) => utn.length === 1,
  };

  it('matches agreeing rows and can close', () => {
    const v = reconcile({
      ...base,
      journal: [row('a', 'approved', 500), row('b', 'reversed', 100), row('c', 'declined', 100)],
      openBatch: new Map([open('a', 500)]),
    });
    expect(v.rows.map((r) => r.verdict)).toEqual(['match', 'match', 'local-only']);
    expect(v.canClose).toBe(true);
  });

  it('an approval the journal does not hold is an orphan and blocks the close; a pending reversal blocks it too', () => {
    const v = reconcile({
      ...base,
      journal: [row('a', 'failed', 500), row('b', 'unknown', 100)],
      openBatch: new Map([open('a', 500), open('b', 100), open('z', 900), open('other-lane-9', 100)]),
    });
    expect(v.rows.map((r) => [r.userTransactionNumber, r.verdict])).toEqual([
      ['a', 'orphan'],
      ['b', 'pending-reversal'],
      ['z', 'orphan'],
    ]);
    expect(v.canClose).toBe(false);
    expect(v.blockers).toHaveLength(2);
  });

  it('flags base amounts that differ, approvals missing from the open batch and stored sales not yet forwarded', () => {
    const v = reconcile({
      ...base,
      safQueued: 1,
      journal: [
        row('a', 'approved', 500),
        row('t', 'approved', 650, { taxCents: 50, tipCents: 100 }),
        row('m', 'approved', 300),
        row('s', 'stored', 100),
      ],
      openBatch: new Map([open('a', 499), open('t', 500)]),
    });
    expect(v.rows.map((r) => r.verdict)).toEqual(['mismatch', 'match', 'mismatch', 'local-only']);
    expect(v.canClose).toBe(false);
  });
});
