import type { RouteGroup } from './app';
import { noFraudScreen, type FraudScreen } from './domain/payments';

/** Gift card, EBT, check, ACH, fraud auto-deny, gateway admin, administration, reporting. */
export const tenderGroups: RouteGroup[] = [];

/** The fraud auto-deny checks that act on sales. */
export const tenderFraudScreen: FraudScreen = noFraudScreen;
