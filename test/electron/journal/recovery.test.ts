import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionReportRecord } from '../../../gateway/contract/report';
import { blackHole } from '../../support/black-hole';
import { merchant1, startGateway, type TestGateway } from '../../support/gateway-harness';
import { eventually, startLane, value } from '../helpers';

const keyed = (cardNumber: string) => ({
  kind: 'credit' as const,
  entry: 'keyed' as const,
  keyed: { cardNumber, expiry: '1230' },
});

async function gatewayStatus(gw: TestGateway, utn: string): Promise<string | undefined> {
  const r = await gw.post('/api/Report/GetReportByMerchant', merchant1);
  return (r.body.Transactions as TransactionReportRecord[]).find((t) => t.UserTransactionNumber === utn)
    ?.Status;
}

describe('unknown outcomes, restarts, store-and-forward, reconciliation', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ sandboxSlowMs: 600 });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('a sale whose answer comes too late is reported unknown and ends reversed at the gateway', async () => {
    const lane = await startLane({
      gateway: gw,
      core: {
        timeouts: { saleMs: 250, otherMs: 2000 },
        reversalBackoff: { initialMs: 100, maxMs: 400, multiplier: 2, jitter: 0 },
      },
    });
    try {
      const t = value(await lane.bridge.send('sale.open', { subtotalCents: 1500 }));
      const out = value(
        await lane.bridge.send('sale.pay', { ticketId: t.ticketId, tender: keyed('4000000000000119') }),
      );
      expect(out.tender.status).toBe('unknown');
      expect(out.tender.message).toMatch(/Do not retry/);
      const utn = out.tender.userTransactionNumber as string;
      expect(await lane.core.reversalsDrained(10_000)).toBe(true);
      await eventually(async () => (await lane.core.journal.get(utn))?.state === 'reversed', 5000);
      await eventually(async () => (await gatewayStatus(gw, utn)) === 'reversed', 5000);
      // A new sale was never blocked by the pending reversal.
      const t2 = value(await lane.bridge.send('sale.open', { subtotalCents: 100 }));
      expect(
        value(
          await lane.bridge.send('sale.pay', {
            ticketId: t2.ticketId,
            tender: keyed('4111111111111111'),
            allowDuplicate: true,
          }),
        ).tender.status,
      ).toBe('approved');
    } finally {
      await lane.close();
    }
  });

  it('a pending reversal survives a restart and is sent by the next run', async () => {
    const hole = await blackHole();
    const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-restart-'));
    try {
      const first = await startLane({
        gateway: { ...gw, baseUrl: hole.url },
        dataDir,
        core: { timeouts: { saleMs: 200, otherMs: 200 } },
      });
      const t = value(await first.bridge.send('sale.open', { subtotalCents: 700 }));
      const out = value(
        await first.bridge.send('sale.pay', { ticketId: t.ticketId, tender: keyed('4111111111111111') }),
      );
      expect(out.tender.status).toBe('unknown');
      const utn = out.tender.userTransactionNumber as string;
      await first.core.stop();
      const second = await startLane({
        gateway: gw,
        dataDir,
        core: { reversalBackoff: { initialMs: 50, maxMs: 200, multiplier: 2, jitter: 0 } },
      });
      expect(await second.core.reversalsDrained(10_000)).toBe(true);
      expect((await second.core.journal.get(utn))?.state).toBe('reversed');
      // The gateway never saw the sale: the reversal blocked its number, so a late copy is refused.
      const late = await gw.post('/api/Transactions/Sale', {
        ...merchant1,
        Amount: 7,
        TransactionType: 1,
        UserTransactionNumber: utn,
        CardNumber: '4111111111111111',
        ExpDate: '1230',
        ForceDuplication: true,
      });
      expect(late.body.ResponseCode).toBe(411);
      await second.core.stop();
    } finally {
      await hole.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("an open ticket whose tender was in flight when the terminal stopped comes back with the journal's outcome", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-ticket-'));
    // The request never reaches a gateway: the next start's inquiry finds nothing, so it stays unknown
    // (an approval the gateway holds is kept instead: crash-inquiry.test.ts).
    const hole = await blackHole();
    try {
      const first = await startLane({
        gateway: { ...gw, baseUrl: hole.url },
        dataDir,
        core: { timeouts: { saleMs: 5_000, otherMs: 2_000 } },
      });
      const t = value(await first.bridge.send('sale.open', { subtotalCents: 900 }));
      const pending = first.bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: keyed('4000000000000119'),
      });
      await eventually(async () => (await first.core.journal.list({})).some((r) => r.state === 'sending'));
      await first.core.stop();
      await pending.catch(() => undefined);
      const second = await startLane({ gateway: gw, dataDir });
      const status = value(await second.bridge.send('terminal.status', {}));
      expect(status.openTicketId).toBe(t.ticketId);
      const ticket = value(await second.bridge.send('sale.get', { ticketId: t.ticketId }));
      expect(ticket.tenders[0]?.status).toBe('unknown');
      expect(ticket.tenders[0]?.userTransactionNumber).toMatch(/^L1-/);
      expect(await second.core.reversalsDrained(10_000)).toBe(true);
      await second.core.stop();
    } finally {
      await hole.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('offline: refused by default; with manager-enabled store-and-forward a contactless sale is stored sealed and forwarded later', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-saf-'));
    const offline = { ...gw, baseUrl: 'http://127.0.0.1:9' };
    try {
      const lane = await startLane({ gateway: offline, dataDir });
      const { bridge } = lane;
      const t = value(await bridge.send('sale.open', { subtotalCents: 2000 }));
      const refused = value(
        await bridge.send('sale.pay', { ticketId: t.ticketId, tender: keyed('4111111111111111') }),
      );
      expect(refused.tender.status).toBe('offline-refused');
      expect(value(await bridge.send('terminal.status', {})).gateway.online).toBe(false);

      const noApproval = await bridge.send('saf.setPolicy', {
        enabled: true,
        perTransactionLimitCents: 5000,
        totalLimitCents: 6000,
        maxAgeHours: 24,
      });
      expect(noApproval.ok ? 'ok' : noApproval.error.code).toBe('forbidden');
      value(
        await bridge.send('saf.setPolicy', {
          enabled: true,
          perTransactionLimitCents: 5000,
          totalLimitCents: 6000,
          maxAgeHours: 24,
          approval: { managerPin: '9999' },
        }),
      );

      // Keyed cards are not eligible, contactless reads are (a contact chip card declines offline:
      // test/electron/sale/chip-sale.test.ts).
      const keyedAgain = value(
        await bridge.send('sale.pay', { ticketId: t.ticketId, tender: keyed('4111111111111111') }),
      );
      expect(keyedAgain.tender.status).toBe('offline-refused');
      const pay = bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: { kind: 'credit', entry: 'contactless' },
      });
      await eventually(
        async () => value(await bridge.send('simulator.state', {})).contactless.waitingForCard,
      );
      value(await bridge.send('simulator.tap', {}));
      const stored = value(await pay);
      expect(stored.tender.status).toBe('stored');
      expect(stored.ticket.status).toBe('paid');
      const saf = value(await bridge.send('saf.get', {}));
      expect(saf.exposureCents).toBe(2000);
      // Over the total limit: refused.
      const t2 = value(await bridge.send('sale.open', { subtotalCents: 4500 }));
      const pay2 = bridge.send('sale.pay', {
        ticketId: t2.ticketId,
        tender: { kind: 'credit', entry: 'contactless' },
      });
      await eventually(
        async () => value(await bridge.send('simulator.state', {})).contactless.waitingForCard,
      );
      value(await bridge.send('simulator.tap', {}));
      expect(value(await pay2).tender.status).toBe('offline-refused');
      await lane.core.stop();

      const db = new Database(join(dataDir, 'journal.sqlite'), { readonly: true });
      const row = db.prepare('SELECT ciphertext, last4 FROM saf_queue').get() as {
        ciphertext: Buffer;
        last4: string;
      };
      expect(row.last4).toBe('1111');
      expect(row.ciphertext.length).toBeGreaterThan(50);
      expect(row.ciphertext.toString('latin1')).not.toContain('4111111111111111');
      expect(row.ciphertext.toString('hex')).not.toContain('4111111111111111');
      db.close();

      // The gateway is back: the stored sale is forwarded with its own number and its card data deleted.
      const back = await startLane({ gateway: gw, dataDir, signIn: '9999' });
      await eventually(async () => value(await back.bridge.send('saf.get', {})).count === 0, 10_000);
      const item = value(await back.bridge.send('saf.get', {})).items[0];
      expect(item?.state).toBe('forwarded');
      const utn = stored.tender.userTransactionNumber as string;
      expect((await back.core.journal.get(utn))?.state).toBe('approved');
      expect(await gatewayStatus(gw, utn)).toBe('approved');
      await back.core.stop();
      const db2 = new Database(join(dataDir, 'journal.sqlite'), { readonly: true });
      expect(db2.prepare('SELECT COUNT(*) AS n FROM saf_queue WHERE ciphertext IS NOT NULL').get()).toEqual({
        n: 0,
      });
      db2.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('reconciliation surfaces an orphan, blocks batch close until a manager resolves it, then settles', async () => {
    const lane = await startLane({ gateway: gw, signIn: '9999' });
    const { bridge, core } = lane;
    try {
      const t = value(await bridge.send('sale.open', { subtotalCents: 1234 }));
      const out = value(
        await bridge.send('sale.pay', {
          ticketId: t.ticketId,
          tender: keyed('6011111111111117'),
          allowDuplicate: true,
        }),
      );
      const utn = out.tender.userTransactionNumber as string;
      // The journal lost track of it (what a crash mid-answer on a gateway without reversal would leave).
      await core.journal.update(utn, { state: 'failed', message: 'simulated' }, Date.now());
      const view = value(await bridge.send('batch.reconcile', {}));
      expect(view.orphans).toBe(1);
      expect(view.canClose).toBe(false);
      const settle = await bridge.send('batch.settle', {});
      expect(settle.ok ? 'ok' : settle.error.code).toBe('conflict');
      const resolved = value(
        await bridge.send('batch.resolveOrphan', { userTransactionNumber: utn, action: 'keep' }),
      );
      expect(resolved.orphans).toBe(0);
      expect(resolved.canClose).toBe(true);
      const totals = value(await bridge.send('batch.totals', {}));
      expect(totals.figures.card.sales.cents).toBeGreaterThanOrEqual(1234);
      const settled = value(await bridge.send('batch.settle', {}));
      expect(settled.amountSettledCents).toBeGreaterThan(0);
      const audit = value(await bridge.send('audit.list', {}));
      expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['orphan-resolved', 'batch-close']));
      expect(audit.map((a) => a.detail).join(' ')).not.toMatch(/\d{12,}/);
    } finally {
      await lane.close();
    }
  });

  it('a sale numbered under an earlier lane id stays in the open batch: its orphan still blocks batch close', async () => {
    // One terminal per data folder, so every row of its journal is this lane's, whatever lane id numbered it.
    const lane = await startLane({ gateway: gw, signIn: '9999' });
    const { bridge, core } = lane;
    const tech = core.connect();
    try {
      const t = value(await bridge.send('sale.open', { subtotalCents: 1717 }));
      const out = value(
        await bridge.send('sale.pay', {
          ticketId: t.ticketId,
          tender: keyed('5555555555554444'),
          allowDuplicate: true,
        }),
      );
      const utn = out.tender.userTransactionNumber as string;
      expect(utn.startsWith('L1-')).toBe(true);
      value(await tech.send('session.signIn', { pin: '7777' }));
      value(await tech.send('lane.set', { laneId: 'L9' }));
      await core.journal.update(utn, { state: 'failed', message: 'simulated' }, Date.now());
      const view = value(await bridge.send('batch.reconcile', {}));
      expect(view.rows.find((r) => r.userTransactionNumber === utn)?.verdict).toBe('orphan');
      expect(view.canClose).toBe(false);
      const settle = await bridge.send('batch.settle', {});
      expect(settle.ok ? 'ok' : settle.error.code).toBe('conflict');
    } finally {
      tech.close();
      await lane.close();
    }
  });
});
