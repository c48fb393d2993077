/**
 * Keyboard-wedge barcode scanners type each scan as keystrokes into whatever has the focus. This rule
 * tells a scan from a person's typing by its timing, so a screen can keep a scan out of a field it does
 * not belong in (a scan never becomes an amount) and hand it to the core as a scan instead.
 *
 * A burst of keys is a scan when all of these hold:
 * - it ends with the scanner's suffix key (Enter by default; Tab; or none, then a pause ends it);
 * - it starts with the configured prefix, when one is set (scanners can send one: the surest sign);
 * - it has at least `minLength` characters between prefix and suffix (a person's quick "12" + Enter is not);
 * - no gap between two of its keys is over `maxGapMs`, and the gaps average at most `maxMeanGapMs`.
 *   A scanner types at a few milliseconds a key with the odd hiccup of a USB poll or a busy host, so one
 *   long gap is forgiven while the average stays low; a fast typist's keys are 60-150 ms apart and even
 *   a practised digraph rarely comes under 30 ms, so a person's whole code never averages 20 ms.
 *
 * Keys are `KeyboardEvent.key` values with the event's timestamp in milliseconds. Modifier and other named
 * keys (Shift before an upper-case letter, which scanners send too) are not characters and are skipped.
 * Pure: no DOM, no timers; the screen feeds keydowns and, when the suffix is `none`, calls `flush` on a timer.
 */

export type WedgeSuffix = 'Enter' | 'Tab' | 'none';

export type WedgeScanSettings = {
  /** Characters the scanner sends before each scan; '' when it sends none. */
  prefix: string;
  suffix: WedgeSuffix;
  /** Fewest characters of data (without prefix and suffix) a scan has. */
  minLength: number;
  /** The longest pause allowed between two keys of one scan. */
  maxGapMs: number;
  /** The most the gaps of one scan may average. */
  maxMeanGapMs: number;
};

export const DEFAULT_WEDGE_SCAN_SETTINGS: Readonly<WedgeScanSettings> = {
  prefix: '',
  suffix: 'Enter',
  // EAN-8 and UPC-E are the shortest retail codes; a person types a 4-digit quantity or PLU faster than 6.
  minLength: 6,
  maxGapMs: 50,
  maxMeanGapMs: 20,
};

/** The stored settings (each field optional, as a tech left them) over the defaults. */
export function wedgeScanSettings(partial: Partial<WedgeScanSettings> = {}): WedgeScanSettings {
  return { ...DEFAULT_WEDGE_SCAN_SETTINGS, ...partial };
}

export type Keystroke = { key: string; at: number };

export type WedgeVerdict = { kind: 'scan'; data: string } | { kind: 'typing'; reason: string };

/** A burst longer than this is not a label, whatever its pace (and keeps the held keys bounded). */
export const MAX_WEDGE_BURST = 4096;

function isCharacter(key: string): boolean {
  return [...key].length === 1;
}

function isSuffix(key: string, suffix: WedgeSuffix): boolean {
  return suffix !== 'none' && key === suffix;
}

// rule: wedge-scan-timing
/**
 * Classifies one burst: the keys from its first to its suffix (inclusive), or to its last key when the
 * suffix is `none`. Named keys other than the suffix are skipped.
 */
export function classifyWedgeBurst(keys: readonly Keystroke[], settings: WedgeScanSettings): WedgeVerdict {
  const kept = keys.filter((k) => isCharacter(k.key) || isSuffix(k.key, settings.suffix));
  if (kept.length === 0) return { kind: 'typing', reason: 'no characters' };
  if (settings.suffix !== 'none' && kept.at(-1)?.key !== settings.suffix)
    return { kind: 'typing', reason: 'no suffix' };
  const chars = kept.filter((k) => isCharacter(k.key)).map((k) => k.key);
  const text = chars.join('');
  if (!text.startsWith(settings.prefix)) return { kind: 'typing', reason: 'no prefix' };
  const data = text.slice(settings.prefix.length);
  if (data.length < settings.minLength) return { kind: 'typing', reason: 'too short' };
  if (kept.length > MAX_WEDGE_BURST) return { kind: 'typing', reason: 'too long' };
  let total = 0;
  for (let i = 1; i < kept.length; i += 1) {
    const gap = (kept[i]?.at ?? 0) - (kept[i - 1]?.at ?? 0);
    if (gap > settings.maxGapMs) return { kind: 'typing', reason: 'a pause too long for a scanner' };
    // A clock that steps back is not a pause: count it as no gap.
    total += Math.max(0, gap);
  }
  const mean = total / (kept.length - 1 || 1);
  if (mean > settings.maxMeanGapMs) return { kind: 'typing', reason: 'too slow for a scanner' };
  return { kind: 'scan', data };
}

export type WedgeStep =
  /** The key ended a scan. `typedChars`: characters of the burst (prefix included) that reached the field before it. */
  | { kind: 'scan'; data: string; typedChars: number }
  /** An ordinary key, or the end of a burst that was typing. */
  | { kind: 'key' }
  /** A named key that is not the suffix (Shift, arrows): neither typing nor part of a scan. */
  | { kind: 'ignored' };

/**
 * The incremental form a screen uses: one keydown at a time. A pause over `maxGapMs` starts a new burst;
 * the suffix key closes one and is classified at once, so the screen can refuse the scan's Enter before
 * it submits a form, and undo the `typedChars` characters the scan left in the field.
 */
export class WedgeScanDetector {
  readonly settings: WedgeScanSettings;
  private burst: Keystroke[] = [];

  constructor(settings: Partial<WedgeScanSettings> = {}) {
    this.settings = wedgeScanSettings(settings);
  }

  /**
   * True once the configured prefix has been typed at scanner pace: the keys that follow belong to a scan,
   * so a screen may stop them reaching the field. Always false without a prefix.
   */
  get capturing(): boolean {
    const p = this.settings.prefix;
    if (p === '' || this.burst.length < p.length) return false;
    return this.burst
      .slice(0, p.length)
      .map((k) => k.key)
      .join('')
      .startsWith(p);
  }

  /** Characters held in the current burst (what the screen would undo if it turns out a scan). */
  get heldChars(): number {
    return this.burst.filter((k) => isCharacter(k.key)).length;
  }

  push(key: string, at: number): WedgeStep {
    const character = isCharacter(key);
    if (!character && !isSuffix(key, this.settings.suffix)) return { kind: 'ignored' };
    const last = this.burst.at(-1);
    if (last && at - last.at > this.settings.maxGapMs) this.burst = [];
    this.burst.push({ key, at });
    if (this.burst.length > MAX_WEDGE_BURST) this.burst = this.burst.slice(-MAX_WEDGE_BURST);
    if (character) return { kind: 'key' };
    return this.close();
  }

  /** With suffix `none`: closes a burst that has gone quiet for longer than the gap. */
  flush(now: number): WedgeStep {
    const last = this.burst.at(-1);
    if (!last || this.settings.suffix !== 'none' || now - last.at <= this.settings.maxGapMs)
      return { kind: 'key' };
    return this.close();
  }

  reset(): void {
    this.burst = [];
  }

  private close(): WedgeStep {
    const burst = this.burst;
    this.burst = [];
    const verdict = classifyWedgeBurst(burst, this.settings);
    if (verdict.kind === 'typing') return { kind: 'key' };
    return { kind: 'scan', data: verdict.data, typedChars: burst.filter((k) => isCharacter(k.key)).length };
  }
}
