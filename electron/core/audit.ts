import type { AuditEntryView, Role } from '../../common/bridge/contract';
import type { Journal } from '../journal/journal';
import type { Actor } from '../roles/roles';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';

/**
 * The audit trail (PCI DSS 10.2): who did what, and who approved it, in the journal and the log. "Who" is
 * an employee (PCI DSS 10.2.1: actions traced to an individual), with their role as it was.
 */
export type Audit = {
  record: (who: Actor | 'system', action: string, detail: string, approvedBy?: Actor) => Promise<void>;
  list: (limit: number) => Promise<AuditEntryView[]>;
};

const named = (a: Actor): string => `${a.name} (${a.role})`;

export function createAudit(
  journal: Journal,
  clock: Clock,
  log: Logger,
  nameOf: (id: number | null) => string | undefined,
): Audit {
  return {
    async record(who, action, detail, approvedBy) {
      const role = who === 'system' ? 'system' : who.role;
      const employeeId = who === 'system' ? null : who.employeeId;
      // Audit details are built from ids and amounts only; maskCardData is the backstop.
      await journal.audit(
        clock.now(),
        role,
        action,
        log.mask(detail),
        approvedBy?.role ?? null,
        employeeId,
        approvedBy?.employeeId ?? null,
      );
      log.log(
        'info',
        'audit',
        `${who === 'system' ? 'system' : named(who)} ${action} ${detail}${approvedBy ? ` (approved by ${named(approvedBy)})` : ''}`,
      );
    },
    async list(limit) {
      return (await journal.auditList(limit)).map((a) => {
        const employeeName = nameOf(a.employeeId);
        const approvedByName = nameOf(a.approvedById);
        return {
          at: a.at,
          role: a.role as Role | 'system',
          action: a.action,
          detail: a.detail,
          ...(a.approvedBy ? { approvedBy: a.approvedBy as Role } : {}),
          ...(a.employeeId !== null ? { employeeId: a.employeeId } : {}),
          ...(employeeName !== undefined ? { employeeName } : {}),
          ...(a.approvedById !== null ? { approvedById: a.approvedById } : {}),
          ...(approvedByName !== undefined ? { approvedByName } : {}),
        };
      });
    },
  };
}
