import type { FastifyInstance } from 'fastify';
import { customerEndpoints as ep, type CustomerRecord } from '../contract/customers';
import { merchantCustomerRows, type CustomerRow } from '../domain/customers';
import { success } from '../domain/outcome';
import { implement, type OperationContext } from '../http/operation';
import type { GatewayServices } from '../http/services';

function customerRecord(c: CustomerRow): CustomerRecord {
  return {
    Id: c.id,
    MID: c.mid,
    CustomerId: c.customer_ref,
    FirstName: c.first_name,
    LastName: c.last_name,
    Email: c.email,
    Phone: c.phone,
    City: c.city,
    State: c.state,
    Country: c.country,
    Invoice: c.invoice,
    PO: c.po,
    CustomerSource: c.source,
    Status: c.status,
    AddedOn: c.added_on,
    CreateDate: c.added_on.slice(0, 10),
  };
}

/** The customers SaveCustomer (and recurring billings) created, of the authenticated merchant only. */
async function merchantCustomers(ctx: OperationContext) {
  const rows = await merchantCustomerRows(ctx.services.storage.read, ctx.principal.mid);
  return { ...success(), Customers: rows.map(customerRecord) };
}

export function registerCustomerRoutes(app: FastifyInstance, services: GatewayServices): void {
  implement(app, services, ep.customers, { handle: (_c, ctx) => merchantCustomers(ctx) });
  implement(app, services, ep.getByMerchant, { handle: (_c, ctx) => merchantCustomers(ctx) });
}
