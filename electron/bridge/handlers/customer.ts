import { BridgeFailure } from '../../../common/bridge/failure';
import type { CoreServices, HandlerSlice } from './services';

/**
 * The customer display's commands (its connection kind admits them, nothing else does) and the cashier's
 * about it. The customer's answers are taken only while the core asks (electron/customer/customer-display.ts).
 */
export function customerHandlers(s: CoreServices) {
  const { customer } = s;
  return {
    'customer.view': () => Promise.resolve(customer.view()),
    'customer.tip': (p) => customer.tip(p.ticketId, p.choice),
    'customer.signature': (p) => customer.signature(p.ticketId, p.tenderId, p.signature),
    'customer.receipt': (p) => customer.receipt(p.ticketId, p.choice, p.email, p.language),
    'customerDisplay.get': () => Promise.resolve(customer.view()),
    'customerDisplay.launch': () => {
      const url = s.customerDisplayUrl();
      if (!url)
        return Promise.reject(
          new BridgeFailure('unavailable', 'This terminal serves no customer display address.'),
        );
      return Promise.resolve({ url });
    },
    'customerDisplay.askTip': (p) => customer.askTip(p.ticketId),
    'customerDisplay.endTipAsk': (p) => customer.endTipAsk(p.ticketId, p.action),
  } satisfies HandlerSlice<'customer' | 'customerDisplay'>;
}
