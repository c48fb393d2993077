/**
 * Every window of a lane hears every scan (`scanner.scanned`), and each visible sale screen would ring it:
 * two windows, one item, two lines. A scan is rung by the window that claims it first; the others leave it.
 * The core is one process, so the first claim is decided here without a race. The last `keep` scan ids
 * are remembered — far more than scans in flight — and an id that has dropped out can no longer be
 * claimed: it is stale.
 */
export type ScanClaims = {
  /** A scan id was just issued: it may be claimed once. */
  issued(scanId: string): void;
  /** True for the first claim of an issued scan; false for any later claim, or an unknown or stale id. */
  claim(scanId: string): boolean;
};

export function createScanClaims(keep = 256): ScanClaims {
  // Insertion order is issue order: the oldest id leaves first.
  const open = new Map<string, boolean>();
  return {
    issued(scanId) {
      open.set(scanId, false);
      while (open.size > keep) {
        const oldest = open.keys().next().value;
        if (oldest === undefined) break;
        open.delete(oldest);
      }
    },
    claim(scanId) {
      if (open.get(scanId) !== false) return false;
      open.set(scanId, true);
      return true;
    },
  };
}
