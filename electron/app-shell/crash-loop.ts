import { readFileSync, renameSync, writeFileSync } from 'node:fs';

/**
 * Kiosk mode relaunches the app when its renderer or a child process dies, so a counter never sits on a
 * blank screen. A fault that kills every fresh start (a corrupt profile, a GPU driver crash at launch)
 * would then restart forever and hide itself; the ledger bounds that. It lives in a file because each
 * relaunch is a new process with no memory of the last one.
 */
export type CrashPolicy = {
  /** Relaunches allowed inside the window; the next crash in the window ends the loop. */
  limit: number;
  windowMs: number;
};

export const defaultCrashPolicy: CrashPolicy = { limit: 3, windowMs: 10 * 60_000 };

export type CrashRecord = { at: number; reason: string };

export type CrashDecision = {
  relaunch: boolean;
  /** Crashes inside the window, this one included. */
  recent: number;
  policy: CrashPolicy;
};

function readLedger(file: string): CrashRecord[] {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { crashes?: unknown };
    if (!Array.isArray(parsed.crashes)) return [];
    return parsed.crashes.filter(
      (c): c is CrashRecord =>
        typeof c === 'object' &&
        c !== null &&
        typeof (c as CrashRecord).at === 'number' &&
        typeof (c as CrashRecord).reason === 'string',
    );
  } catch {
    // No ledger yet, or a torn write from a power cut: start counting afresh rather than refuse to run.
    return [];
  }
}

/**
 * Records a crash at `now` and decides whether to relaunch. Crashes older than the window are forgotten,
 * so a lane that crashes once a week always comes back.
 */
export function recordCrash(
  file: string,
  now: number,
  reason: string,
  policy: CrashPolicy = defaultCrashPolicy,
): CrashDecision {
  const recent = readLedger(file).filter((c) => now - c.at < policy.windowMs && c.at <= now);
  recent.push({ at: now, reason });
  // Write-then-rename: a crash during the write leaves the old ledger, never half a file.
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, JSON.stringify({ crashes: recent }, null, 2), { mode: 0o600 });
  renameSync(tmp, file);
  return { relaunch: recent.length <= policy.limit, recent: recent.length, policy };
}
