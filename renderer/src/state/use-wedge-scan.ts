import { useCallback, useEffect, useRef, useState } from 'react';
import type { KeyboardEvent as ReactKeyboardEvent } from 'react';
import type { ScanView, WedgeSettingsView } from '../../../common/bridge/contract';
import { WedgeScanDetector, type WedgeStep } from '../../../common/wedge-scan';
import { describeError } from './app-store';
import { useBridge } from './context';

export type WedgeScanHandle = {
  /** The lane's wedge settings; null when the scanner is no keyboard wedge (then every key is typing). */
  settings: WedgeSettingsView | null;
  /**
   * Feed every keydown of the field (or window) here. On the suffix key that ends a scan it stops the
   * key's default (no form submit), hands the scan to the core (`scanner.wedgeScan`: the answer comes to
   * `onScan`, and to every screen as `scanner.scanned`), and returns the step: `typedChars` says how many
   * characters of the scan reached the field, for the field to take back. While a configured prefix has
   * been seen, it also stops the scan's characters reaching the field.
   */
  onKeyDown: (e: ReactKeyboardEvent | KeyboardEvent) => WedgeStep;
};

/**
 * The keyboard-wedge scan rule (common/wedge-scan.ts) for a screen, with the lane's settings. A screen
 * that must never take a scan as typing (the amount box) feeds its keydowns here and undoes
 * `typedChars` when a scan comes; one that wants scans (the tech's test, later the ticket) gets them in
 * `onScan`.
 */
export function useWedgeScan(options: {
  onScan?: (scan: ScanView) => void;
  onError?: (message: string) => void;
}): WedgeScanHandle {
  const bridge = useBridge();
  const [settings, setSettings] = useState<WedgeSettingsView | null>(null);
  const detector = useRef<WedgeScanDetector | null>(null);
  const flushTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const callbacks = useRef(options);
  callbacks.current = options;

  useEffect(() => {
    let live = true;
    void bridge.send('scanner.wedgeSettings', {}).then((r) => {
      if (!live) return;
      const s = r.ok ? r.value : null;
      setSettings(s);
      detector.current = s ? new WedgeScanDetector(s) : null;
    });
    return () => {
      live = false;
      if (flushTimer.current !== undefined) clearTimeout(flushTimer.current);
    };
  }, [bridge]);

  const deliver = useCallback(
    (data: string) => {
      void bridge.send('scanner.wedgeScan', { data }).then((r) => {
        if (r.ok) callbacks.current.onScan?.(r.value);
        else callbacks.current.onError?.(describeError(r.error));
      });
    },
    [bridge],
  );

  const onKeyDown = useCallback(
    (e: ReactKeyboardEvent | KeyboardEvent): WedgeStep => {
      const d = detector.current;
      if (!d) return { kind: 'key' };
      const step = d.push(e.key, e.timeStamp);
      if (step.kind === 'scan') {
        e.preventDefault();
        deliver(step.data);
      } else if (step.kind === 'key' && d.capturing) e.preventDefault();
      // Without a suffix, a scan ends with the pause after it.
      if (d.settings.suffix === 'none') {
        if (flushTimer.current !== undefined) clearTimeout(flushTimer.current);
        flushTimer.current = setTimeout(() => {
          const end = d.flush(performance.now());
          if (end.kind === 'scan') deliver(end.data);
        }, d.settings.maxGapMs + 5);
      }
      return step;
    },
    [deliver],
  );

  return { settings, onKeyDown };
}
