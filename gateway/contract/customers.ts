import { Type, type Static } from 'typebox';
import { Int32, withBase } from './common';
import { endpoint } from './endpoint';
import { EnvelopeOnlyRequest } from './transactions';

/** The customer record of the interface (records created by SaveCustomer and by recurring billings). */
export const CustomerRecord = Type.Object({
  Id: Int32({ description: 'the gateway id (CustomerId of a sale response)' }),
  MID: Int32(),
  CustomerId: Type.String({
    description: "the merchant's own reference (a sale's CustomerId), may be empty",
  }),
  FirstName: Type.String(),
  LastName: Type.String(),
  Email: Type.String(),
  Phone: Type.String(),
  City: Type.String(),
  State: Type.String(),
  Country: Type.String(),
  Invoice: Type.String(),
  PO: Type.String(),
  CustomerSource: Type.String({
    description: 'the Source of the request that saved it (ApiClient by default)',
  }),
  Status: Int32({ description: '1 = active' }),
  AddedOn: Type.String({ format: 'date-time' }),
  CreateDate: Type.String({ description: 'YYYY-MM-DD of AddedOn' }),
});
export type CustomerRecord = Static<typeof CustomerRecord>;

export const CustomersResponse = withBase({ Customers: Type.Array(CustomerRecord) });
export type CustomersResponse = Static<typeof CustomersResponse>;

const group = 'Customers';

export const customerEndpoints = {
  customers: endpoint({
    method: 'POST',
    path: '/api/Customers',
    group,
    summary: "The merchant's customer records",
    auth: 'envelope',
    body: EnvelopeOnlyRequest,
    response: CustomersResponse,
  }),
  getByMerchant: endpoint({
    method: 'POST',
    path: '/api/Customers/GetByMerchant',
    group,
    summary: "The merchant's customer records (same list as /api/Customers)",
    auth: 'envelope',
    body: EnvelopeOnlyRequest,
    response: CustomersResponse,
  }),
};
