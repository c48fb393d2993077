import type { RouteGroup } from './app';
import { registerCheckoutRoutes } from './hosted/checkout-routes';
import { registerCustomerRoutes } from './routes/customers';
import { registerPaymentLinkRoutes } from './routes/payment-links';
import { registerRecurringBillingRoutes } from './routes/recurring-billing';
import { registerSignatureRoutes } from './routes/signatures';

/** Payment links (with the hosted checkout), recurring billing, mobile wallet, customers, signatures. */
export const commerceGroups: RouteGroup[] = [
  registerPaymentLinkRoutes,
  registerCheckoutRoutes,
  registerRecurringBillingRoutes,
  registerCustomerRoutes,
  registerSignatureRoutes,
];
