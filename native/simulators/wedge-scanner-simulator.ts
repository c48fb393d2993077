/**
 * A keyboard-wedge barcode scanner: it "types" each scan as keystrokes (KeyboardEvent.key names with the
 * time each went down), at a scanner's pace with the jitter a USB keyboard and a busy host add: a key every
 * `keyMs`, give or take `jitterMs`, and now and then a longer stall. Upper-case letters come after a Shift,
 * as a US keyboard sends them. The jitter is a fixed pseudo-random sequence, so a run can be repeated.
 *
 * Where the keys go is the caller's: in the sandbox the core feeds them to the same timing rule the
 * screens use; a test feeds them to it directly.
 */
import { aimIdentifierFor } from '../protocols/aim-symbology-id';
import type { TestBarcode } from './test-barcodes';

export type SimulatedKeystroke = { key: string; at: number };

export type WedgeScannerOptions = {
  /** Characters the scanner types before each scan. Default none. */
  prefix?: string;
  /** The key that ends each scan. Default Enter. */
  suffix?: 'Enter' | 'Tab' | 'none';
  /** Type the AIM identifier before the data. Default false (wedge scanners rarely do). */
  aim?: boolean;
  /** Mean time between keys. Default 4 ms. */
  keyMs?: number;
  /** Up to this much earlier or later per key. Default 3 ms. */
  jitterMs?: number;
  /** Every this many keys, one stall of `stallMs`. Default every 9th key, 35 ms. */
  stallEvery?: number;
  stallMs?: number;
  /** Seed of the jitter sequence. */
  seed?: number;
};

export class WedgeScannerSimulator {
  private readonly options: Required<Omit<WedgeScannerOptions, 'seed'>>;
  private seed: number;
  private readonly listeners = new Set<(keys: SimulatedKeystroke[]) => void>();
  scans = 0;

  constructor(options: WedgeScannerOptions = {}) {
    this.options = {
      prefix: options.prefix ?? '',
      suffix: options.suffix ?? 'Enter',
      aim: options.aim ?? false,
      keyMs: options.keyMs ?? 4,
      jitterMs: options.jitterMs ?? 3,
      stallEvery: options.stallEvery ?? 9,
      stallMs: options.stallMs ?? 35,
    };
    this.seed = options.seed ?? 0x2545f491;
  }

  /** Where the typed keys go (the keyboard focus). */
  onKeys(listener: (keys: SimulatedKeystroke[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The keystrokes of one scan starting at `startAt` ms, without sending them. */
  keystrokes(barcode: Pick<TestBarcode, 'symbology' | 'data'>, startAt: number): SimulatedKeystroke[] {
    const o = this.options;
    const aim = o.aim ? (aimIdentifierFor(barcode.symbology) ?? '') : '';
    const text = `${o.prefix}${aim}${barcode.data}`;
    const keys: SimulatedKeystroke[] = [];
    let t = startAt;
    let n = 0;
    const step = (): number => {
      n += 1;
      const stall = o.stallEvery > 0 && n % o.stallEvery === 0 ? o.stallMs : 0;
      return Math.max(1, o.keyMs + (this.random() * 2 - 1) * o.jitterMs) + stall;
    };
    for (const c of text) {
      if (c !== c.toLowerCase()) {
        keys.push({ key: 'Shift', at: t });
        t += 1;
      }
      keys.push({ key: c, at: t });
      t += step();
    }
    if (o.suffix !== 'none') keys.push({ key: o.suffix, at: t });
    return keys;
  }

  /** Types one scan at `startAt` (default now). */
  scan(barcode: Pick<TestBarcode, 'symbology' | 'data'>, startAt = Date.now()): SimulatedKeystroke[] {
    const keys = this.keystrokes(barcode, startAt);
    this.scans += 1;
    for (const l of [...this.listeners]) l(keys);
    return keys;
  }

  // xorshift32: a repeatable jitter sequence, not a secret.
  private random(): number {
    let x = this.seed;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.seed = x >>> 0;
    return this.seed / 0x1_0000_0000;
  }
}
