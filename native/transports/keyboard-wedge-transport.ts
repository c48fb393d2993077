import { decodeBootKeyboardReport, KeyboardWedgeDecoder } from '../protocols/keyboard-wedge';
import type { HidDevicePort } from './hid-transport';

/**
 * A keyboard-wedge card reader (MagTek PID 0x0001 and most "USB keyboard" MSRs) arrives as keystrokes:
 * from the Electron window (the OS owns keyboards; node-hid cannot open them on Windows, docs/devices.md
 * §2.4) or, on Linux, as boot-keyboard reports from a hidraw node. Both feed the wedge decoder, which
 * separates fast `%…?;…?CR` bursts (swipes) from the cashier's typing, handed back unchanged.
 */
export type KeyboardWedgeTransport = {
  readonly label: string;
  readonly isOpen: boolean;
  /** One `KeyboardEvent.key` from the renderer ('Enter' ends a swipe; other named keys are ignored). */
  pushKey(key: string, timeMs?: number): void;
  /** One boot-keyboard input report (HID 1.11 B.1) from a hidraw keyboard. */
  pushBootReport(report: Uint8Array, timeMs?: number): void;
  /** Reads boot-keyboard reports from a HID keyboard interface (Linux hidraw); returns a detach function. */
  attach(port: HidDevicePort): () => void;
  /** A complete swipe, tracks with sentinels, without the CR. Card data: never log it. */
  onSwipe(listener: (data: string) => void): () => void;
  /** Keys that were not part of a swipe, so the focused field still gets the cashier's typing. */
  onTyped(listener: (text: string) => void): () => void;
  onClose(listener: (reason: Error | undefined) => void): () => void;
  close(): Promise<void>;
};

export type WedgeClock = {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

export type KeyboardWedgeTransportOptions = {
  /** Longest gap between keys of one swipe; readers type at 1–10 ms per key. Default 50 ms. */
  maxGapMs?: number;
  clock?: WedgeClock;
  label?: string;
};

const systemClock: WedgeClock = {
  now: () => Date.now(),
  setTimeout: (cb, ms) => setTimeout(cb, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export function createKeyboardWedgeTransport(
  options: KeyboardWedgeTransportOptions = {},
): KeyboardWedgeTransport {
  const maxGapMs = options.maxGapMs ?? 50;
  const clock = options.clock ?? systemClock;
  const decoder = new KeyboardWedgeDecoder({ maxGapMs });
  const swipeListeners = new Set<(data: string) => void>();
  const typedListeners = new Set<(text: string) => void>();
  const closeListeners = new Set<(reason: Error | undefined) => void>();
  let open = true;
  let flushTimer: unknown;
  let previousReport: Uint8Array | undefined;

  const deliver = (events: ReturnType<KeyboardWedgeDecoder['push']>): void => {
    for (const e of events) {
      if (e.type === 'swipe') for (const l of swipeListeners) l(e.data);
      else for (const l of typedListeners) l(e.text);
    }
  };

  // A half swipe (or a lone '%' the cashier typed) must not be held forever: release it once the keys
  // stop for longer than the gap.
  const armFlush = (): void => {
    if (flushTimer !== undefined) clock.clearTimeout(flushTimer);
    flushTimer = undefined;
    if (!decoder.pending) return;
    flushTimer = clock.setTimeout(() => {
      flushTimer = undefined;
      deliver(decoder.flush(clock.now()));
      armFlush();
    }, maxGapMs + 1);
  };

  const pushChars = (chars: string, timeMs: number): void => {
    if (!open || chars === '') return;
    deliver(decoder.push(chars, timeMs));
    armFlush();
  };

  const transport: KeyboardWedgeTransport = {
    label: options.label ?? 'keyboard-wedge',
    get isOpen() {
      return open;
    },
    pushKey(key, timeMs = clock.now()) {
      if (key === 'Enter') pushChars('\r', timeMs);
      else if (key.length === 1) pushChars(key, timeMs);
    },
    pushBootReport(report, timeMs = clock.now()) {
      const chars = decodeBootKeyboardReport(report, previousReport);
      previousReport = Uint8Array.from(report);
      pushChars(chars, timeMs);
    },
    attach(port) {
      const offReport = port.onReport((r) => transport.pushBootReport(r));
      const offClose = port.onClose((reason) => {
        if (open) {
          open = false;
          for (const l of closeListeners) l(reason);
        }
      });
      return () => {
        offReport();
        offClose();
      };
    },
    onSwipe(listener) {
      swipeListeners.add(listener);
      return () => swipeListeners.delete(listener);
    },
    onTyped(listener) {
      typedListeners.add(listener);
      return () => typedListeners.delete(listener);
    },
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
    close() {
      if (!open) return Promise.resolve();
      open = false;
      if (flushTimer !== undefined) clock.clearTimeout(flushTimer);
      for (const l of closeListeners) l(undefined);
      return Promise.resolve();
    },
  };
  return transport;
}
