import type { RouteGroup } from './app';
import { noFraudScreen, type FraudScreen } from './domain/payments';

/**
 * The route groups beyond the core (payment links, recurring billing, gift, EBT, checks, ACH, admin,
 * reporting, ...) and the fraud screen that acts on sales. Each group registers itself here.
 */
export const breadthGroups: RouteGroup[] = [];

export const breadthFraudScreen: FraudScreen = noFraudScreen;
