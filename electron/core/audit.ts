import type { AuditEntryView, Role } from '../bridge/contract';
import type { Journal } from '../journal/journal';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';

/** The audit trail (PCI DSS 10.2): who did what, and who approved it, in the journal and the log. */
export type Audit = {
  record: (who: Role | 'system', action: string, detail: string, approvedBy?: Role) => Promise<void>;
  list: (limit: number) => Promise<AuditEntryView[]>;
};

export function createAudit(journal: Journal, clock: Clock, log: Logger): Audit {
  return {
    async record(who, action, detail, approvedBy) {
      // Audit details are built from ids and amounts only; maskCardData is the backstop.
      await journal.audit(clock.now(), who, action, log.mask(detail), approvedBy ?? null);
      log.log(
        'info',
        'audit',
        `${who} ${action} ${detail}${approvedBy ? ` (approved by ${approvedBy})` : ''}`,
      );
    },
    async list(limit) {
      return (await journal.auditList(limit)).map((a) => ({
        at: a.at,
        role: a.role as Role | 'system',
        action: a.action,
        detail: a.detail,
        ...(a.approvedBy ? { approvedBy: a.approvedBy as Role } : {}),
      }));
    },
  };
}
