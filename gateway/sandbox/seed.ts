import type { Queryable, Storage } from '../storage/queryable';
import { hashPassword } from '../security/password';
import { loadDisputes, type DisputeRecord } from '../domain/disputes';

export const SANDBOX_APP_KEY = 'sandbox-app-key';
export const SANDBOX_APP_TYPE = 1;

/**
 * The real service's published demo credentials. Its clients' test modes send them unchanged (the
 * shopping-cart plugin's does), so the sandbox opens a merchant of its own with them. The password is
 * public: it exists only in sandbox databases (`addDemoMerchant`).
 */
export const DEMO_APP_KEY = '12345';
export const DEMO_APP_TYPE = 1;
export const DEMO_MID = 76074;

/** The sandbox's applications: every sandbox user may call through either. */
export const sandboxApplications = [
  { appKey: SANDBOX_APP_KEY, appType: SANDBOX_APP_TYPE, name: 'Sandbox application' },
  { appKey: DEMO_APP_KEY, appType: DEMO_APP_TYPE, name: 'Published demo application' },
] as const;

/** The sandbox's demo data (README "Sandbox credentials"); tests and clients may rely on it. */
export const sandboxMerchants = [
  {
    mid: 1001,
    name: 'Tillpoint Demo Store',
    cid: 1,
    userName: 'sandbox',
    password: 'sandbox-pass',
    tokenLookup: true,
    timeZone: 'America/New_York',
  },
  {
    mid: 1002,
    name: 'Tillpoint Demo Cafe',
    cid: 2,
    userName: 'sandbox2',
    password: 'sandbox2-pass',
    // Its credit processor does not support token lookups: the 300 / OPERATION_NOT_SUPPORTED path.
    tokenLookup: false,
    timeZone: 'America/Chicago',
  },
  {
    mid: DEMO_MID,
    name: 'Published Demo Merchant',
    cid: 260,
    userName: 'nicolas',
    password: 'password1',
    tokenLookup: true,
    // A zone of its own: its automatic batch close (17:00 local) never coincides with merchant 1001's.
    timeZone: 'America/Los_Angeles',
  },
] as const;

type SandboxMerchant = (typeof sandboxMerchants)[number];

export type NewMerchant = {
  mid: number;
  name: string;
  timeZone: string;
  creditProcessor: string;
  tokenLookup: boolean;
};

/** The merchant row and its business settings, inside a unit of work. */
export async function insertMerchant(tx: Queryable, m: NewMerchant, now: string): Promise<void> {
  await tx.run(
    tx.qb.insertInto('merchants').values({
      mid: m.mid,
      name: m.name,
      time_zone: m.timeZone,
      credit_processor: m.creditProcessor,
      token_lookup_supported: m.tokenLookup ? 1 : 0,
      created_at: now,
    }),
  );
  await tx.run(
    tx.qb.insertInto('business_settings').values({
      mid: m.mid,
      card_difference_enabled: 0,
      card_difference_percent_bp: 0,
      surcharge_enabled: 0,
      surcharge_percent_bp: 0,
      three_ds_enabled: 0,
    }),
  );
}

export async function createMerchant(storage: Storage, m: NewMerchant, now: string): Promise<void> {
  await storage.write((tx) => insertMerchant(tx, m, now));
}

export async function createApplication(
  storage: Storage,
  appKey: string,
  appType: number,
  name: string,
): Promise<void> {
  await storage.write((tx) =>
    tx.run(tx.qb.insertInto('applications').values({ app_key: appKey, app_type: appType, name })),
  );
}

async function insertUser(
  tx: Queryable,
  mid: number,
  userName: string,
  hash: string,
  now: string,
): Promise<number> {
  const row = await tx.first(
    tx.qb
      .insertInto('users')
      .values({ user_name: userName, password_hash: hash, mid, disabled: 0, created_at: now })
      .returning('id'),
  );
  if (!row) throw new Error('user insert returned no id');
  return row.id;
}

export async function createUser(
  storage: Storage,
  mid: number,
  userName: string,
  password: string,
  now: string,
): Promise<number> {
  // Hashed before the unit of work: scrypt is slow on purpose and must not hold a transaction open.
  const hash = await hashPassword(password);
  return storage.write((tx) => insertUser(tx, mid, userName, hash, now));
}

function insertCashier(tx: Queryable, mid: number, cid: number, first: string, last: string, now: string) {
  return tx.run(
    tx.qb.insertInto('cashiers').values({
      mid,
      cid,
      first_name: first,
      last_name: last,
      description: `Cashier ${cid}`,
      is_enable: 1,
      can_sale: 1,
      created_at: now,
    }),
  );
}

export async function createCashier(
  storage: Storage,
  mid: number,
  cid: number,
  first: string,
  last: string,
  now: string,
): Promise<void> {
  await storage.write((tx) => insertCashier(tx, mid, cid, first, last, now));
}

/** True when the database has no merchant yet. */
export async function isEmpty(q: Storage | Queryable): Promise<boolean> {
  const r = 'read' in q ? q.read : q;
  const row = await r.first(r.qb.selectFrom('merchants').select('mid').limit(1));
  return row === undefined;
}

/**
 * Seeds the demo merchants into an empty database, all or nothing, once: several gateway processes
 * starting together on one PostgreSQL database take turns on the lock, and only the first finds it empty.
 * Returns whether this call seeded.
 */
export async function seedSandbox(storage: Storage, processorName: string, now: Date): Promise<boolean> {
  const iso = now.toISOString();
  const hashes = await Promise.all(sandboxMerchants.map((m) => hashPassword(m.password)));
  const seeded = await storage.write(async (tx) => {
    await tx.lock('sandbox:seed');
    if (!(await isEmpty(tx))) return false;
    for (const a of sandboxApplications) await insertApplication(tx, a);
    for (const [i, m] of sandboxMerchants.entries()) {
      await insertSandboxMerchant(tx, m, hashes[i] ?? '', processorName, iso);
    }
    return true;
  });
  if (seeded) await loadDemoDisputes(storage, now);
  return seeded;
}

/**
 * The demo merchant's history for the Reporting group: a chargeback and a retrieval request reported on
 * the 15th of the month before the seed, so its chargeback reports have rows and a completed month with
 * activity gives it a monthly statement (GetMerchantStatement) from its first day. Loaded through the
 * dispute feed's own loader, as an acquirer's feed would be.
 */
function demoDisputes(now: Date): DisputeRecord[] {
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15));
  const reportDate = month.toISOString().slice(0, 10);
  const common = {
    mid: DEMO_MID,
    recordId: 1,
    reportDate,
    cardNumber: '411111******1111',
    cardType: 'Visa',
    amount: 25,
    transactionDate: reportDate,
  };
  return [
    {
      ...common,
      kind: 'chargeback',
      caseNumber: 'DEMO-CB-0001',
      cbType: '1',
      cbTypeDescription: 'First chargeback',
      reasonCode: '13.1',
      reasonCodeDescription: 'Merchandise/Services Not Received',
      disposition: 'Open',
    },
    { ...common, kind: 'retrieval', caseNumber: 'DEMO-RR-0001', requestType: 'Copy request' },
  ];
}

async function loadDemoDisputes(storage: Storage, now: Date): Promise<void> {
  const loaded = await loadDisputes(storage, demoDisputes(now), now);
  if (!loaded.ok) throw new Error(`the demo merchant's disputes did not load: ${loaded.errors.join('; ')}`);
}

async function insertApplication(
  tx: Queryable,
  a: { appKey: string; appType: number; name: string },
): Promise<void> {
  await tx.run(
    tx.qb.insertInto('applications').values({ app_key: a.appKey, app_type: a.appType, name: a.name }),
  );
}

async function insertSandboxMerchant(
  tx: Queryable,
  m: SandboxMerchant,
  hash: string,
  processorName: string,
  iso: string,
): Promise<void> {
  await insertMerchant(
    tx,
    {
      mid: m.mid,
      name: m.name,
      timeZone: m.timeZone,
      creditProcessor: processorName,
      tokenLookup: m.tokenLookup,
    },
    iso,
  );
  await insertUser(tx, m.mid, m.userName, hash, iso);
  await insertCashier(tx, m.mid, m.cid, 'Demo', `Cashier ${m.cid}`, iso);
}

/**
 * Adds the published demo merchant to a sandbox seeded before it existed (a terminal's embedded sandbox
 * keeps its folder across upgrades). Only a database the sandbox seeded — it holds the sandbox application
 * key — gets it, and only when neither its mid, its user name nor its application is taken: a production
 * store started with --sandbox by mistake never receives a published password. Returns whether it added.
 */
export async function addDemoMerchant(storage: Storage, processorName: string, now: Date): Promise<boolean> {
  const demo = sandboxMerchants.find((m) => m.mid === DEMO_MID);
  const app = sandboxApplications.find((a) => a.appKey === DEMO_APP_KEY);
  if (!demo || !app) return false;
  const absent = async (q: Storage | Queryable) => {
    const r = 'read' in q ? q.read : q;
    const [sandboxApp, merchant, user, demoApp] = await Promise.all([
      r.first(r.qb.selectFrom('applications').select('name').where('app_key', '=', SANDBOX_APP_KEY)),
      r.first(r.qb.selectFrom('merchants').select('mid').where('mid', '=', demo.mid)),
      r.first(r.qb.selectFrom('users').select('id').where('user_name', '=', demo.userName)),
      r.first(
        r.qb
          .selectFrom('applications')
          .select('name')
          .where('app_key', '=', app.appKey)
          .where('app_type', '=', app.appType),
      ),
    ]);
    return sandboxApp !== undefined && !merchant && !user && !demoApp;
  };
  // Every start of a sandbox asks; one that has the merchant pays one read and no key stretching.
  if (!(await absent(storage))) return false;
  const hash = await hashPassword(demo.password);
  const added = await storage.write(async (tx) => {
    await tx.lock('sandbox:seed');
    if (!(await absent(tx))) return false;
    await insertApplication(tx, app);
    await insertSandboxMerchant(tx, demo, hash, processorName, now.toISOString());
    return true;
  });
  if (added) await loadDemoDisputes(storage, now);
  return added;
}
