import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { RECURRING_BILLING_TASK } from '../../../gateway/schedulers/recurring-billing';
import {
  merchant1,
  startGateway,
  type Json,
  type ManualClock,
  type TestGateway,
} from '../../support/gateway-harness';
import { billing, reportOf } from './support';
import { testBackend } from '../../support/test-database';

export const DAY = 86_400_000;

/** Gateways of one test (several share a data folder in the restart tests), closed after it. */
const open: TestGateway[] = [];
const folders: string[] = [];
let template = '';

/**
 * Each test's gateway starts from a copy of one seeded, closed data folder: seeding hashes passwords (slow
 * on purpose), a copy takes milliseconds. Call at the top of a scheduler test file.
 */
export function useSchedulerGateways(): void {
  beforeAll(async () => {
    if (testBackend() === 'postgres') return;
    template = mkdtempSync(join(tmpdir(), 'tillpoint-rb-template-'));
    folders.push(template);
    const seeded = await startGateway({ backgroundTasks: false, dataDir: template });
    await seeded.close();
  });
  afterEach(async () => {
    while (open.length > 0) await open.pop()?.close();
  });
  afterAll(() => {
    for (const f of folders) rmSync(f, { recursive: true, force: true });
  });
}

export async function gatewayAt(clock: ManualClock, dataDir?: string): Promise<TestGateway> {
  let dir = dataDir;
  if (!dir) {
    dir = mkdtempSync(join(tmpdir(), 'tillpoint-rb-'));
    folders.push(dir);
    // On PostgreSQL the gateway seeds a fresh schema of its own (test-database.ts): nothing to copy.
    if (testBackend() === 'sqlite')
      for (const file of ['gateway.sqlite', 'keys.json']) copyFileSync(join(template, file), join(dir, file));
  }
  const gw = await startGateway({ backgroundTasks: false, clock, dataDir: dir });
  open.push(gw);
  return gw;
}

export async function closeGateway(gw: TestGateway): Promise<void> {
  open.splice(open.indexOf(gw), 1);
  await gw.close();
}

export const runOnce = async (gw: TestGateway) => {
  const task = gw.gateway.tasks.get(RECURRING_BILLING_TASK);
  if (!task) throw new Error('the recurring billing task is not registered');
  await task.runOnce();
};

export async function create(gw: TestGateway, overrides: Json = {}): Promise<number> {
  const r = await gw.post('/api/RecurringBilling/Create', billing(overrides));
  expect(r.body.ResponseCode, JSON.stringify(r.body.Msg)).toBe(200);
  return r.body.BillingId as number;
}

export async function record(gw: TestGateway, id: number): Promise<Json> {
  const all = (
    await gw.post('/api/RecurringBilling/GetAll', { ...merchant1, BillingId: id, IncludeInactive: true })
  ).body.Billings as Json[];
  const b = all[0];
  if (!b) throw new Error(`billing ${id} not listed`);
  return b;
}

export const chargesOf = async (gw: TestGateway, id: number) =>
  (await reportOf(gw)).filter((t) => String(t.UserTransactionNumber).startsWith(`RB-${id}-`));
