import type { CoreServices, HandlerSlice } from './services';

/**
 * The barcode scanner's commands. Scans themselves reach the screens as `scanner.scanned` events; these
 * are for keyboard-wedge scanners, whose keystrokes only a screen sees.
 */
export function scannerHandlers(s: CoreServices) {
  const { devices, engine } = s;
  return {
    'scanner.wedgeScan': (p) => Promise.resolve(devices.wedgeScan(p.data)),
    'scanner.wedgeSettings': () => Promise.resolve(devices.wedgeSettings()),
    'scanner.claim': (p) => {
      // The ticket of lines the lane is ringing takes the lane's scans: a window showing another (or
      // none) is told to follow it rather than start a second ticket beside it.
      const open = engine.current();
      if (open?.itemized && p.ticketId !== open.ticketId)
        return Promise.resolve({ claimed: false, ringing: open.ticketId });
      return Promise.resolve({ claimed: devices.claimScan(p.scanId) });
    },
  } satisfies HandlerSlice<'scanner'>;
}
