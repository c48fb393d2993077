import type { Role } from '../../../electron/bridge/contract';

/** Every screen of the terminal, and who sees it (the core enforces the same split: docs/bridge.md). */
export type View =
  | 'sale'
  | 'till'
  | 'tills'
  | 'transactions'
  | 'cards'
  | 'preauths'
  | 'batch'
  | 'reports'
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
  cards: 'Gift & EBT',
  preauths: 'Pre-authorizations',
  batch: 'Batch',
  reports: 'Reports',
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
  cashier: ['sale', 'till', 'transactions', 'cards', 'preauths'],
  // audit.list is a manager command: the log of who did what stays with the manager.
  manager: [
    'sale',
    'till',
    'transactions',
    'cards',
    'preauths',
    'batch',
    'tills',
    'reports',
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
