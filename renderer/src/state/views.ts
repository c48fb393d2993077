import type { Role } from '../../../common/bridge/contract';

/**
 * Every screen of the terminal, and who sees it (the core enforces the same split: docs/bridge.md). Their
 * titles are the `app` catalog's `views` (renderer/src/i18n).
 */
export type View =
  | 'sale'
  | 'till'
  | 'tills'
  | 'transactions'
  | 'returns'
  | 'cards'
  | 'preauths'
  | 'batch'
  | 'reports'
  | 'catalog'
  | 'settings'
  | 'links'
  | 'saf'
  | 'audit'
  | 'employees'
  | 'devices'
  | 'gateway'
  | 'diagnostics';

const byRole: Readonly<Record<Role, readonly View[]>> = {
  cashier: ['sale', 'till', 'transactions', 'returns', 'cards', 'preauths'],
  // audit.list is a manager command: the log of who did what stays with the manager.
  manager: [
    'sale',
    'till',
    'transactions',
    'returns',
    'cards',
    'preauths',
    'batch',
    'tills',
    'reports',
    'catalog',
    'settings',
    'employees',
    'links',
    'saf',
    'audit',
  ],
  // A tech configures devices and the gateway; money screens stay with cashiers and managers.
  tech: ['devices', 'gateway', 'diagnostics'],
};

export function viewsFor(role: Role): readonly View[] {
  return byRole[role];
}

export function homeView(role: Role): View {
  return byRole[role][0] ?? 'sale';
}
