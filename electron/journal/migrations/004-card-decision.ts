import type { Migration } from './types';

/**
 * A contact chip sale's last word from the card (EMV 4.4 Book 4 §6.3.8): `card_decision` is the card's
 * answer to the issuer's approval (TC or AAC), `script_results` the Issuer Script Results (9F5B, 5 bytes
 * per script: result, sequence, script id) the card reported — the issuer's record of what its scripts
 * did, kept with the transaction. Neither is card data: no cryptogram, no PAN, no key.
 */
export const migration004: Migration = {
  version: 4,
  name: 'card-decision',
  up(db) {
    db.exec(`
      ALTER TABLE journal ADD COLUMN card_decision TEXT CHECK (card_decision IS NULL OR card_decision IN ('TC', 'AAC'));
      ALTER TABLE journal ADD COLUMN script_results TEXT CHECK (
        script_results IS NULL OR (length(script_results) % 10 = 0 AND length(script_results) <= 160
          AND script_results NOT GLOB '*[^0-9A-F]*')
      );
    `);
  },
};
