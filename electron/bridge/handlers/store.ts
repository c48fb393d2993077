import type { DiscountLimitsView, StoreProfileView } from '../../../common/bridge/contract';
import { isExactRate } from '../../../common/percent';
import { hasControlCharacter } from '../../catalog/plain-text';
import { BridgeFailure } from '../../../common/bridge/failure';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

/** The store on its receipts (header and footer) and the discount limits: a manager's settings, audited. */
export function storeHandlers(s: CoreServices) {
  const { settings } = s;
  const { who } = createApprovals(s);
  return {
    'store.profile.get': () => Promise.resolve(settings.value.store),
    async 'store.profile.update'(p, ctx) {
      const profile: StoreProfileView = {
        storeName: p.storeName.trim(),
        addressLines: p.addressLines.map((l) => l.trim()).filter((l) => l !== ''),
        phone: p.phone.trim(),
        returnPolicy: p.returnPolicy.trim().replace(/\r\n?/g, '\n'),
      };
      const oneLine = [profile.storeName, profile.phone, ...profile.addressLines];
      // A line break in a header line would break the receipt; the return policy may have paragraphs.
      if (oneLine.some(hasControlCharacter) || hasControlCharacter(profile.returnPolicy.replace(/\n/g, ' ')))
        throw new BridgeFailure('invalid', 'The receipt lines cannot hold tabs or other control characters.');
      await settings.set('store', profile);
      await s.audit(
        who(ctx),
        'settings-changed',
        `receipt header and footer: ${profile.storeName || '(no name)'}`,
      );
      return profile;
    },
    'store.discountLimits.get': () => Promise.resolve(settings.value.discounts),
    async 'store.discountLimits.update'(p, ctx) {
      if (!isExactRate(p.maxLineDiscountPercent) || !isExactRate(p.maxTicketDiscountPercent))
        throw new BridgeFailure('invalid', 'A discount limit is 0 to 100 %, with at most four decimals.');
      const limits: DiscountLimitsView = {
        maxLineDiscountPercent: p.maxLineDiscountPercent,
        maxTicketDiscountPercent: p.maxTicketDiscountPercent,
        priceOverrideNeedsApproval: p.priceOverrideNeedsApproval,
      };
      await settings.set('discounts', limits);
      await s.audit(
        who(ctx),
        'settings-changed',
        `discount limits: line ${limits.maxLineDiscountPercent}%, ticket ${limits.maxTicketDiscountPercent}%, price override ${limits.priceOverrideNeedsApproval ? 'needs a manager' : 'free'}`,
      );
      return limits;
    },
    'store.locale.get': () => Promise.resolve(settings.value.locale),
    async 'store.locale.update'(p, ctx) {
      // The payload check admitted only the known locales and currencies (contract/store-profile.ts).
      const locale = { locale: p.locale, currency: p.currency };
      await settings.set('locale', locale);
      await s.audit(who(ctx), 'settings-changed', `store locale: ${locale.locale}, ${locale.currency}`);
      return locale;
    },
  } satisfies HandlerSlice<'store'>;
}
