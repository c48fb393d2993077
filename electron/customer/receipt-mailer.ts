/**
 * Where the customer display's "Email" receipt choice goes: the lane's email receipt queue. The terminal
 * core is built without one until email receipts are set up (the SMTP queue and its bridge command land
 * separately); then core/wiring.ts hands its sender in here, and the customer display offers Email.
 * Without it the choice says email is not set up — never a pretend "sent".
 */
export type ReceiptMailer = {
  /** Queues the customer copy of a paid ticket for `address`; `queued: false` when the queue refused it. */
  send(ticketId: string, address: string): Promise<{ queued: boolean }>;
};
