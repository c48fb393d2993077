import type { RouteGroup } from './app';
import type { FraudScreen } from './domain/payments';
import { tenderFraudScreen as screen } from './domain/fraud-options';
import { registerAdminRoutes } from './routes/admin';
import { registerBankRoutes } from './routes/bank';
import { registerEbtRoutes } from './routes/ebt';
import { registerFraudRoutes } from './routes/fraud';
import { registerGiftCardRoutes } from './routes/gift-card';
import { registerReportingRoutes } from './routes/reporting';

/** Gift card, EBT, check, ACH, fraud auto-deny, gateway admin, administration, reporting. */
export const tenderGroups: RouteGroup[] = [
  registerFraudRoutes,
  registerGiftCardRoutes,
  registerEbtRoutes,
  registerBankRoutes,
  // Also returns the automatic batch-close scheduler (a background task buildGateway starts).
  registerAdminRoutes,
  registerReportingRoutes,
];

/** The fraud auto-deny checks that act on sales (domain/fraud-options.ts). */
export const tenderFraudScreen: FraudScreen = screen;
