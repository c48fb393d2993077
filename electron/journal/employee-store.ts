import type Database from 'better-sqlite3';

export type PinState = 'own' | 'one-time' | 'demo' | 'legacy' | 'none';

/** An employee as the journal keeps them (migration 008); never a PIN, only its keyed digest. */
export type EmployeeRow = {
  id: number;
  name: string;
  role: string;
  active: boolean;
  pinLookup: string | null;
  pinState: PinState;
  pinLegacy: string | null;
  pinExpiresAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** When the employee's open shift began; null when clocked out. */
  clockedInAt: number | null;
};

export type EmployeePin = {
  lookup: string | null;
  state: PinState;
  legacy: string | null;
  expiresAt: number | null;
};

/** The `employees` and `shifts` tables: the store's people, their PIN digests and their time clock. */
export class EmployeeStore {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      // One row per person the store ever employed: read whole (the roles keep them in memory).
      employees: db.prepare<[], SqlEmployee>(
        `SELECT e.*, s.in_at AS clocked_in_at FROM employees e
         LEFT JOIN shifts s ON s.employee_id = e.id AND s.out_at IS NULL ORDER BY e.id`,
      ),
      addEmployee: db.prepare(
        `INSERT INTO employees (name, role, active, pin_lookup, pin_state, pin_legacy, pin_expires_at, created_at, updated_at)
         VALUES (@name, @role, 1, @lookup, @state, NULL, @expiresAt, @now, @now)`,
      ),
      updateEmployee: db.prepare(
        `UPDATE employees SET name = coalesce(@name, name), role = coalesce(@role, role),
           active = coalesce(@active, active), updated_at = @now WHERE id = @id`,
      ),
      setEmployeePin: db.prepare(
        `UPDATE employees SET pin_lookup = @lookup, pin_state = @state, pin_legacy = @legacy,
           pin_expires_at = @expiresAt, updated_at = @now WHERE id = @id`,
      ),
      clockIn: db.prepare('INSERT INTO shifts (employee_id, in_at) VALUES (?, ?)'),
      clockOut: db.prepare('UPDATE shifts SET out_at = ? WHERE employee_id = ? AND out_at IS NULL'),
    };
  }

  employees(): EmployeeRow[] {
    return this.stmt.employees.all().map(toEmployee);
  }

  /** Adds an employee; answers their id. `pin.lookup` is UNIQUE: a PIN someone holds is refused here too. */
  addEmployee(e: { name: string; role: string; pin: EmployeePin; now: number }): number {
    const r = this.stmt.addEmployee.run({
      name: e.name,
      role: e.role,
      lookup: e.pin.lookup,
      state: e.pin.state,
      expiresAt: e.pin.expiresAt,
      now: e.now,
    });
    return Number(r.lastInsertRowid);
  }

  updateEmployee(id: number, patch: { name?: string; role?: string; active?: boolean }, now: number): void {
    this.stmt.updateEmployee.run({
      id,
      name: patch.name ?? null,
      role: patch.role ?? null,
      active: patch.active === undefined ? null : patch.active ? 1 : 0,
      now,
    });
  }

  setEmployeePin(id: number, pin: EmployeePin, now: number): void {
    this.stmt.setEmployeePin.run({
      id,
      lookup: pin.lookup,
      state: pin.state,
      legacy: pin.legacy,
      expiresAt: pin.expiresAt,
      now,
    });
  }

  /** Opens a shift; the partial unique index refuses a second open one. */
  clockIn(employeeId: number, now: number): void {
    this.stmt.clockIn.run(employeeId, now);
  }

  /** Closes the employee's open shift; answers whether there was one. */
  clockOut(employeeId: number, now: number): boolean {
    return this.stmt.clockOut.run(now, employeeId).changes > 0;
  }
}

type SqlEmployee = {
  id: number;
  name: string;
  role: string;
  active: number;
  pin_lookup: string | null;
  pin_state: PinState;
  pin_legacy: string | null;
  pin_expires_at: number | null;
  created_at: number;
  updated_at: number;
  clocked_in_at: number | null;
};

function toEmployee(r: SqlEmployee): EmployeeRow {
  return {
    id: r.id,
    name: r.name,
    role: r.role,
    active: r.active === 1,
    pinLookup: r.pin_lookup,
    pinState: r.pin_state,
    pinLegacy: r.pin_legacy,
    pinExpiresAt: r.pin_expires_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    clockedInAt: r.clocked_in_at,
  };
}
