import { cardFingerprint } from '../security/vault-cipher';
import { prepare } from '../storage/prepared';
import type { Storage } from '../storage/queryable';

/**
 * The sandbox issuer's memory of each chip card's Application Transaction Counter. A card's ATC goes up
 * with every GENERATE AC (EMV Book 3 §10.9), so an ARQC whose ATC is not above the highest one already
 * verified is a replay (the same EmvData sent again) or stale (an older read held back and sent later).
 */
export type AtcRegister = {
  /**
   * Records `atc` as the card's highest when it is higher than every one seen, atomically; true when it
   * was (a fresh cryptogram), false for a replayed or stale one.
   */
  advance(card: { pan: string; panSequenceNumber: string }, atc: number): Promise<boolean>;
};

/** In one process's memory: for a processor built without storage (unit tests). */
export function memoryAtcRegister(): AtcRegister {
  const highest = new Map<string, number>();
  return {
    advance({ pan, panSequenceNumber }, atc) {
      const key = `${pan}|${panSequenceNumber}`;
      const previous = highest.get(key);
      if (previous !== undefined && atc <= previous) return Promise.resolve(false);
      highest.set(key, atc);
      return Promise.resolve(true);
    },
  };
}

// Insert, or raise the counter only when the new ATC is higher; RETURNING yields a row only when the
// statement wrote one, so "no row" is the replay verdict. One statement: two processes that verify the
// same ARQC at once cannot both see it as fresh.
const advanceAtc = prepare<{ fp: string; psn: string; atc: number; now: string }, { highest_atc: number }>(
  (qb, p) =>
    qb
      .insertInto('emv_card_counters')
      .values({
        card_fingerprint: p('fp'),
        pan_sequence: p('psn'),
        highest_atc: p('atc'),
        updated_at: p('now'),
      })
      .onConflict((oc) =>
        oc
          .columns(['card_fingerprint', 'pan_sequence'])
          .doUpdateSet((eb) => ({
            highest_atc: eb.ref('excluded.highest_atc'),
            updated_at: eb.ref('excluded.updated_at'),
          }))
          .where((eb) => eb('emv_card_counters.highest_atc', '<', eb.ref('excluded.highest_atc'))),
      )
      .returning('highest_atc'),
);

/**
 * In the gateway's database (table emv_card_counters, migration 004), so the verdict holds across
 * processes and restarts. Cards are keyed by the gateway's keyed PAN fingerprint, never the PAN.
 */
export function storageAtcRegister(storage: Storage, fingerprintKey: Buffer, now: () => Date): AtcRegister {
  return {
    async advance({ pan, panSequenceNumber }, atc) {
      const fp = cardFingerprint(fingerprintKey, pan);
      const row = await storage.write((tx) =>
        tx.first(advanceAtc({ fp, psn: panSequenceNumber, atc, now: now().toISOString() })),
      );
      return row !== undefined;
    },
  };
}
