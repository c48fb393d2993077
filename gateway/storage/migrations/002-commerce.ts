import type { Migration } from '../migrate';

/** Payment links, recurring billing, mobile-wallet transactions, signatures (gateway breadth: commerce). */
export const migration002: Migration = {
  version: 2,
  name: 'commerce: payment links, recurring billing, mobile wallet, signatures',
  async up() {
    // Filled in by the commerce groups before this migration ships.
  },
};
