import type { CoreServices, HandlerSlice } from './services';

/**
 * The barcode scanner's commands. Scans themselves reach the screens as `scanner.scanned` events; these
 * are for keyboard-wedge scanners, whose keystrokes only a screen sees.
 */
export function scannerHandlers(s: CoreServices) {
  const { devices } = s;
  return {
    'scanner.wedgeScan': (p) => Promise.resolve(devices.wedgeScan(p.data)),
    'scanner.wedgeSettings': () => Promise.resolve(devices.wedgeSettings()),
  } satisfies HandlerSlice<'scanner'>;
}
