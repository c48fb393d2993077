import type { DeviceHealth, Unsubscribe } from './roles';
import type { Timers } from './timers';

/**
 * What the device manager needs from every driver besides its role API: health, an optional heartbeat,
 * a signal that the transport went away (so it can reconnect), and close.
 */
export type DriverLifecycle = {
  health(): DeviceHealth;
  /**
   * Asks the device whether it is alive, where the protocol has a way (ViVOpay ping, ESC/POS DLE EOT,
   * MagTek GET_PROPERTY). Rejects when it does not answer. Absent when the protocol has none (VeriFone
   * packet pads and serial swipe readers only speak when spoken to about a transaction).
   */
  heartbeat?: () => Promise<void>;
  /** Fires once when the transport closes for any reason other than `close()`. */
  onDisconnect(listener: (reason: Error | undefined) => void): Unsubscribe;
  close(): Promise<void>;
};

/** Per-driver health bookkeeping: connected while the transport is open, last byte time, last error. */
export class HealthTracker {
  private readonly timers: Timers;
  private open = true;
  private failing = false;
  private lastError: string | undefined;
  private lastSeenAt: number | undefined;

  constructor(timers: Timers) {
    this.timers = timers;
  }

  /** Any byte from the device proves it is there. */
  seen(): void {
    this.lastSeenAt = this.timers.now();
    this.failing = false;
  }

  /** A problem worth showing; `failing` marks the device as not answering (state `error`). */
  error(message: string, failing = false): void {
    this.lastError = message;
    if (failing) this.failing = true;
  }

  closed(reason: Error | undefined): void {
    this.open = false;
    if (reason) this.lastError = reason.message;
  }

  get isOpen(): boolean {
    return this.open;
  }

  snapshot(detail?: Readonly<Record<string, string | number | boolean>>): DeviceHealth {
    const h: DeviceHealth = { state: !this.open ? 'missing' : this.failing ? 'error' : 'connected' };
    if (this.lastError !== undefined) h.lastError = this.lastError;
    if (this.lastSeenAt !== undefined) h.lastSeenAt = this.lastSeenAt;
    if (detail) h.detail = detail;
    return h;
  }
}
