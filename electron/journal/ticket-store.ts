import type Database from 'better-sqlite3';

export type TicketRecord = {
  ticketId: string;
  status: string;
  data: string;
  openedAt: number;
  closedAt: number | null;
};

/** The `tickets` table: the cashier's open tickets, kept across a restart. */
export class TicketStore {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      saveTicket: db.prepare(
        `INSERT INTO tickets (ticket_id, status, data, opened_at, closed_at) VALUES (@ticketId, @status, @data, @openedAt, @closedAt)
         ON CONFLICT (ticket_id) DO UPDATE SET status = excluded.status, data = excluded.data, closed_at = excluded.closed_at`,
      ),
      getTicket: db.prepare<[string], SqlTicket>('SELECT * FROM tickets WHERE ticket_id = ?'),
      openTickets: db.prepare<[], SqlTicket>(
        "SELECT * FROM tickets WHERE status = 'open' ORDER BY opened_at",
      ),
    };
  }

  saveTicket(t: TicketRecord): void {
    this.stmt.saveTicket.run(t);
  }

  getTicket(ticketId: string): TicketRecord | undefined {
    const r = this.stmt.getTicket.get(ticketId);
    return r ? toTicket(r) : undefined;
  }

  openTickets(): TicketRecord[] {
    return this.stmt.openTickets.all().map(toTicket);
  }
}

type SqlTicket = {
  ticket_id: string;
  status: string;
  data: string;
  opened_at: number;
  closed_at: number | null;
};

function toTicket(r: SqlTicket): TicketRecord {
  return {
    ticketId: r.ticket_id,
    status: r.status,
    data: r.data,
    openedAt: r.opened_at,
    closedAt: r.closed_at,
  };
}
