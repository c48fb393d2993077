import { Type } from 'typebox';
import { baseResponseProperties } from '../../gateway/contract/common';

/**
 * Paths of the tender groups the gateway engineers are adding (gift card, EBT, check). They answer with
 * the sale response (gift, EBT) per the interface; the check response is the spec's check shape. These move
 * to the groups' contract files once those are committed (docs/terminal.md "Gateway client").
 */
export const tenderPaths = {
  giftSale: '/api/GiftCard/Sale',
  giftReload: '/api/GiftCard/Reload',
  giftBalance: '/api/GiftCard/GetBalance',
  ebtFoodSale: '/api/EbtTransaction/EbtFoodStampSale',
  ebtFoodBalance: '/api/EbtTransaction/EbtFoodStampBalance',
  ebtCashSale: '/api/EbtTransaction/EbtCashBenefitsSale',
  ebtCashBalance: '/api/EbtTransaction/EbtCashBenefitsBalance',
  processCheck: '/api/CheckProcessor/ProcessCheck',
} as const;

/** ProcessCheck's answer (spec "Check Processor"): the base fields plus the check's TransactionInfo. */
export const CheckResponse = Type.Object({
  ...baseResponseProperties,
  Token: Type.Optional(Type.String()),
  TransactionInfo: Type.Optional(
    Type.Object({
      AccountNumber: Type.Optional(Type.String()),
      CheckAmount: Type.Optional(Type.String()),
      CheckNumber: Type.Optional(Type.String()),
      RoutingNumber: Type.Optional(Type.String()),
      ServiceTransactionNumber: Type.Optional(Type.String()),
    }),
  ),
});
