import type { CoreServices, HandlerSlice } from './services';

/** The reversal queue. */
export function reversalHandlers(s: CoreServices) {
  const { journal } = s;
  return {
    'reversals.get': () => s.reversalView(),
    async 'reversals.retryNow'() {
      await journal.retryReversalsNow(s.clock.now());
      s.reversals.kick();
      return s.reversalView();
    },
  } satisfies HandlerSlice<'reversals'>;
}
