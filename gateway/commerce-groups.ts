import type { RouteGroup } from './app';

/** Payment links (with the hosted checkout), recurring billing, mobile wallet, customers, signatures. */
export const commerceGroups: RouteGroup[] = [];
