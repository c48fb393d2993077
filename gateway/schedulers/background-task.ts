/**
 * Work a route group runs in the background (recurring billing charges, automatic batch close). buildGateway
 * starts it once the routes are ready and stops it before storage closes, so a run never writes to a closed
 * database.
 */
export type BackgroundTask = {
  readonly name: string;
  /** Starts the task's timer. */
  start(): void;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
  /** One pass now, at the services' clock (tests drive it with a ManualClock). */
  runOnce(): Promise<void>;
};
