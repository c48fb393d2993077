import type { Selectable } from 'kysely';
import type { Queryable } from '../storage/queryable';
import type { CustomersTable } from '../storage/schema';

export type CustomerInput = {
  customerRef?: string | undefined;
  name?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
  address?: string | undefined;
  city?: string | undefined;
  state?: string | undefined;
  country?: string | undefined;
  zip?: string | undefined;
  invoice?: string | undefined;
  source?: string | undefined;
};

/** Splits "SURNAME/GIVEN" (track style) or "Given Surname". */
function splitName(name: string | undefined): { first: string; last: string } {
  if (!name) return { first: '', last: '' };
  if (name.includes('/')) {
    const [last = '', first = ''] = name.split('/');
    return { first: first.trim(), last: last.trim() };
  }
  const parts = name.trim().split(/\s+/);
  return {
    first: parts.slice(0, -1).join(' ') || (parts[0] ?? ''),
    last: parts.length > 1 ? (parts.at(-1) ?? '') : '',
  };
}

/** SaveCustomer: one customer record per request, returned as CustomerId. */
export async function saveCustomer(
  tx: Queryable,
  mid: number,
  c: CustomerInput,
  now: string,
): Promise<number> {
  const { first, last } = splitName(c.name);
  const row = await tx.first(
    tx.qb
      .insertInto('customers')
      .values({
        mid,
        customer_ref: c.customerRef ?? '',
        first_name: first,
        last_name: last,
        email: c.email ?? '',
        phone: c.phone ?? '',
        address: c.address ?? '',
        city: c.city ?? '',
        state: c.state ?? '',
        country: c.country ?? '',
        zip: c.zip ?? '',
        source: c.source ?? 'ApiClient',
        status: 1,
        invoice: c.invoice ?? '',
        po: '',
        added_on: now,
      })
      .returning('id'),
  );
  if (!row) throw new Error('customer insert returned no id');
  return row.id;
}

export type CustomerRow = Selectable<CustomersTable>;

/** The customers SaveCustomer (and recurring billings) created for one merchant, oldest first. */
export function merchantCustomerRows(q: Queryable, mid: number): Promise<CustomerRow[]> {
  return q.all(q.qb.selectFrom('customers').selectAll().where('mid', '=', mid).orderBy('id'));
}
