import { Type, type Static } from 'typebox';
import { Int32, Money, Text, withEnvelope } from './common';
import { cardSaleProperties, CardSaleRequest, SaleResponse } from './card-sale';
import { endpoint } from './endpoint';

/** Activate: the card sale fields; Amount (the value to load) may be 0 or left out; TransactionType is 7 when sent. */
export const GiftActivateRequest = withEnvelope({
  ...cardSaleProperties,
  Amount: Type.Optional(Money('value to load on activation (0 or absent: none)')),
  TransactionType: Type.Optional(Int32({ description: 'GIFTCARD (7) when sent' })),
});
export type GiftActivateRequest = Static<typeof GiftActivateRequest>;

/** GetBalance and Deactivate move no money: only the card is needed. */
export const GiftInquiryRequest = withEnvelope({
  ...cardSaleProperties,
  Amount: Type.Optional(Money('ignored')),
  TransactionType: Type.Optional(Int32({ description: 'GIFTCARD (7) when sent' })),
  UserTransactionNumber: Type.Optional(Text(64, { description: 'ignored: nothing is charged' })),
});
export type GiftInquiryRequest = Static<typeof GiftInquiryRequest>;

const group = 'Gift Card';

export const giftCardEndpoints = {
  activate: endpoint({
    method: 'POST',
    path: '/api/GiftCard/Activate',
    group,
    summary: 'Activate (issue) a gift card, loading Amount when positive',
    auth: 'envelope',
    body: GiftActivateRequest,
    response: SaleResponse,
  }),
  deactivate: endpoint({
    method: 'POST',
    path: '/api/GiftCard/Deactivate',
    group,
    summary: 'Deactivate a gift card (it keeps its balance and refuses every operation until activated)',
    auth: 'envelope',
    body: GiftInquiryRequest,
    response: SaleResponse,
  }),
  getBalance: endpoint({
    method: 'POST',
    path: '/api/GiftCard/GetBalance',
    group,
    summary: 'Balance of a gift card (Balance in the response)',
    auth: 'envelope',
    body: GiftInquiryRequest,
    response: SaleResponse,
  }),
  sale: endpoint({
    method: 'POST',
    path: '/api/GiftCard/Sale',
    group,
    summary:
      'Gift card sale (TransactionType 7); a short balance approves the balance (210), never below zero',
    auth: 'envelope',
    body: CardSaleRequest,
    response: SaleResponse,
    definedHere: true,
  }),
  reload: endpoint({
    method: 'POST',
    path: '/api/GiftCard/Reload',
    group,
    summary: 'Add value to an active gift card (TransactionType 7), up to the maximum balance',
    auth: 'envelope',
    body: CardSaleRequest,
    response: SaleResponse,
    definedHere: true,
  }),
  refund: endpoint({
    method: 'POST',
    path: '/api/GiftCard/Refund',
    group,
    summary: 'Credit a return to an active gift card (TransactionType 7)',
    auth: 'envelope',
    body: CardSaleRequest,
    response: SaleResponse,
    definedHere: true,
  }),
};
