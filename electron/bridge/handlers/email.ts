import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

/** Emailed receipts: the cashier queues one; the manager sets the mail server, tests it, and sees the queue. */
export function emailHandlers(s: CoreServices) {
  const { email } = s;
  const { who } = createApprovals(s);
  return {
    'email.receipt': (p) => email.receipts.queueReceipt(p),
    'email.settings.get': () => Promise.resolve(email.settings.view()),
    async 'email.settings.set'(p, ctx) {
      const { view, changed } = await email.settings.update(p);
      // Which fields changed, never their values: the password is a secret, the rest is the manager's to see.
      if (changed.length > 0)
        await s.audit(who(ctx), 'email-settings', `email settings: ${changed.join(', ')}`);
      await email.receipts.settingsChanged();
      return view;
    },
    'email.test': (p) => email.receipts.test(p.to),
    'email.queue.get': (p) => email.receipts.view(p.limit),
    'email.queue.retry': (p) => email.receipts.retry(p.id),
  } satisfies HandlerSlice<'email'>;
}
