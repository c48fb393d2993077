import type { Queryable, Storage } from '../storage/queryable';
import { hashPassword } from '../security/password';

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
] as const;

export const SANDBOX_APP_KEY = 'sandbox-app-key';
export const SANDBOX_APP_TYPE = 1;

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
  return storage.write(async (tx) => {
    await tx.lock('sandbox:seed');
    if (!(await isEmpty(tx))) return false;
    await tx.run(
      tx.qb
        .insertInto('applications')
        .values({ app_key: SANDBOX_APP_KEY, app_type: SANDBOX_APP_TYPE, name: 'Sandbox application' }),
    );
    for (const [i, m] of sandboxMerchants.entries()) {
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
      await insertUser(tx, m.mid, m.userName, hashes[i] ?? '', iso);
      await insertCashier(tx, m.mid, m.cid, 'Demo', `Cashier ${m.cid}`, iso);
    }
    return true;
  });
}
