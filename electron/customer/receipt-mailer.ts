import type { Language } from '../../common/store-locale';
import type { EmailReceipts } from '../email/email-receipts';
import type { EmailSettings } from '../email/email-settings';

/**
 * Where the customer display's "Email" receipt choice goes: the lane's emailed-receipt queue
 * (email/email-receipts.ts), the same one the cashier's receipt screen uses. Email is offered only while
 * the store's mail server is set up — never a pretend "sent".
 */
export type ReceiptMailer = {
  /** The store's mail server is set up: the customer display may offer Email. */
  available(): boolean;
  /**
   * Queues the customer copy of a paid ticket for `address`, in `language` when the customer display
   * speaks one (else the store's); answers once queued, never after SMTP.
   */
  send(ticketId: string, address: string, language?: Language): Promise<{ queued: boolean }>;
};

export function emailQueueMailer(
  receipts: Pick<EmailReceipts, 'queueReceipt'>,
  settings: Pick<EmailSettings, 'configured'>,
): ReceiptMailer {
  return {
    available: () => settings.configured(),
    async send(ticketId, address, language) {
      // The queue's refusals (address, not set up, five per receipt) reach the customer in its words.
      await receipts.queueReceipt({ ticketId, to: address, ...(language ? { language } : {}) });
      return { queued: true };
    },
  };
}
