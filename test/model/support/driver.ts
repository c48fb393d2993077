import { track2, pinBlock } from '../../support/cards';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import type { Json } from '../../support/gateway-harness';
import type { Cents, Observed, Op } from './money-model';
import type { CardChoice } from './operations';

/** The sandbox test cards of gateway/sandbox/test-cards.ts, by the role the checker gives them. */
const PANS: Record<CardChoice, string> = {
  visa: '4111111111111111',
  mastercard: '5555555555554444',
  amex: '378282246310005',
  discover: '6011111111111117',
  partial: '4000000000000341',
  decline: '4000000000000002',
  slow: '4000000000000119',
};

/** The sandbox EBT account the checker spends (docs/gateway-tenders.md). */
export const EBT_PAN = '5077010000000014';
const ROUTING = '021000021';

export type Envelope = {
  AppKey: string;
  AppType: number;
  mid: number;
  cid: number;
  UserName: string;
  Password: string;
};

export class GatewayError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GatewayError';
  }
}

/** POSTs JSON to one of the gateway processes over loopback and returns the parsed answer. */
export async function post(
  urls: readonly string[],
  via: number,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Json> {
  const url = urls[via % urls.length] as string;
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new GatewayError(`${path} answered HTTP ${res.status} with a body that is not JSON`);
  }
  if (res.status !== 200 || typeof parsed !== 'object' || parsed === null) {
    throw new GatewayError(`${path} answered HTTP ${res.status}: ${text.slice(0, 300)}`);
  }
  return parsed as Json;
}

/** The run's own names for what the model keys by reference. */
export type Names = {
  envelope: Envelope;
  urls: readonly string[];
  giftPan(key: string): string;
  srn(utn: string): string | undefined;
  checkId(ref: string): string | undefined;
  /** A check number of this run (the duplicate-check rule refuses a repeat). */
  checkNumber(): string;
};

/** What the checker keeps from an answer besides what the model predicts. */
export type Answer = { observed: Observed; srn?: string; checkId?: string; batchNumber?: string };

const cents = (v: unknown): Cents | undefined => (typeof v === 'number' ? Math.round(v * 100) : undefined);

/** "1,234.50" (the en-US text of Balance) or a number. */
export function centsOfText(v: unknown): Cents | undefined {
  if (typeof v === 'number') return Math.round(v * 100);
  if (typeof v !== 'string' || !/^-?[\d,]+\.\d{2}$/.test(v)) return undefined;
  const negative = v.startsWith('-');
  const [whole = '0', frac = '0'] = v.replace(/[-,]/g, '').split('.');
  const abs = Number(whole) * 100 + Number(frac);
  return negative ? -abs : abs;
}

const code = (a: Json): number => {
  if (typeof a.ResponseCode !== 'number')
    throw new GatewayError(`an answer without ResponseCode: ${JSON.stringify(a).slice(0, 200)}`);
  return a.ResponseCode;
};

/** The answer's ResponseCode and, for a decline (3), its DeclineCode: what the model compares. */
const verdict = (a: Json): Observed => {
  const c = code(a);
  if (a.DeclineCode === undefined) return { code: c };
  if (typeof a.DeclineCode !== 'number')
    throw new GatewayError(`a DeclineCode that is not a number: ${JSON.stringify(a.DeclineCode)}`);
  return { code: c, decline: a.DeclineCode };
};

/** An approved payment's total: every part, cash back included. */
function chargedOf(a: Json): Cents | undefined {
  const c = code(a);
  if (c !== ResponseCode.Success && c !== ResponseCode.PartialApproval) return undefined;
  return (
    (cents(a.Amount) ?? 0) +
    (cents(a.TaxAmount) ?? 0) +
    (cents(a.TipAmount) ?? 0) +
    (cents(a.CashBackAmount) ?? 0)
  );
}

const amount = (c: Cents) => c / 100;

function paymentAnswer(a: Json, extra: Partial<Observed> = {}): Answer {
  const srn =
    typeof a.ServiceReferenceNumber === 'string' && a.ServiceReferenceNumber
      ? a.ServiceReferenceNumber
      : undefined;
  const charged = chargedOf(a);
  return {
    observed: { ...verdict(a), ...(charged !== undefined ? { charged } : {}), ...extra },
    ...(srn ? { srn } : {}),
  };
}

const balanceOfAnswer = (a: Json, field = 'Balance'): Partial<Observed> => {
  const b = centsOfText(a[field]);
  return b === undefined ? {} : { balance: b };
};

/** Sends one operation to the gateway process `via` and reads its answer. */
export async function send(op: Op, card: CardChoice | undefined, via: number, n: Names): Promise<Answer> {
  const env = n.envelope;
  const to = (path: string, body: Json) => post(n.urls, via, path, { ...env, ...body });
  const pan = card ? PANS[card] : PANS.visa;
  const keyed = { CardNumber: pan, ExpDate: '1230', CVN: card === 'amex' ? '1234' : '123' };
  const targetSrn = (utn: string) => {
    const srn = n.srn(utn);
    if (!srn) throw new GatewayError(`no ServiceReferenceNumber known for ${utn}`);
    return srn;
  };
  switch (op.t) {
    case 'sale':
    case 'reuse': {
      const body: Json =
        op.t === 'sale'
          ? {
              Amount: amount(op.base),
              ...(op.tax ? { TaxAmount: amount(op.tax) } : {}),
              ...(op.tip ? { TipAmount: amount(op.tip) } : {}),
              ...(op.swiped ? { Track2: track2(pan) } : keyed),
            }
          : { Amount: 1, ...keyed };
      return paymentAnswer(
        await to('/api/Transactions/Sale', {
          TransactionType: 1,
          UserTransactionNumber: op.utn,
          ForceDuplication: true,
          ...body,
        }),
      );
    }
    case 'debit':
      return paymentAnswer(
        await to('/api/Transactions/SaleDebit', {
          Amount: amount(op.base),
          ...(op.cashback ? { CashBackAmount: amount(op.cashback) } : {}),
          TransactionType: 5,
          UserTransactionNumber: op.utn,
          ForceDuplication: true,
          Track2: track2(pan),
          ...pinBlock(pan, op.wrongPin ? '9876' : '1234'),
        }),
      );
    case 'preauth':
      return paymentAnswer(
        await to('/api/Transactions/PreAuthorization', {
          Amount: amount(op.base),
          TransactionType: 3,
          UserTransactionNumber: op.utn,
          ForceDuplication: true,
          ...keyed,
        }),
      );
    case 'close':
      return paymentAnswer(
        await to('/api/Transactions/ClosePreauth', {
          Amount: amount(op.amount),
          ...(op.tip ? { AdditionalTip: amount(op.tip) } : {}),
          ServiceReferenceNumber: targetSrn(op.target),
          UserTransactionNumber: op.utn,
        }),
      );
    case 'refund':
      return paymentAnswer(
        await to('/api/Transactions/DoRefund', {
          ServiceTransactionNumber: targetSrn(op.target),
          Amount: amount(op.amount),
          UserTransactionNumber: op.utn,
        }),
      );
    case 'fullRefund': {
      const a = await to('/api/Transactions/DoFullRefund', {
        ServiceTransactionNumber: targetSrn(op.target),
        UserTransactionNumber: op.utn,
        ...(op.expected !== null ? { Amount: amount(op.expected) } : {}),
      });
      const refunded = code(a) === ResponseCode.Success ? cents(a.RefundedAmount) : undefined;
      const srn = typeof a.ServiceReferenceNumber === 'string' ? a.ServiceReferenceNumber : undefined;
      return {
        observed: { ...verdict(a), ...(refunded !== undefined ? { refunded } : {}) },
        ...(srn ? { srn } : {}),
      };
    }
    case 'void':
      return {
        observed: verdict(
          await to('/api/Transactions/DoVoid', {
            ServiceTransactionNumber: targetSrn(op.target),
            UserTransactionNumber: op.utn,
          }),
        ),
      };
    case 'reverse':
      return {
        observed: verdict(await to('/api/Transactions/DoReversal', { UserTransactionNumber: op.target })),
      };
    case 'settle': {
      const a = await to('/api/Transactions/DoSettlement', {});
      const batches = Array.isArray(a.Batches) ? (a.Batches as Json[]) : [];
      const batchNumber = typeof batches[0]?.BatchNumber === 'string' ? batches[0].BatchNumber : undefined;
      return {
        observed: { ...verdict(a), settled: cents(a.AmountSettled) ?? -1 },
        ...(batchNumber ? { batchNumber } : {}),
      };
    }
    case 'giftActivate': {
      const a = await to('/api/GiftCard/Activate', {
        CardNumber: n.giftPan(op.card),
        UserTransactionNumber: op.utn,
        Amount: amount(op.amount),
        ForceDuplication: true,
      });
      return paymentAnswer(a, balanceOfAnswer(a));
    }
    case 'giftReload':
    case 'giftSale':
    case 'giftReturn': {
      const path = { giftReload: 'Reload', giftSale: 'Sale', giftReturn: 'Refund' }[op.t];
      const a = await to(`/api/GiftCard/${path}`, {
        CardNumber: n.giftPan(op.card),
        TransactionType: 7,
        UserTransactionNumber: op.utn,
        Amount: amount(op.amount),
        ForceDuplication: true,
      });
      return paymentAnswer(a, balanceOfAnswer(a));
    }
    case 'giftBalance': {
      const a = await to('/api/GiftCard/GetBalance', { CardNumber: n.giftPan(op.card) });
      return { observed: { ...verdict(a), ...balanceOfAnswer(a) } };
    }
    case 'ebtSale':
    case 'ebtReturn': {
      const path = op.t === 'ebtSale' ? 'EbtFoodStampSale' : 'EbtFoodStampReturn';
      const wrongPin = op.t === 'ebtSale' && op.wrongPin;
      const a = await to(`/api/EbtTransaction/${path}`, {
        CardNumber: EBT_PAN,
        TransactionType: 6,
        UserTransactionNumber: op.utn,
        Amount: amount(op.amount),
        ForceDuplication: true,
        ...pinBlock(EBT_PAN, wrongPin ? '9876' : '1234'),
      });
      return paymentAnswer(a, balanceOfAnswer(a, 'FoodStampBalance'));
    }
    case 'ebtBalance': {
      const a = await to('/api/EbtTransaction/EbtFoodStampBalance', {
        CardNumber: EBT_PAN,
        ...pinBlock(EBT_PAN),
      });
      return { observed: { ...verdict(a), ...balanceOfAnswer(a, 'FoodStampBalance') } };
    }
    case 'check': {
      const a = await to('/api/CheckProcessor/ProcessCheck', {
        PacketIdentifier: 'A',
        ROUTING_NUMBER: ROUTING,
        ACCOUNT_NUMBER: '987650123456',
        ACCOUNT_TYPE: 'CHECKING',
        CHECK_AMOUNT: amount(op.amount).toFixed(2),
        CHECK_NUMBER: n.checkNumber(),
        FIRST_NAME: 'Ada',
        LAST_NAME: 'Lovelace',
        Method: 0,
      });
      const info = a.TransactionInfo as { ServiceTransactionNumber?: unknown } | undefined;
      const id =
        typeof info?.ServiceTransactionNumber === 'string' ? info.ServiceTransactionNumber : undefined;
      return { observed: verdict(a), ...(id ? { checkId: id } : {}) };
    }
    case 'book':
      throw new GatewayError('a booking is the second half of a refund or completion, never sent');
    case 'checkVoid': {
      const id = n.checkId(op.ref);
      if (!id) throw new GatewayError(`no check id known for ${op.ref}`);
      const a = await to('/api/CheckProcessor/ProcessCheck', {
        PacketIdentifier: 'V',
        CheckTransactionId: Number(id),
      });
      return { observed: verdict(a) };
    }
  }
}
