import { maskCardData } from '../../native/protocols/pan-mask';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type LogEntry = { at: number; level: LogLevel; scope: string; message: string };

export type Logger = {
  log(level: LogLevel, scope: string, message: string): void;
  recent(limit?: number): LogEntry[];
  /** The masking every log line gets, for other text leaving the core (audit, diagnostics). */
  mask(text: string): string;
};

/**
 * The core's log: a ring buffer for the diagnostics bundle plus an optional sink. Every message passes
 * through maskCardData first, so a PAN that slipped into an error text is masked before it is kept
 * anywhere (a log line that loses a reference number is cheaper than one that leaks a PAN).
 */
export function createLogger(
  options: { sink?: (entry: LogEntry) => void; capacity?: number; now?: () => number } = {},
): Logger {
  const capacity = options.capacity ?? 2000;
  const now = options.now ?? Date.now;
  const ring: LogEntry[] = [];
  return {
    log(level, scope, message) {
      const entry: LogEntry = { at: now(), level, scope, message: maskCardData(message) };
      ring.push(entry);
      if (ring.length > capacity) ring.shift();
      options.sink?.(entry);
    },
    recent(limit = capacity) {
      return ring.slice(-limit);
    },
    mask: maskCardData,
  };
}
