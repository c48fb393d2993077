/**
 * Keyboard-wedge card readers (docs/devices.md §2.4): the swipe arrives as keystrokes mixed with
 * whatever the cashier types. A swipe starts with a track sentinel (`%` or `;`), comes faster than a
 * person types, and ends with CR; anything else is typing and is handed back unchanged. Pure and
 * incremental: the caller feeds characters with their timestamps and calls `flush` from a timer.
 */

export type WedgeEvent = { type: 'swipe'; data: string } | { type: 'typed'; text: string };

export type WedgeDecoderOptions = {
  /** Longest gap between two keystrokes of one swipe; readers type at ~1-10 ms per key. Default 50. */
  maxGapMs?: number;
  /** A candidate longer than this is typing (three full tracks are under 230 characters). Default 512. */
  maxLength?: number;
};

const START_SENTINELS = new Set(['%', ';']);
const TERMINATORS = new Set(['\r', '\n']);

export class KeyboardWedgeDecoder {
  private readonly maxGapMs: number;
  private readonly maxLength: number;
  private buffer = '';
  private lastTime = 0;

  constructor(options: WedgeDecoderOptions = {}) {
    this.maxGapMs = options.maxGapMs ?? 50;
    this.maxLength = options.maxLength ?? 512;
  }

  /** True while characters are held back as a possible swipe. */
  get pending(): boolean {
    return this.buffer !== '';
  }

  /** Feeds one or more characters typed at `timeMs`; returns what they complete. */
  push(chars: string, timeMs: number): WedgeEvent[] {
    const events: WedgeEvent[] = [];
    for (const c of chars) this.pushChar(c, timeMs, events);
    return events;
  }

  /** Releases a candidate that has gone quiet for longer than the gap as typing. */
  flush(nowMs: number): WedgeEvent[] {
    if (this.buffer === '' || nowMs - this.lastTime <= this.maxGapMs) return [];
    return [this.release()];
  }

  private release(): WedgeEvent {
    const text = this.buffer;
    this.buffer = '';
    return { type: 'typed', text };
  }

  private pushChar(c: string, t: number, events: WedgeEvent[]): void {
    // A pause longer than a reader ever makes ends the candidate: it was typing. A clock that steps
    // backwards (negative gap) is not a pause.
    if (this.buffer !== '' && t - this.lastTime > this.maxGapMs) events.push(this.release());
    if (this.buffer === '') {
      if (START_SENTINELS.has(c)) {
        this.buffer = c;
        this.lastTime = t;
      } else events.push({ type: 'typed', text: c });
      return;
    }
    if (TERMINATORS.has(c)) {
      // §2.4 default output: [SS1][T1][ES][SS2][T2][ES]...[CR]; an end sentinel must have been seen.
      const data = this.buffer;
      this.buffer = '';
      events.push(data.includes('?') ? { type: 'swipe', data } : { type: 'typed', text: data + c });
      return;
    }
    this.buffer += c;
    this.lastTime = t;
    if (this.buffer.length > this.maxLength) events.push(this.release());
  }
}

// USB HID Usage Tables §10 (Keyboard/Keypad page 0x07), US layout: unshifted and shifted characters
// for the usages a card reader types: letters, digits, track punctuation, Enter, and the keypad.
const USAGE_CHARS: ReadonlyMap<number, readonly [string, string]> = new Map<
  number,
  readonly [string, string]
>([
  ...Array.from({ length: 26 }, (_, i): [number, readonly [string, string]] => {
    const ch = String.fromCharCode(0x61 + i);
    return [0x04 + i, [ch, ch.toUpperCase()]];
  }),
  ...Array.from('1234567890').map((d, i): [number, readonly [string, string]] => [
    0x1e + i,
    [d, '!@#$%^&*()'[i] ?? ''],
  ]),
  [0x28, ['\r', '\r']],
  [0x2b, ['\t', '\t']],
  [0x2c, [' ', ' ']],
  [0x2d, ['-', '_']],
  [0x2e, ['=', '+']],
  [0x2f, ['[', '{']],
  [0x30, [']', '}']],
  [0x31, ['\\', '|']],
  [0x33, [';', ':']],
  [0x34, ["'", '"']],
  [0x35, ['`', '~']],
  [0x36, [',', '<']],
  [0x37, ['.', '>']],
  [0x38, ['/', '?']],
  [0x54, ['/', '/']],
  [0x55, ['*', '*']],
  [0x56, ['-', '-']],
  [0x57, ['+', '+']],
  [0x58, ['\r', '\r']],
  ...Array.from('1234567890').map((d, i): [number, readonly [string, string]] => [0x59 + i, [d, d]]),
  [0x63, ['.', '.']],
]);

/** Character a US-layout keyboard types for a HID usage ID, or undefined for keys that type nothing. */
export function hidUsageToChar(usage: number, shift: boolean): string | undefined {
  const pair = USAGE_CHARS.get(usage);
  return pair ? pair[shift ? 1 : 0] : undefined;
}

// Boot keyboard report (HID 1.11 Appendix B.1): [0] modifiers, [1] reserved, [2..7] pressed usages.
const LEFT_SHIFT = 0x02;
const RIGHT_SHIFT = 0x20;
const ERROR_ROLLOVER = 0x01;

/**
 * Characters for keys newly pressed in a boot-keyboard report (Linux hidraw delivers these), given the
 * previous report: a key still held is not typed again. A phantom (error rollover) report types nothing.
 */
export function decodeBootKeyboardReport(report: Uint8Array, previous?: Uint8Array): string {
  if (report.length < 3) return '';
  const keys = report.subarray(2, 8);
  if (keys.includes(ERROR_ROLLOVER)) return '';
  const held = new Set(previous ? previous.subarray(2, 8) : []);
  const shift = ((report[0] ?? 0) & (LEFT_SHIFT | RIGHT_SHIFT)) !== 0;
  let out = '';
  for (const usage of keys) {
    if (usage === 0 || held.has(usage)) continue;
    out += hidUsageToChar(usage, shift) ?? '';
  }
  return out;
}
