import { readFileSync } from 'node:fs';
import { loadDisputes } from '../domain/disputes';
import { AdminError, requireString, type AdminCommand } from './command';

/** Loads the sandbox chargeback/retrieval feed (docs/gateway-tenders.md) for the Reporting group. */
export const disputeCommands: Record<string, AdminCommand> = {
  'load-disputes': {
    summary:
      'load chargeback and retrieval records (a JSON array) for the Reporting group; all or nothing, upserted by (mid, kind, recordId)',
    options: { file: { type: 'string', help: 'the JSON feed', required: true } },
    needsStorage: true,
    async run(args, { storage }) {
      if (!storage) throw new AdminError('load-disputes needs the database');
      const file = requireString(args, 'file');
      let feed: unknown;
      try {
        feed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      } catch (error) {
        throw new AdminError(
          `${file} is not readable JSON (${error instanceof Error ? error.name : 'error'})`,
        );
      }
      const result = await loadDisputes(storage, feed, new Date());
      if (!result.ok) {
        throw new AdminError(
          `nothing loaded; the feed has ${result.errors.length} problem(s):\n  ${result.errors.join('\n  ')}`,
        );
      }
      return { loaded: { chargebacks: result.chargebacks, retrievals: result.retrievals } };
    },
  },
};
