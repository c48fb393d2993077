import type { FastifyInstance } from 'fastify';
import { TransactionType } from '../contract/card-sale';
import { giftCardEndpoints as ep } from '../contract/gift-card';
import {
  activateGiftCard,
  deactivateGiftCard,
  giftCardBalance,
  giftMovement,
  type GiftMovement,
} from '../domain/gift-cards';
import type { Problems } from '../domain/problems';
import { flag, requiredText, text, transactionType } from '../http/checks';
import { implement, type Loose, type OperationContext } from '../http/operation';
import type { GatewayServices } from '../http/services';
import { currencyIsUsd, resolveStoredValueCard, tenderAmounts } from '../http/tender-checks';

const svcOf = (ctx: OperationContext) => ({ ...ctx.services, sandbox: ctx.services.config.sandbox });

/** TransactionType may be left out where nothing is charged; when sent it must be GIFTCARD (7). */
function optionalType(problems: Problems, body: Loose): void {
  if (body.TransactionType !== undefined)
    transactionType(problems, body, TransactionType.GIFTCARD, 'GIFTCARD');
}

function movement(operation: GiftMovement['operation'], allowExtras: boolean) {
  return {
    replayField: 'UserTransactionNumber',
    check(body: Loose, problems: Problems, ctx: OperationContext): GiftMovement | undefined {
      const amounts = tenderAmounts(problems, body, {
        allowed: allowExtras ? ['TaxAmount', 'TipAmount'] : [],
        amountRequired: true,
        ceilingCents: ctx.services.rules.amountCeilingCents,
      });
      transactionType(problems, body, TransactionType.GIFTCARD, 'GIFTCARD');
      const utn = requiredText(problems, body, 'UserTransactionNumber');
      currencyIsUsd(problems, body);
      const card = resolveStoredValueCard(body, problems);
      if (!card || !utn || !problems.empty) return undefined;
      return {
        operation,
        utn,
        amounts,
        card,
        forceDuplication: flag(body, 'ForceDuplication'),
        invoice: text(body, 'InvoiceNumber'),
        orderRef: text(body, 'OrderReference'),
      };
    },
    handle: (m: GiftMovement, ctx: OperationContext) => giftMovement(svcOf(ctx), ctx, m),
  };
}

export function registerGiftCardRoutes(app: FastifyInstance, services: GatewayServices): void {
  implement(app, services, ep.sale, movement('gift_sale', true));
  implement(app, services, ep.reload, movement('gift_reload', false));
  // A return credited to the card: recorded as `refund`, so the batch nets it.
  implement(app, services, ep.refund, movement('refund', false));

  implement(app, services, ep.activate, {
    replayField: 'UserTransactionNumber',
    check(body, problems, ctx) {
      const amounts = tenderAmounts(problems, body, {
        allowed: [],
        amountRequired: false,
        allowZero: true,
        ceilingCents: ctx.services.rules.amountCeilingCents,
      });
      optionalType(problems, body);
      const utn = requiredText(problems, body, 'UserTransactionNumber');
      currencyIsUsd(problems, body);
      const card = resolveStoredValueCard(body, problems);
      if (!card || !utn || !problems.empty) return undefined;
      return { utn, card, amounts, forceDuplication: flag(body, 'ForceDuplication') };
    },
    handle: (c, ctx) => activateGiftCard(svcOf(ctx), ctx, c),
  });

  implement(app, services, ep.deactivate, {
    check(body, problems) {
      optionalType(problems, body);
      return resolveStoredValueCard(body, problems);
    },
    handle: (card, ctx) => deactivateGiftCard(svcOf(ctx), ctx, card),
  });

  implement(app, services, ep.getBalance, {
    check(body, problems) {
      optionalType(problems, body);
      return resolveStoredValueCard(body, problems);
    },
    handle: (card, ctx) => giftCardBalance(svcOf(ctx), ctx, card),
  });
}
