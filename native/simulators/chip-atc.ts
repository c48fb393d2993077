import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Where simulated chip cards keep their Application Transaction Counters. A real card's ATC only ever
 * goes up, and the sandbox issuer declines an ATC it has seen (or a lower one) as a replay: a simulator
 * that forgot its counters on restart would see its cards declined by a gateway that remembers them. The
 * file store keeps them across restarts (the terminal's data folder is the place for it); the memory
 * store suits a run whose gateway is as fresh as the simulator (tests).
 */
export type ChipAtcStore = {
  /** The card's next ATC (1, 2, …; 16 bits). */
  next(pan: string, panSequenceNumber: string): number;
};

/** Counters by a hash of PAN and PSN: the file never holds a card number. */
function cardKey(pan: string, psn: string): string {
  return createHash('sha256').update(`${pan}|${psn}`).digest('hex').slice(0, 32);
}

export function memoryAtcStore(): ChipAtcStore {
  const counters = new Map<string, number>();
  return {
    next(pan, psn) {
      const key = cardKey(pan, psn);
      const n = ((counters.get(key) ?? 0) + 1) & 0xffff;
      counters.set(key, n);
      return n;
    },
  };
}

/**
 * Counters in a JSON file, written through a temporary file and a rename so a crash never leaves half a
 * file. One process per file (the terminal owns its data folder).
 */
export function fileAtcStore(path: string): ChipAtcStore {
  const load = (): Record<string, number> => {
    if (!existsSync(path)) return {};
    try {
      const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, number>) : {};
    } catch {
      return {};
    }
  };
  return {
    next(pan, psn) {
      const counters = load();
      const key = cardKey(pan, psn);
      const previous = counters[key];
      const n = ((typeof previous === 'number' ? previous : 0) + 1) & 0xffff;
      counters[key] = n;
      mkdirSync(dirname(path), { recursive: true });
      const draft = `${path}.${process.pid}.tmp`;
      writeFileSync(draft, JSON.stringify(counters), { mode: 0o600 });
      renameSync(draft, path);
      return n;
    },
  };
}
