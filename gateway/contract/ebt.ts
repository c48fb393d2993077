import { Type, type Static } from 'typebox';
import { Int32, Money, Text, withBase, withEnvelope } from './common';
import { cardSaleProperties, pinProperties, saleResponseProperties } from './card-sale';
import { DebitSaleRequest } from './transaction-endpoints';
import { endpoint } from './endpoint';

/** Balance inquiries: the debit sale fields without a charge (KSN and PinBlock still required). */
export const EbtBalanceRequest = withEnvelope({
  ...cardSaleProperties,
  ...pinProperties,
  Amount: Type.Optional(Money('ignored')),
  TransactionType: Type.Optional(Int32({ description: 'EBT (6) when sent' })),
  UserTransactionNumber: Type.Optional(Text(64, { description: 'ignored: nothing is charged' })),
});
export type EbtBalanceRequest = Static<typeof EbtBalanceRequest>;

/** The sale response plus both balances of the account after the operation. */
export const EbtResponse = withBase({
  ...saleResponseProperties,
  FoodStampBalance: Type.Optional(Type.String({ description: 'food (SNAP) balance after the operation' })),
  CashBenefitsBalance: Type.Optional(
    Type.String({ description: 'cash benefits balance after the operation' }),
  ),
});
export type EbtResponse = Static<typeof EbtResponse>;

const group = 'EBT Transactions';

export const ebtEndpoints = {
  cashBalance: endpoint({
    method: 'POST',
    path: '/api/EbtTransaction/EbtCashBenefitsBalance',
    group,
    summary: 'EBT cash benefits balance (PIN required)',
    auth: 'envelope',
    body: EbtBalanceRequest,
    response: EbtResponse,
  }),
  cashSale: endpoint({
    method: 'POST',
    path: '/api/EbtTransaction/EbtCashBenefitsSale',
    group,
    summary: 'EBT cash benefits sale (TransactionType 6, PIN), optional CashBackAmount',
    auth: 'envelope',
    body: DebitSaleRequest,
    response: EbtResponse,
  }),
  cashWithdrawal: endpoint({
    method: 'POST',
    path: '/api/EbtTransaction/EbtCashBenefitsWithdrawal',
    group,
    summary: 'EBT cash benefits withdrawal (TransactionType 6, PIN); all or nothing',
    auth: 'envelope',
    body: DebitSaleRequest,
    response: EbtResponse,
  }),
  foodBalance: endpoint({
    method: 'POST',
    path: '/api/EbtTransaction/EbtFoodStampBalance',
    group,
    summary: 'EBT food stamp (SNAP) balance (PIN required)',
    auth: 'envelope',
    body: EbtBalanceRequest,
    response: EbtResponse,
    definedHere: true,
  }),
  foodSale: endpoint({
    method: 'POST',
    path: '/api/EbtTransaction/EbtFoodStampSale',
    group,
    summary: 'EBT food stamp sale (TransactionType 6, PIN); no tax, tip or cash back',
    auth: 'envelope',
    body: DebitSaleRequest,
    response: EbtResponse,
    definedHere: true,
  }),
  foodReturn: endpoint({
    method: 'POST',
    path: '/api/EbtTransaction/EbtFoodStampReturn',
    group,
    summary: 'EBT food stamp return (TransactionType 6, PIN): credits the food balance',
    auth: 'envelope',
    body: DebitSaleRequest,
    response: EbtResponse,
    definedHere: true,
  }),
};
