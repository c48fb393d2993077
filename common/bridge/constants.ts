/** Bumped when a change is not backwards compatible (never so far). */
export const BRIDGE_CONTRACT_VERSION = 1;

/** The global the Electron preload exposes (`window.tillpoint`). */
export const BRIDGE_GLOBAL = 'tillpoint';

/**
 * Browser mode: the `<meta name=...>` in the served index.html holding the WebSocket URL (no secret: the
 * page is readable by any local process; see ClientMessage `hello`).
 */
export const BRIDGE_META_NAME = 'tillpoint-bridge';

/** Browser mode: the fragment parameter of the launch URL carrying the one-time token (`/#launch=…`). */
export const BRIDGE_LAUNCH_PARAM = 'launch';

/** Browser mode: where the window keeps its page key (sessionStorage: this tab, this origin only). */
export const BRIDGE_PAGE_KEY_STORAGE = 'tillpoint.pageKey';

/** Browser mode: the WebSocket path on the terminal's loopback port. */
export const BRIDGE_WS_PATH = '/bridge';

/** Electron: the IPC channel of a call (renderer → main, answered) and of an event (main → renderer). */
export const IPC_CALL_CHANNEL = 'tillpoint:call';
export const IPC_EVENT_CHANNEL = 'tillpoint:event';

/** The terminal's roles (docs/decisions.md#roles): the one list every other place reads. */
export const ROLES = ['cashier', 'manager', 'tech'] as const;

/** The roles a device plays on the lane: the one list every other place reads. */
export const DEVICE_ROLES = [
  'cardReader',
  'pinPad',
  'contactless',
  'signaturePad',
  'receiptPrinter',
  'scanner',
  'poleDisplay',
] as const;

/**
 * The kinds of bridge connection. `terminal`: the cashier's, manager's and tech's screens and tools (roles
 * decide). `customer-display`: the customer-facing display, which receives only the customer's events and
 * may call only the `customer.*` commands (docs/bridge.md "Customer display").
 */
export const CONNECTION_KINDS = ['terminal', 'customer-display'] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];

/** The events a customer display receives: the customer's view, nothing else. */
export const CUSTOMER_DISPLAY_EVENTS = ['customer.updated'] as const;

/** The page path of the customer display (its launch address: `/customer#launch=…`). */
export const CUSTOMER_DISPLAY_PATH = '/customer';

/** Browser mode: `POST /launch?for=customer-display` asks for a customer display's launch address. */
export const CUSTOMER_DISPLAY_LAUNCH_QUERY = 'customer-display';
