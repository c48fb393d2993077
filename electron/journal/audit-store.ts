import type Database from 'better-sqlite3';

export type AuditRow = {
  id: number;
  at: number;
  role: string;
  action: string;
  detail: string;
  approvedBy: string | null;
  employeeId: number | null;
  approvedById: number | null;
};

/** The `audit` table: who did what, and who approved it (PCI DSS 10.2). */
export class AuditStore {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      audit: db.prepare(
        'INSERT INTO audit (at, role, action, detail, approved_by, employee_id, approved_by_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      auditList: db.prepare<[number], SqlAudit>('SELECT * FROM audit ORDER BY id DESC LIMIT ?'),
    };
  }

  audit(
    at: number,
    role: string,
    action: string,
    detail: string,
    approvedBy: string | null,
    employeeId: number | null = null,
    approvedById: number | null = null,
  ): void {
    this.stmt.audit.run(at, role, action, detail, approvedBy, employeeId, approvedById);
  }

  auditList(limit: number): AuditRow[] {
    return this.stmt.auditList.all(Math.max(1, Math.min(limit, 5000))).map((a) => ({
      id: a.id,
      at: a.at,
      role: a.role,
      action: a.action,
      detail: a.detail,
      approvedBy: a.approved_by,
      employeeId: a.employee_id,
      approvedById: a.approved_by_id,
    }));
  }
}

type SqlAudit = {
  id: number;
  at: number;
  role: string;
  action: string;
  detail: string;
  approved_by: string | null;
  employee_id: number | null;
  approved_by_id: number | null;
};
