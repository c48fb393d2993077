import { merchant1, postFrom, type Json, type TestGateway } from '../../support/gateway-harness';

type Credentials = {
  AppKey: string;
  AppType: number;
  mid: number;
  cid: number;
  UserName: string;
  Password: string;
};

/** Payment Links GET: the envelope as `request.`-prefixed query parameters, plus filters. */
export function linksQuery(
  merchant: Credentials,
  filters: Record<string, string | number | boolean> = {},
): string {
  const p = new URLSearchParams({
    'request.appKey': merchant.AppKey,
    'request.appType': String(merchant.AppType),
    'request.mid': String(merchant.mid),
    'request.cid': String(merchant.cid),
    'request.userName': merchant.UserName,
    'request.password': merchant.Password,
  });
  for (const [k, v] of Object.entries(filters)) p.set(`request.paymentLink.${k}`, String(v));
  return `/api/PaymentLinks?${p.toString()}`;
}

export async function createLink(
  gw: TestGateway,
  link: Json = {},
  merchant: Credentials = merchant1,
): Promise<Json> {
  const r = await gw.post('/api/PaymentLinks', { ...merchant, PaymentLink: link });
  if (r.body.ResponseCode !== 200) throw new Error(`link not created: ${JSON.stringify(r.body.Msg)}`);
  return r.body.PaymentLink as Json;
}

export async function put(
  gw: TestGateway,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Json }> {
  const res = await fetch(gw.baseUrl + path, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** Pays a link's hosted checkout as its page's script does (JSON POST to the link). */
export async function payCheckout(
  gw: TestGateway,
  link: Json,
  body: Json,
): Promise<{ status: number; text: string; body: Json }> {
  const url = new URL(String(link.Link));
  const res = await fetch(gw.baseUrl + url.pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Json };
}

/** The same checkout post from a given loopback address (127.0.0.x): a payer, or a tester, elsewhere. */
export async function payCheckoutFrom(
  gw: TestGateway,
  address: string,
  link: Json,
  body: Json,
): Promise<{ status: number; body: Json }> {
  return postFrom(gw.baseUrl, address, new URL(String(link.Link)).pathname, body);
}

export const sandboxCard = {
  CardNumber: '4111111111111111',
  ExpDate: '12/30',
  CVN: '123',
  NameOnCard: 'Ada Lovelace',
  ZipCode: '10001',
};

export async function reportOf(gw: TestGateway, merchant: Credentials = merchant1): Promise<Json[]> {
  const r = await gw.post('/api/Report/GetReportByMerchant', merchant);
  return r.body.Transactions as Json[];
}

/** 2030-01-10 10:00 in New York (merchant 1001). */
export const NOW = new Date('2030-01-10T15:00:00Z');

/** A Create body for merchant 1 (override anything; undefined removes a field). */
export function billing(overrides: Json = {}): Json {
  return {
    ...merchant1,
    Amount: 19.99,
    FrequencyId: 4,
    InstallmentTotal: 0,
    IsInstallment: false,
    StartDate: '2030-01-15T00:00:00-05:00',
    Account: '4111111111111111',
    ExpDate: '12/35',
    FirstName: 'Grace',
    LastName: 'Hopper',
    Email: 'grace@example.com',
    City: 'Arlington',
    Description: 'Gym membership',
    ...overrides,
  };
}
