import { DeclineCode } from '../contract/decline-codes';
import type { Queryable, Storage } from '../storage/queryable';
import { prepare } from '../storage/prepared';
import type { AuthorizationFacts, FraudDenial, FraudScreen, ScreenFacts } from './payments';

/** The four auto-deny checks of the interface, in its order. */
export const FRAUD_CHECKS = ['Account', 'Address', 'Cvv', 'ZipCode'] as const;
export type FraudCheck = (typeof FRAUD_CHECKS)[number];

/**
 * The integers of GatewayAdmin Add/RemoveFraudAutoDenyOptions (`Options: "1,3"`); the interface leaves the
 * mapping open, so it follows the order of the eight /api/FraudAutoDenyOptions operations.
 */
export const FRAUD_OPTION_NUMBERS: Readonly<Record<number, FraudCheck>> = {
  1: 'Account',
  2: 'Address',
  3: 'Cvv',
  4: 'ZipCode',
};

export type FraudState = Record<FraudCheck, boolean>;

export type ParsedOptions = { ok: true; checks: FraudCheck[] } | { ok: false; reason: string };

/** `"1, 3"` → Account, Cvv. Strict: integers of the table only, comma-separated, at least one. */
export function parseFraudOptions(text: string): ParsedOptions {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.every((p) => p === '')) {
    return { ok: false, reason: 'Options must list at least one option number (1-4), comma-separated' };
  }
  const checks: FraudCheck[] = [];
  const bad: string[] = [];
  for (const p of parts) {
    const check = /^\d{1,2}$/.test(p) ? FRAUD_OPTION_NUMBERS[Number(p)] : undefined;
    if (!check) bad.push(p === '' ? '(empty)' : p.slice(0, 12));
    else if (!checks.includes(check)) checks.push(check);
  }
  if (bad.length > 0) {
    return {
      ok: false,
      reason: `Options holds ${bad.length === 1 ? 'a value' : 'values'} that ${bad.length === 1 ? 'is' : 'are'} not an option number (1 Account, 2 Address, 3 Cvv, 4 ZipCode): ${bad.map((b) => JSON.stringify(b)).join(', ')}`,
    };
  }
  return { ok: true, checks };
}

export function optionsText(state: FraudState): string {
  return Object.entries(FRAUD_OPTION_NUMBERS)
    .filter(([, check]) => state[check])
    .map(([n]) => n)
    .join(',');
}

const selectFraudOptions = prepare<
  { mid: number },
  { account: number; address: number; cvv: number; zip_code: number }
>((qb, p) =>
  qb
    .selectFrom('fraud_options')
    .select(['account', 'address', 'cvv', 'zip_code'])
    .where('mid', '=', p('mid')),
);

// Read by every card sale: one statement for the settings and the blacklist, compiled once per dialect.
const selectScreenFacts = prepare<{ mid: number; fingerprint: string }, ScreenFacts>((qb, p) =>
  qb
    .selectFrom('fraud_options as o')
    .select((eb) => [
      'o.account',
      'o.address',
      'o.cvv',
      'o.zip_code',
      eb
        .case()
        .when(
          eb.exists(
            eb
              .selectFrom('fraud_blacklist as b')
              .select('b.id')
              .where('b.mid', '=', p('mid'))
              .where('b.fingerprint', '=', p('fingerprint')),
          ),
        )
        .then(1)
        .else(0)
        .end()
        .as('listed'),
    ])
    .where('o.mid', '=', p('mid')),
);

export async function readFraudState(q: Queryable, mid: number): Promise<FraudState> {
  const row = await q.first(selectFraudOptions({ mid }));
  return {
    Account: row?.account === 1,
    Address: row?.address === 1,
    Cvv: row?.cvv === 1,
    ZipCode: row?.zip_code === 1,
  };
}

/** Turns checks on or off inside a unit of work; the others keep their state. */
export async function setFraudChecks(
  tx: Queryable,
  mid: number,
  checks: readonly FraudCheck[],
  enabled: boolean,
  now: string,
): Promise<FraudState> {
  await tx.lock(`fraud:${mid}`);
  const state = await readFraudState(tx, mid);
  for (const c of checks) state[c] = enabled;
  const values = {
    account: state.Account ? 1 : 0,
    address: state.Address ? 1 : 0,
    cvv: state.Cvv ? 1 : 0,
    zip_code: state.ZipCode ? 1 : 0,
    updated_at: now,
  } as const;
  const updated = await tx.run(tx.qb.updateTable('fraud_options').set(values).where('mid', '=', mid));
  if (updated.changes === 0) await tx.run(tx.qb.insertInto('fraud_options').values({ mid, ...values }));
  return state;
}

/**
 * The auto-deny checks acting on card sales (runPayment calls this hook). Account: the card's fingerprint
 * is on the merchant's blacklist, refused before the processor is asked. Address / ZipCode: the AVS answer
 * says the street / zip given did not match. Cvv: the CVN given did not match. A field the caller did not
 * send is not checked (AVS and CVN results are then "unavailable", not "failed").
 */
export const tenderFraudScreen: FraudScreen = {
  facts: (mid, fingerprint) => selectScreenFacts({ mid, fingerprint }),
  judge(facts) {
    const state: FraudState = {
      Account: facts?.account === 1,
      Address: facts?.address === 1,
      Cvv: facts?.cvv === 1,
      ZipCode: facts?.zip_code === 1,
    };
    return {
      denied:
        state.Account && facts?.listed === 1
          ? { code: DeclineCode.FraudDeniedAccount, message: 'Auto-denied: the account is on the blacklist' }
          : null,
      afterAuthorization: (result) => screenAuthorization(state, result),
    };
  },
};

function screenAuthorization(state: FraudState, result: AuthorizationFacts): FraudDenial | null {
  const denials: FraudDenial[] = [];
  const streetFailed = result.avs === 'Z' || result.avs === 'N';
  const zipFailed = result.avs === 'A' || result.avs === 'N';
  if (state.Address && result.addressGiven && streetFailed) {
    denials.push({
      code: DeclineCode.FraudDeniedAddress,
      message: 'Auto-denied: the street address did not match (AVS)',
    });
  }
  if (state.ZipCode && result.zipGiven && zipFailed) {
    denials.push({
      code: DeclineCode.FraudDeniedZipCode,
      message: 'Auto-denied: the zip code did not match (AVS)',
    });
  }
  if (state.Cvv && result.cvnGiven && result.cvn === 'N') {
    denials.push({
      code: DeclineCode.FraudDeniedCvn,
      message: 'Auto-denied: the security code did not match',
    });
  }
  const first = denials[0];
  if (!first) return null;
  // The first failed check names the code; the message lists every check that failed.
  return { code: first.code, message: denials.map((d) => d.message).join('; ') };
}

/** A card on the merchant's blacklist: its fingerprint and what a screen may show of its number. */
export type BlacklistedAccount = { fingerprint: string; first6: string; last4: string };

/**
 * Puts the card on the merchant's blacklist in one statement, whatever else is adding it (another request,
 * another process): the unique (mid, fingerprint) decides. False when it was already listed.
 */
export async function blacklistAccount(
  storage: Storage,
  mid: number,
  account: BlacklistedAccount,
  now: string,
): Promise<boolean> {
  return storage.write(async (tx) => {
    const r = await tx.run(
      tx.qb
        .insertInto('fraud_blacklist')
        .values({ mid, ...account, added_on: now })
        .onConflict((oc) => oc.columns(['mid', 'fingerprint']).doNothing()),
    );
    return r.changes > 0;
  });
}

/** Takes the card off the merchant's blacklist; false when it was not on it. */
export async function unblacklistAccount(
  storage: Storage,
  mid: number,
  fingerprint: string,
): Promise<boolean> {
  const r = await storage.write((tx) =>
    tx.run(tx.qb.deleteFrom('fraud_blacklist').where('mid', '=', mid).where('fingerprint', '=', fingerprint)),
  );
  return r.changes > 0;
}

/** The merchant's blacklisted cards, in the order they were listed (their numbers masked by the caller). */
export function blacklistedAccounts(q: Queryable, mid: number) {
  return q.all(
    q.qb
      .selectFrom('fraud_blacklist')
      .select(['first6', 'last4', 'added_on'])
      .where('mid', '=', mid)
      .orderBy('id'),
  );
}
