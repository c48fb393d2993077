import { describe, expect, it } from 'vitest';
import { DeclineCode } from '../../gateway/contract/decline-codes';
import { ResponseCode } from '../../gateway/contract/response-codes';
import {
  emptyModel,
  matches,
  outcomes,
  type CardBehaviour,
  type Model,
  type Observed,
  type Op,
} from './support/money-model';

/**
 * The checker's reference model speaks the real service's catalog (docs/response-codes.md): a decline is
 * ResponseCode 3 with its reason in DeclineCode, and a wrong reason is as wrong as a wrong code. These
 * pin the rules the checker's answers are judged by, without a gateway; the checker itself is
 * gateway-money.model.test.ts.
 */

/** The state after `ops`, each taking the answer the model allows first (all of these allow one). */
function after(ops: Op[], start: Model = emptyModel({ key: 'ebt', opening: 150_00 })): Model {
  let m = start;
  for (const op of ops) {
    const [first] = outcomes(m, op);
    if (!first) throw new Error(`the model allows no answer to ${op.t}`);
    m = first.next;
  }
  return m;
}

/** Whether some outcome the model allows for `op` in `m` is the answer `obs`. */
const allows = (m: Model, op: Op, obs: Observed): boolean => outcomes(m, op).some((o) => matches(o, obs));

const sale = (utn: string, base: number, card: CardBehaviour = 'approve'): Op => ({
  t: 'sale',
  utn,
  card,
  swiped: false,
  base,
  tax: 0,
  tip: 0,
});

describe('the reference model of the gateway checker', () => {
  it('expects a decline as ResponseCode 3 with its DeclineCode, and no DeclineCode on anything else', () => {
    const m = after([]);
    const wrongPin: Op = { t: 'debit', utn: 'd1', card: 'approve', base: 5_00, cashback: 0, wrongPin: true };
    expect(allows(m, wrongPin, { code: ResponseCode.Declined, decline: DeclineCode.IncorrectPin })).toBe(
      true,
    );
    expect(allows(m, wrongPin, { code: ResponseCode.Declined, decline: DeclineCode.Declined })).toBe(false);
    expect(allows(m, wrongPin, { code: ResponseCode.Declined })).toBe(false);
    const declineCard = sale('s1', 1_00, 'decline');
    expect(allows(m, declineCard, { code: ResponseCode.Declined, decline: DeclineCode.Declined })).toBe(true);
    const approved: Observed = { code: ResponseCode.Success, charged: 1_00 };
    expect(allows(m, sale('s2', 1_00), approved)).toBe(true);
    expect(allows(m, sale('s2', 1_00), { ...approved, decline: DeclineCode.Declined })).toBe(false);
  });

  it('declines an empty stored-value purchase for insufficient funds', () => {
    const m = after([{ t: 'giftActivate', utn: 'g1', card: 'gift', amount: 0 }]);
    const spend: Op = { t: 'giftSale', utn: 'g2', card: 'gift', amount: 1_00 };
    expect(
      allows(m, spend, { code: ResponseCode.Declined, decline: DeclineCode.InsufficientFunds, balance: 0 }),
    ).toBe(true);
  });

  it('refunds what remains on DoFullRefund whatever Amount it was sent', () => {
    const m = after([sale('s1', 2_00), { t: 'refund', utn: 'r1', target: 's1', amount: 50 }]);
    const full: Op = { t: 'fullRefund', utn: 'r2', target: 's1', expected: 9_99 };
    expect(allows(m, full, { code: ResponseCode.Success, refunded: 1_50 })).toBe(true);
    expect(allows(m, full, { code: ResponseCode.RefundImpossible })).toBe(false);
    const more: Op = { t: 'refund', utn: 'r3', target: 's1', amount: 1_51 };
    expect(allows(m, more, { code: ResponseCode.RefundImpossible })).toBe(true);
  });

  it('refuses every impossible cancel with VoidImpossible, spent gift value included', () => {
    const spent = after([
      { t: 'giftActivate', utn: 'g1', card: 'gift', amount: 5_00 },
      { t: 'giftSale', utn: 'g2', card: 'gift', amount: 4_00 },
    ]);
    const voidActivation: Op = { t: 'void', utn: 'v1', target: 'g1' };
    expect(allows(spent, voidActivation, { code: ResponseCode.VoidImpossible })).toBe(true);
    expect(allows(spent, voidActivation, { code: ResponseCode.Success })).toBe(false);
    const voided = after([sale('s1', 1_00), { t: 'void', utn: 'v1', target: 's1' }]);
    expect(
      allows(voided, { t: 'void', utn: 'v2', target: 's1' }, { code: ResponseCode.VoidImpossible }),
    ).toBe(true);
    expect(allows(voided, { t: 'reverse', target: 'v1' }, { code: ResponseCode.VoidImpossible })).toBe(true);
  });

  it('tells a preauthorization whose completion stands from one whose completion was cancelled', () => {
    const closed = after([
      { t: 'preauth', utn: 'p1', card: 'approve', base: 10_00 },
      { t: 'close', utn: 'c1', target: 'p1', amount: 10_00, tip: 0 },
      { t: 'book', utn: 'c1' },
    ]);
    const again: Op = { t: 'close', utn: 'c2', target: 'p1', amount: 5_00, tip: 0 };
    expect(allows(closed, again, { code: ResponseCode.PreauthCompletedBefore })).toBe(true);
    const released = after([{ t: 'void', utn: 'v1', target: 'c1' }], closed);
    expect(allows(released, again, { code: ResponseCode.PreauthNotClosable })).toBe(true);
    expect(allows(released, again, { code: ResponseCode.PreauthCompletedBefore })).toBe(false);
  });
});
