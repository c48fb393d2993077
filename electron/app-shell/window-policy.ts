/**
 * The Electron security baseline as plain decisions, so they hold without Electron and a test can run them
 * (only main.ts imports `electron`; it applies these to the real objects). Sources: Electron's security
 * checklist (context isolation, sandbox, no Node in the page, CSP, no navigation, no new windows,
 * permissions denied, IPC sender validated).
 */

/**
 * The window's web preferences. The renderer is a web page with one bridge object: no Node, no
 * `<webview>`, no remote content, no insecure mixing. Electron's defaults already match most of these;
 * stating them keeps a future default change (or a copied snippet) from loosening them silently.
 */
export function secureWebPreferences(preload: string) {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
  } as const;
}

/**
 * Whether `url` belongs to the terminal's own loopback origin (`http://127.0.0.1:PORT`). Parsed, not
 * prefix-matched: `http://127.0.0.1:80@evil.example/` or a longer port must not pass. No origin yet
 * (the server is not up) means nothing is ours.
 */
export function isAppUrl(url: string, origin: string | undefined): boolean {
  if (!origin) return false;
  try {
    const parsed = new URL(url);
    return parsed.origin === origin && parsed.username === '' && parsed.password === '';
  } catch {
    return false;
  }
}

/** What main.ts knows about an IPC call's sender, read off the Electron event. */
export type IpcSenderFacts = {
  /** The sender is the terminal window's own webContents (not another window, not a devtools page). */
  fromTerminalWindow: boolean;
  /** The calling frame is that window's top frame (not an iframe an attacker could inject). */
  fromMainFrame: boolean;
  /** The calling frame's URL, when Electron still has the frame. */
  frameUrl: string | undefined;
};

/** Only the terminal window's top frame, on the terminal's own origin, may call the core. */
export function isTrustedSender(facts: IpcSenderFacts, origin: string | undefined): boolean {
  return (
    facts.fromTerminalWindow &&
    facts.fromMainFrame &&
    facts.frameUrl !== undefined &&
    isAppUrl(facts.frameUrl, origin)
  );
}

/**
 * The answer a refused IPC call gets: the bridge's own error shape (docs/bridge.md), so the renderer's
 * code path is the same as for any other refusal.
 */
export const forbiddenCall = {
  ok: false,
  error: { code: 'forbidden', message: 'Calls come only from the terminal window.' },
} as const;

/**
 * Permissions the page may have: none. Devices (card readers, PIN pads, printers) are driven by the core
 * over serial/HID, never by the page through WebHID/WebSerial/WebUSB; the terminal needs no camera,
 * microphone, notifications or geolocation.
 */
export function permissionAllowed(_permission: string): boolean {
  return false;
}

/** Window options for a counter in kiosk mode: the whole screen, no menu bar, no window chrome. */
export function kioskWindowOptions(kiosk: boolean) {
  return kiosk
    ? ({ kiosk: true, fullscreen: true, autoHideMenuBar: true, frame: false } as const)
    : ({ kiosk: false, fullscreen: false, autoHideMenuBar: false } as const);
}

/** A display as Electron's `screen` describes it (the parts the customer display's window needs). */
export type DisplayFacts = { id: number; bounds: { x: number; y: number; width: number; height: number } };

/**
 * Where the customer display's window goes: the first attached display that is not the primary one (the
 * cashier's). None with a single screen: the pole display, or a browser pointed at the customer display's
 * address, serves the customer then.
 */
export function customerDisplayBounds(
  displays: readonly DisplayFacts[],
  primaryId: number,
): DisplayFacts['bounds'] | undefined {
  return displays.find((d) => d.id !== primaryId)?.bounds;
}

/**
 * The customer display's window: the whole second screen, no frame or menu (nothing for a customer to
 * close or navigate), the same web preferences as the terminal window.
 */
export function customerWindowOptions(bounds: DisplayFacts['bounds'], preload: string) {
  return {
    ...bounds,
    title: 'Tillpoint customer display',
    show: false,
    frame: false,
    fullscreen: true,
    autoHideMenuBar: true,
    backgroundColor: '#ffffff',
    webPreferences: secureWebPreferences(preload),
  } as const;
}

/**
 * Which bridge connection an IPC call opens: the terminal window's top frame is a terminal connection, the
 * customer display window's a customer display's (the customer's view and commands only); anything else —
 * another window, a subframe, a foreign origin — none (refused with `forbiddenCall`).
 */
export function ipcConnectionKind(
  facts: IpcSenderFacts & { fromCustomerWindow: boolean },
  origin: string | undefined,
): 'terminal' | 'customer-display' | undefined {
  if (!facts.fromMainFrame || facts.frameUrl === undefined || !isAppUrl(facts.frameUrl, origin))
    return undefined;
  if (facts.fromTerminalWindow) return 'terminal';
  if (facts.fromCustomerWindow) return 'customer-display';
  return undefined;
}
