import { randomBytes } from 'node:crypto';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { insertMerchant, SANDBOX_APP_KEY, SANDBOX_APP_TYPE } from '../../../gateway/sandbox/seed';
import { hashPassword } from '../../../gateway/security/password';
import { post, type Envelope } from './driver';
import type { Target } from './targets';

/** The time zone of every checker merchant (a check voids on its authorization's day there). */
export const MERCHANT_ZONE = 'America/New_York';

export type RunMerchant = { envelope: Envelope; bearer: Record<string, string> };

let counter = 0;
/** Merchant ids of the checker: high, so they never meet the sandbox's (1001, 1002) or a test's. */
const nextMid = () => 700_000_000 + (process.pid % 100_000) * 1_000 + (counter++ % 1_000);

/**
 * A merchant for each run, so that every sequence — a replay or a shrink's candidate too — starts from the
 * same state: no payment, no batch, no gift card. Made one run ahead: onboarded in one unit of work
 * (merchant, user, cashier: what gateway:admin's add-merchant, add-user and add-cashier write), taken out
 * of the automatic batch close, its credential verified once by every gateway process (that scrypt cost is
 * paid while the previous run goes on) and its Reporting token issued.
 */
export class MerchantPool {
  private next: Promise<RunMerchant> | null = null;
  private readonly password = `model-${randomBytes(9).toString('base64url')}`;
  private hash: Promise<string> | null = null;

  constructor(private readonly target: Target) {}

  take(): Promise<RunMerchant> {
    const ready = this.next ?? this.prepare();
    this.next = this.prepare();
    // Awaited by the next take, or by drain: never left unhandled.
    this.next.catch(() => undefined);
    return ready;
  }

  /** Waits for the merchant being made, so the target can close. */
  async drain(): Promise<void> {
    await this.next?.catch(() => undefined);
    this.next = null;
  }

  private async prepare(): Promise<RunMerchant> {
    // One password for every checker user: scrypt once here, once per user in each gateway.
    this.hash ??= hashPassword(this.password);
    const hash = await this.hash;
    const mid = nextMid();
    const now = new Date().toISOString();
    const userName = `model-${mid}`;
    await this.target.storage.write(async (tx) => {
      await insertMerchant(
        tx,
        {
          mid,
          name: `Model run ${mid}`,
          timeZone: MERCHANT_ZONE,
          creditProcessor: 'sandbox',
          tokenLookup: true,
        },
        now,
      );
      await tx.run(
        tx.qb
          .insertInto('users')
          .values({ user_name: userName, password_hash: hash, mid, disabled: 0, created_at: now }),
      );
      await tx.run(
        tx.qb.insertInto('cashiers').values({
          mid,
          cid: 1,
          first_name: 'Model',
          last_name: 'Checker',
          description: 'Cashier 1',
          is_enable: 1,
          can_sale: 1,
          created_at: now,
        }),
      );
    });
    const envelope: Envelope = {
      AppKey: SANDBOX_APP_KEY,
      AppType: SANDBOX_APP_TYPE,
      mid,
      cid: 1,
      UserName: userName,
      Password: this.password,
    };
    const urls = this.target.urls;
    const [off, ...auths] = await Promise.all([
      post(urls, 0, '/api/Administration/RemoveMerchantFromAutomaticCloseBatch', envelope),
      ...urls.map((_, i) => post(urls, i, '/api/Auth', envelope)),
    ]);
    if (off?.ResponseCode !== ResponseCode.Success)
      throw new Error(`could not leave the automatic batch close: ${JSON.stringify(off)}`);
    const token = auths[0]?.Token;
    if (typeof token !== 'string') throw new Error('/api/Auth issued no Reporting token');
    return { envelope, bearer: { authorization: `Bearer ${token}` } };
  }
}
