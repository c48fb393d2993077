import { describe, expect, it } from 'vitest';
import type { TransactionView } from '../../common/bridge/contract';
import { openHolds } from '../../renderer/src/screens/cashier/PreauthScreen';

function tx(
  over: Partial<TransactionView> & Pick<TransactionView, 'userTransactionNumber'>,
): TransactionView {
  return {
    operation: 'preauth',
    state: 'approved',
    amountCents: 2000,
    tipCents: 0,
    cashBackCents: 0,
    refundedCents: 0,
    createdAt: 0,
    updatedAt: 0,
    ...over,
  };
}

describe('open pre-authorizations', () => {
  it('a hold stays open until a completion that names it stands', () => {
    const rows = [
      tx({ userTransactionNumber: 'L1-1', serviceReferenceNumber: 'A' }),
      tx({ userTransactionNumber: 'L1-2', serviceReferenceNumber: 'B' }),
      tx({ userTransactionNumber: 'L1-3', serviceReferenceNumber: 'C' }),
      tx({
        userTransactionNumber: 'L1-4',
        operation: 'preauth-complete',
        serviceReferenceNumber: 'D',
        originalServiceReferenceNumber: 'A',
      }),
      // A declined completion leaves its hold open for another try.
      tx({
        userTransactionNumber: 'L1-5',
        operation: 'preauth-complete',
        state: 'declined',
        originalServiceReferenceNumber: 'B',
      }),
    ];
    expect(openHolds(rows).map((t) => t.userTransactionNumber)).toEqual(['L1-2', 'L1-3']);
  });

  it('declined, voided or unreferenced holds and other operations are not offered', () => {
    const rows = [
      tx({ userTransactionNumber: 'L1-1', serviceReferenceNumber: 'A', state: 'declined' }),
      tx({ userTransactionNumber: 'L1-2', serviceReferenceNumber: 'B', state: 'voided' }),
      tx({ userTransactionNumber: 'L1-3' }),
      tx({ userTransactionNumber: 'L1-4', serviceReferenceNumber: 'C', operation: 'sale' }),
    ];
    expect(openHolds(rows)).toEqual([]);
  });
});
