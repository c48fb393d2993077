import type { RouteGroup } from './app';
import { commerceGroups } from './commerce-groups';
import { tenderFraudScreen, tenderGroups } from './tender-groups';

/** The route groups beyond the core, and the fraud screen that acts on sales. */
export const breadthGroups: RouteGroup[] = [...commerceGroups, ...tenderGroups];

export const breadthFraudScreen = tenderFraudScreen;
