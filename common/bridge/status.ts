import type { DeviceStatusView } from './devices';
import type { GatewayStatusView } from './gateway';
import type { Role, Session } from './session';
import type { StoreLocaleView } from './store-profile';

export type TerminalStatusView = {
  laneId: string;
  mid: number;
  cid: number;
  sandbox: boolean;
  version: string;
  contractVersion: number;
  session: Session | null;
  gateway: GatewayStatusView;
  reversals: { pending: number };
  saf: { enabled: boolean; exposureCents: number; count: number };
  devices: DeviceStatusView[];
  /** The last ticket still open on this lane (e.g. after a restart). */
  openTicketId?: string;
  /**
   * The store's IANA time zone: the merchant's as the gateway keeps it, else the machine's. Every time a
   * person reads is shown in it (common/store-time.ts).
   */
  timeZone?: string;
  /**
   * A ticket the last restart found paid (its tender's answer was lost in the stop and the gateway
   * confirmed the approval): the sale screen shows its outcome, so nobody charges the customer again.
   * Reported until the lane opens its next ticket.
   */
  recoveredTicketId?: string;
  /** A tender is running on this lane (a device wait or an authorization): the sign-in screen says so. */
  paymentRunning?: boolean;
  /** The time clock is on: the sign-in screen offers Clock in and Clock out. */
  timeClock?: boolean;
  /**
   * The store's locale and currency: a window that has not chosen its own language speaks the store's
   * (the sign-in screen included), and every amount is in the store's currency.
   */
  locale?: StoreLocaleView;
};

export type AuditEntryView = {
  at: number;
  role: Role | 'system';
  action: string;
  /** No card data, ever. */
  detail: string;
  approvedBy?: Role;
  /** The employee who did it (absent for the terminal itself and for lines from before employees). */
  employeeId?: number;
  employeeName?: string;
  /** The manager who approved it, when another employee's approval was needed. */
  approvedById?: number;
  approvedByName?: string;
};

export type DiagnosticsBundle = {
  fileName: string;
  /** JSON text: status, settings (no secrets), device status and frames, journal summary, logs (masked). */
  json: string;
};
