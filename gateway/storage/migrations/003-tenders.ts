import type { Migration } from '../migrate';

/** Gift cards, EBT, checks, ACH, fraud options, processor users, batch close, disputes (gateway breadth: tenders and admin). */
export const migration003: Migration = {
  version: 3,
  name: 'tenders and administration',
  async up() {
    // Filled in by the tender/admin groups before this migration ships.
  },
};
