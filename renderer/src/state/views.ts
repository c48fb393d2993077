import type { Role } from '../../../electron/bridge/contract';

/** Every screen of the terminal, and who sees it (the core enforces the same split: docs/bridge.md). */
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

export const viewTitles: Readonly<Record<View, string>> = {
  sale: 'Sale',
  till: 'Till',
  tills: 'Tills',
  transactions: 'Transactions',
  returns: 'Returns',
  cards: 'Gift & EBT',
  preauths: 'Pre-authorizations',
  batch: 'Batch',
  reports: 'Reports',
  catalog: 'Catalog',
  settings: 'Settings',
  links: 'Payment links',
  saf: 'Offline & queues',
  audit: 'Audit log',
  employees: 'Employees',
  devices: 'Devices',
  gateway: 'Gateway & lane',
  diagnostics: 'Diagnostics',
};

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
