import { detectBrand } from '../../native/protocols/card-brand';
import { ResponseCode } from '../contract/response-codes';
import { merchantSettings } from './business-settings';
import { isExpired } from './card-input';
import { saveCustomer } from './customers';
import { frequencyById } from './frequency';
import { DomainError, success } from './outcome';
import { billingRecord, insertBilling, merchantToday } from './recurring-billing';
import { loadBilling } from './recurring-billing-changes';
import type { RequestScope } from './request-scope';
import { storeCard } from './vault';
import type { Queryable } from '../storage/queryable';

/**
 * Creating a recurring billing (the interface's RecurringBilling/Create): where its card comes from, the
 * merchant's surcharge and card-difference settings, its customer, and the schedule's first date.
 */

/** The billing's optional text fields as sent (a missing or empty field is absent). */
export const BILLING_DETAIL_FIELDS = [
  'CardHolderName',
  'Street',
  'City',
  'State',
  'ZipCode',
  'CustomerZipCode',
  'FirstName',
  'LastName',
  'Email',
  'Phone',
  'CustomerId',
  'Description',
] as const;

export type BillingDetails = Partial<Record<(typeof BILLING_DETAIL_FIELDS)[number], string>>;

export type CardSource =
  | { kind: 'account'; pan: string; expiryYYMM: string }
  | { kind: 'cardTokenId'; id: number }
  | { kind: 'token'; token: string }
  | { kind: 'transaction'; srn: string };

export type CreateCommand = {
  amountCents: number;
  frequencyId: number;
  isInstallment: boolean;
  installmentTotal: number;
  start: string;
  end: string | null;
  taxBp: number;
  surchargeBp: number;
  cardDifferenceBp: number;
  card: CardSource;
  selectedCustomerId: number | undefined;
  details: BillingDetails;
};

/** The vault row a billing charges; never another merchant's, never an inactive one. */
async function vaultRowFor(tx: Queryable, scope: RequestScope, source: CardSource, details: BillingDetails) {
  const mid = scope.principal.mid;
  const select = tx.qb
    .selectFrom('vault_tokens')
    .select(['id', 'card_type', 'last4', 'exp_mmyy', 'holder_name'])
    .where('mid', '=', mid)
    .where('active', '=', 1);
  if (source.kind === 'cardTokenId') {
    const row = await tx.first(select.where('id', '=', source.id));
    if (!row)
      throw new DomainError(ResponseCode.NotFound, ['CardTokenId is not a stored card of this merchant']);
    return row;
  }
  if (source.kind === 'token') {
    const row = await tx.first(select.where('token', '=', source.token));
    if (!row) throw new DomainError(ResponseCode.NotFound, ['Token is not a stored card of this merchant']);
    return row;
  }
  if (source.kind === 'transaction') {
    const payment = await tx.first(
      tx.qb.selectFrom('payments').select('token_id').where('mid', '=', mid).where('srn', '=', source.srn),
    );
    if (!payment)
      throw new DomainError(ResponseCode.NotFound, ['TransactionId is not a transaction of this merchant']);
    if (payment.token_id === null)
      throw new DomainError(ResponseCode.CardDataMissing, [
        'That sale did not save its card (send SaveToken with the sale), so it cannot be billed again',
      ]);
    const row = await tx.first(select.where('id', '=', payment.token_id));
    if (!row) throw new DomainError(ResponseCode.NotFound, ['The card that sale saved is no longer active']);
    return row;
  }
  const stored = await storeCard(
    tx,
    scope.services.keys,
    { mid, userId: scope.principal.userId, processor: scope.services.processor.name },
    {
      pan: source.pan,
      expiryYYMM: source.expiryYYMM,
      cardType: detectBrand(source.pan),
      holderName: details.CardHolderName,
      street: details.Street,
      zip: details.ZipCode ?? details.CustomerZipCode,
      description: 'recurring billing',
    },
    scope.now.toISOString(),
  );
  const row = await tx.first(select.where('id', '=', stored.id));
  if (!row) throw new Error('stored card vanished');
  return row;
}

export async function createBilling(c: CreateCommand, scope: RequestScope) {
  const q = scope.services.storage.read;
  const mid = scope.principal.mid;
  const today = await merchantToday(q, mid, scope.now);
  if (c.start < today)
    throw new DomainError(ResponseCode.InvalidSchedule, [`StartDate must be today (${today}) or later`]);
  const settings = await merchantSettings(q, mid);
  const refused: string[] = [];
  if (c.surchargeBp > 0 && !settings.surchargeEnabled)
    refused.push('SurchargePercent is not allowed: surcharge is not enabled for this merchant');
  if (c.cardDifferenceBp > 0 && !settings.cardDifferenceEnabled)
    refused.push('CardDifferencePercent is not allowed: card difference is not enabled for this merchant');
  if (refused.length > 0) throw new DomainError(ResponseCode.InvalidRequest, refused);
  const frequency = frequencyById(c.frequencyId);
  if (!frequency) throw new DomainError(ResponseCode.InvalidFrequency, ['Unknown FrequencyId']);
  const b = c.details;
  const now = scope.now.toISOString();

  const id = await scope.services.storage.write(async (tx) => {
    const card = await vaultRowFor(tx, scope, c.card, c.details);
    const expiry = card.exp_mmyy.slice(2, 4) + card.exp_mmyy.slice(0, 2);
    if (card.exp_mmyy === '0000' || isExpired(expiry, scope.now))
      throw new DomainError(ResponseCode.InvalidExpiry, [
        'The stored card has no valid expiry: store it again with ExpDate',
      ]);
    let customerId: number | null = null;
    if (c.selectedCustomerId !== undefined) {
      const customer = await tx.first(
        tx.qb
          .selectFrom('customers')
          .select('id')
          .where('id', '=', c.selectedCustomerId)
          .where('mid', '=', mid),
      );
      if (!customer)
        throw new DomainError(ResponseCode.NotFound, [
          'SelectedCustomerId is not a customer of this merchant',
        ]);
      customerId = customer.id;
    } else if (b.FirstName || b.LastName || b.Email || b.CustomerId) {
      // The billing's customer becomes a customer record of the merchant (listed by /api/Customers).
      customerId = await saveCustomer(
        tx,
        mid,
        {
          customerRef: b.CustomerId,
          name: [b.FirstName, b.LastName].filter(Boolean).join(' ') || undefined,
          email: b.Email,
          phone: b.Phone,
          address: b.Street,
          city: b.City,
          state: b.State,
          zip: b.CustomerZipCode ?? b.ZipCode,
          source: 'Recurring',
        },
        now,
      );
    }
    return insertBilling(
      tx,
      {
        mid,
        userId: scope.principal.userId,
        cid: scope.principal.cid,
        customerId,
        vaultTokenId: card.id,
        cardType: card.card_type,
        last4: card.last4,
        amountCents: c.amountCents,
        taxBp: c.taxBp,
        surchargeBp: c.surchargeBp,
        cardDifferenceBp: c.cardDifferenceBp,
        frequency,
        isInstallment: c.isInstallment,
        installmentTotal: c.installmentTotal,
        startDate: c.start,
        endDate: c.end,
        description: b.Description ?? '',
        person: {
          firstName: b.FirstName ?? '',
          lastName: b.LastName ?? '',
          email: b.Email ?? '',
          phone: b.Phone ?? '',
          street: b.Street ?? '',
          city: b.City ?? '',
          state: b.State ?? '',
          zip: b.ZipCode ?? b.CustomerZipCode ?? '',
          customerRef: b.CustomerId ?? '',
        },
        paymentLinkId: null,
      },
      now,
    );
  });
  const row = await loadBilling(scope.services.storage.read, mid, id);
  return { ...success(['Recurring billing created']), BillingId: id, Billing: billingRecord(row) };
}
