import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBatchClose } from '../../../electron/batch/batch-close';
import { BridgeFailure } from '../../../common/bridge/failure';
import { GatewayClient } from '../../../electron/gateway-client/client';
import { openJournal, type Journal } from '../../../electron/journal/journal';
import { merchant1, startGateway, type TestGateway } from '../../support/gateway-harness';

const dirs: string[] = [];
function tempJournalPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tillpoint-batch-'));
  dirs.push(dir);
  return join(dir, 'journal.sqlite');
}

/** The journal as batch close sees it, counting every request that crosses to the worker thread. */
function counted(journal: Journal): { journal: Journal; calls: string[] } {
  const calls: string[] = [];
  const proxy = new Proxy(journal, {
    get(target, property, receiver) {
      const v: unknown = Reflect.get(target, property, receiver);
      if (typeof v !== 'function' || typeof property !== 'string') return v;
      return (...args: unknown[]) => {
        calls.push(property);
        return (v as (...a: unknown[]) => unknown)(...args);
      };
    },
  });
  return { journal: proxy, calls };
}

const DAY = 86_400_000;

describe('the batch close reads the journal side of its reconciliation in one worker request', () => {
  let gw: TestGateway;
  let journal: Journal;
  let client: GatewayClient | undefined;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });
  afterEach(async () => {
    await journal.close();
    client?.close();
    client = undefined;
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('one request answers the rows since the close, older unresolved rows, reversals, epoch and offline queue', async () => {
    journal = await openJournal(tempJournalPath());
    const t0 = Date.UTC(2026, 10, 2, 12);
    // Before the last close: one settled sale (out of view) and one left unknown (still in view).
    const settled = await journal.allocate({ laneId: 'L1', operation: 'sale', amountCents: 500, now: t0 });
    await journal.update(settled.utn, { state: 'approved', approvedCents: 500 }, t0);
    const lost = await journal.allocate({ laneId: 'L1', operation: 'sale', amountCents: 700, now: t0 });
    await journal.markUnknown(lost.utn, 'No answer', t0, t0);
    await journal.setSetting('lastSettledAt', String(t0 + DAY), t0 + DAY);
    // After it: a declined sale and a stored-offline sale.
    const after = await journal.allocate({
      laneId: 'L1',
      operation: 'sale',
      amountCents: 900,
      now: t0 + 2 * DAY,
    });
    await journal.update(after.utn, { state: 'declined' }, t0 + 2 * DAY);
    const offline = await journal.allocate({
      laneId: 'L1',
      operation: 'sale',
      amountCents: 1100,
      now: t0 + 2 * DAY,
    });
    await journal.safStore(
      offline.utn,
      1100,
      '4242',
      'Visa',
      { ciphertext: new Uint8Array([1]), iv: new Uint8Array(12), tag: new Uint8Array(16) },
      t0 + 2 * DAY,
    );

    const side = await journal.batchJournalSide(undefined, t0 + 3 * DAY);
    expect(side.openedAt).toBe(t0 + DAY);
    expect(side.rows.map((r) => r.utn).sort()).toEqual([lost.utn, after.utn, offline.utn].sort());
    expect(side.reversals.map((r) => [r.utn, r.state])).toEqual([[lost.utn, 'pending']]);
    expect(side.epoch).toBe(lost.utn.split('-')[1]);
    expect(side.safQueued).toBe(1);

    // A later close at the gateway (its automatic close) moves the open batch's start, and is kept.
    const later = await journal.batchJournalSide(t0 + 2 * DAY + 1, t0 + 3 * DAY);
    expect(later.openedAt).toBe(t0 + 2 * DAY + 1);
    expect(later.rows.map((r) => r.utn)).toEqual([lost.utn]);
    expect(await journal.getSetting('lastSettledAt')).toBe(String(t0 + 2 * DAY + 1));
  });

  it('the reconciliation makes exactly one journal request, and its blockers come from that answer', async () => {
    journal = await openJournal(tempJournalPath());
    const clock = { now: () => Date.now() };
    const lost = await journal.allocate({
      laneId: 'L1',
      operation: 'sale',
      amountCents: 700,
      now: clock.now(),
    });
    await journal.markUnknown(lost.utn, 'No answer', clock.now(), clock.now());
    client = new GatewayClient({
      baseUrl: gw.baseUrl,
      credentials: {
        AppKey: merchant1.AppKey,
        AppType: merchant1.AppType,
        mid: merchant1.mid,
        cid: merchant1.cid,
        UserName: merchant1.UserName,
        Password: merchant1.Password,
      },
    });
    const { journal: watched, calls } = counted(journal);
    const batch = createBatchClose({
      client,
      journal: watched,
      clock,
      kickReversals: () => undefined,
      failureOf: (f) => new BridgeFailure('unreachable', f.message),
    });

    const view = await batch.reconciliation();
    expect(calls).toEqual(['batchJournalSide']);
    expect(view.rows.map((r) => [r.userTransactionNumber, r.verdict])).toEqual([
      [lost.utn, 'pending-reversal'],
    ]);
    expect(view.canClose).toBe(false);
    expect(view.pendingReversals).toBe(1);
  });
});
