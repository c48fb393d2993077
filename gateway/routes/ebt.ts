import type { FastifyInstance } from 'fastify';
import { TransactionType } from '../contract/card-sale';
import { ResponseCode } from '../contract/response-codes';
import { ebtEndpoints as ep } from '../contract/ebt';
import { ebtBalance, ebtMovement, type EbtMovement, type PinData } from '../domain/ebt';
import type { Problems } from '../domain/problems';
import { flag, requiredText, text, transactionType } from '../http/checks';
import { implement, type Loose, type OperationContext } from '../http/operation';
import type { GatewayServices } from '../http/services';
import { currencyIsUsd, resolveStoredValueCard, tenderAmounts } from '../http/tender-checks';

/** KSN and PinBlock as the PIN pad sends them; the PIN itself is checked by the issuer, not here. */
function pinOf(problems: Problems, body: Loose): PinData | undefined {
  const ksn = text(body, 'KSN');
  const pinBlock = text(body, 'PinBlock');
  if (!ksn || !pinBlock || !/^[0-9A-Fa-f]{10,20}$/.test(ksn) || !/^[0-9A-Fa-f]{16}$/.test(pinBlock)) {
    problems.add(
      ResponseCode.PinDataMissing,
      'KSN (10-20 hex digits) and PinBlock (16 hex digits) from the PIN pad are required for EBT',
      'PinBlock',
    );
    return undefined;
  }
  return { ksn, pinBlock };
}

function movement(
  operation: EbtMovement['operation'],
  program: EbtMovement['program'],
  allowCashBack: boolean,
) {
  return {
    replayField: 'UserTransactionNumber',
    check(body: Loose, problems: Problems, ctx: OperationContext): EbtMovement | undefined {
      const amounts = tenderAmounts(problems, body, {
        allowed: allowCashBack ? ['CashBackAmount'] : [],
        amountRequired: true,
        ceilingCents: ctx.services.rules.amountCeilingCents,
      });
      transactionType(problems, body, TransactionType.EBT, 'EBT');
      const utn = requiredText(problems, body, 'UserTransactionNumber');
      currencyIsUsd(problems, body);
      const pin = pinOf(problems, body);
      const card = resolveStoredValueCard(body, problems);
      if (!card || !pin || !utn || !problems.empty) return undefined;
      return {
        operation,
        program,
        utn,
        amounts,
        card,
        pin,
        forceDuplication: flag(body, 'ForceDuplication'),
        invoice: text(body, 'InvoiceNumber'),
        orderRef: text(body, 'OrderReference'),
      };
    },
    handle: (m: EbtMovement, ctx: OperationContext) => ebtMovement(ctx.services, ctx, m),
  };
}

function balance(program: 'food' | 'cash') {
  return {
    check(body: Loose, problems: Problems) {
      if (body.TransactionType !== undefined) transactionType(problems, body, TransactionType.EBT, 'EBT');
      const pin = pinOf(problems, body);
      const card = resolveStoredValueCard(body, problems);
      return card && pin ? { card, pin } : undefined;
    },
    handle: (
      c: { card: NonNullable<ReturnType<typeof resolveStoredValueCard>>; pin: PinData },
      ctx: OperationContext,
    ) => ebtBalance(ctx.services, c.card, c.pin, program),
  };
}

export function registerEbtRoutes(app: FastifyInstance, services: GatewayServices): void {
  implement(app, services, ep.cashBalance, balance('cash'));
  implement(app, services, ep.foodBalance, balance('food'));
  implement(app, services, ep.cashSale, movement('ebt_cash_sale', 'cash', true));
  implement(app, services, ep.cashWithdrawal, movement('ebt_cash_withdrawal', 'cash', false));
  implement(app, services, ep.foodSale, movement('ebt_food_sale', 'food', false));
  // A food return credits the food balance; recorded as `refund` so the batch nets it.
  implement(app, services, ep.foodReturn, movement('refund', 'food', false));
}
