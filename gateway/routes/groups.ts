import { registerCheckoutRoutes } from '../hosted/checkout-routes';
import { registerAchProcessorRoutes } from './ach-processor';
import { registerAdministrationRoutes } from './administration';
import { registerAuthRoutes } from './auth';
import { registerAutomaticBatchCloseRoutes } from './automatic-batch-close';
import { registerBusinessSettingsRoutes } from './business-settings';
import { registerCheckProcessorRoutes } from './check-processor';
import { registerCustomerRoutes } from './customers';
import { registerEbtRoutes } from './ebt';
import { registerFraudAutoDenyRoutes } from './fraud-auto-deny-options';
import { registerGatewayAdminFraudRoutes } from './gateway-admin/fraud-options';
import { registerTokenRoutes } from './gateway-admin/tokens';
import { registerGatewayAdminUserRoutes } from './gateway-admin/users';
import { registerGiftCardRoutes } from './gift-card';
import { registerPaymentLinkRoutes } from './payment-links';
import { registerRecurringBillingRoutes } from './recurring-billing';
import { registerReportRoutes } from './report';
import { registerReportingRoutes } from './reporting';
import type { RouteGroup } from './route-group';
import { registerSignatureRoutes } from './signatures';
import { registerTransactionRoutes } from './transactions';

/**
 * Every group of the interface (the interface's Endpoints section, in its order) and the route modules
 * that register its operations. buildGateway registers them all; a new operation goes in its group's module.
 */
export const interfaceGroups = {
  Authentication: [registerAuthRoutes],
  'Signature Capture': [registerSignatureRoutes],
  Reporting: [registerReportingRoutes],
  Report: [registerReportRoutes],
  'Fraud Auto Deny Options': [registerFraudAutoDenyRoutes],
  // The mobile-wallet transactions share the group; its background task charges the billings.
  'Recurring Billing': [registerRecurringBillingRoutes],
  // With the hosted checkout page a link's `Link` serves.
  'Payment Links': [registerPaymentLinkRoutes, registerCheckoutRoutes],
  'ACH Processor': [registerAchProcessorRoutes],
  'Check Processor': [registerCheckProcessorRoutes],
  'Gift Card': [registerGiftCardRoutes],
  'EBT Transactions': [registerEbtRoutes],
  'Gateway Admin': [registerTokenRoutes, registerGatewayAdminFraudRoutes, registerGatewayAdminUserRoutes],
  // Automatic batch close also serves Gateway Admin's SetAutomaticBatchClose (the same operation) and runs
  // the close scheduler.
  Administration: [registerAdministrationRoutes, registerAutomaticBatchCloseRoutes],
  'Business Settings': [registerBusinessSettingsRoutes],
  Transactions: [registerTransactionRoutes],
  Customers: [registerCustomerRoutes],
} as const satisfies Readonly<Record<string, readonly RouteGroup[]>>;
