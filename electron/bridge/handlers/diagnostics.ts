import type { CoreServices, HandlerSlice } from './services';

/** The audit trail and the diagnostics bundle. */
export function diagnosticsHandlers(s: CoreServices) {
  return {
    'audit.list': (p) => s.auditList(Math.min(p.limit ?? 200, 5000)),
    'diagnostics.bundle': () => s.diagnostics(),
  } satisfies HandlerSlice<'audit' | 'diagnostics'>;
}
