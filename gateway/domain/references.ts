import { ResponseCode } from '../contract/response-codes';
import type { Queryable } from '../storage/queryable';
import { DomainError } from './outcome';
import type { PaymentRow } from './sale-response';

/**
 * The merchant's payment a ServiceTransactionNumber (or ServiceReferenceNumber) names, as the real
 * service's catalog answers it: another merchant's number is an unauthorized reference (5), an unknown one
 * is not found (31, or the operation's own code such as 50 for ClosePreauth). Nothing of another
 * merchant's payment is read beyond its owner; the number itself is the gateway's random id.
 */
export async function paymentByReference(
  q: Queryable,
  mid: number,
  srn: string,
  notFound: { code: number; message: string } = {
    code: ResponseCode.ServiceTransactionNumberNotFound,
    message: 'ServiceTransactionNumber not found',
  },
): Promise<PaymentRow> {
  const row = await q.first(q.qb.selectFrom('payments').selectAll().where('srn', '=', srn));
  if (!row) throw new DomainError(notFound.code, [notFound.message]);
  if (row.mid !== mid) {
    throw new DomainError(ResponseCode.UnauthorizedReference, [
      'This reference number is not a transaction of this merchant',
    ]);
  }
  return row;
}
