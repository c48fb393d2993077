/**
 * A keyboard-wedge barcode scanner types into the focused window, so what reaches the core is not bytes
 * but finished scans: the screen that saw the keystrokes tells a scan from typing by its timing (the
 * wedge-scan rule shared by the core and the screens) and hands the scan's text over the bridge; in the
 * sandbox the simulated wedge's keystrokes go through the same rule in the core. This is where those scans
 * enter native: the scanner driver reads them like a serial scanner's lines.
 */
export type WedgeScanInput = {
  readonly label: string;
  readonly isOpen: boolean;
  /** One scan's text, without the scanner's prefix and suffix (an AIM identifier, if sent, stays). */
  pushScan(text: string): void;
  onScan(listener: (text: string) => void): () => void;
  onClose(listener: (reason: Error | undefined) => void): () => void;
  close(): Promise<void>;
};

export function createWedgeScanInput(label = 'keyboard-wedge-scanner'): WedgeScanInput {
  const scanListeners = new Set<(text: string) => void>();
  const closeListeners = new Set<(reason: Error | undefined) => void>();
  let open = true;
  return {
    label,
    get isOpen() {
      return open;
    },
    pushScan(text) {
      if (!open) return;
      for (const l of [...scanListeners]) l(text);
    },
    onScan(listener) {
      scanListeners.add(listener);
      return () => scanListeners.delete(listener);
    },
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
    close() {
      if (!open) return Promise.resolve();
      open = false;
      for (const l of [...closeListeners]) l(undefined);
      scanListeners.clear();
      closeListeners.clear();
      return Promise.resolve();
    },
  };
}
