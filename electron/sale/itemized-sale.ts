import type {
  CatalogItemView,
  ItemizedTicketView,
  TaxClassRateView,
  TicketAddItem,
  TicketAddOpenItem,
  TicketAddScan,
  TicketDiscount,
  TicketTaxClass,
  TicketView,
} from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import { languageOf } from '../../common/store-locale';
import { RECEIPT_WORDS } from '../i18n/receipt-words';
import type { Actor } from '../roles/roles';
import type { Catalog } from '../catalog/catalog';
import { hasControlCharacter } from '../catalog/plain-text';
import type { SettingsShape } from '../settings';
import type { Clock } from '../util/clock';
import { approvalsNeeded, recordApprovals, type ApprovalNeed } from './discount-approval-rules';
import type { SaleEngine } from './sale-engine';
import {
  addLine,
  newItemizedTicket,
  reprice,
  setLineDiscount,
  setQuantity,
  setTicketDiscount,
  setUnitPrice,
  voidLine,
  type NewLine,
} from './ticket-lines';

/**
 * The ticket of lines the ticket screen will stand on: lines from the catalog (by id, by scan — a
 * price-embedded label's item at the label's price — or typed as an open item), quantities, discounts,
 * voids, each change priced again by the one rule and judged by the manager's limits
 * (discount-approval-rules.ts) before it is kept. An approval the change needs is asked of `approve` (the
 * bridge's manager approval: the signed-in manager, or the manager PIN sent with the call); refused, the
 * ticket stays as it was.
 */

export type ItemizedSaleDeps = {
  engine: SaleEngine;
  catalog: Catalog;
  settings: () => Readonly<SettingsShape>;
  clock: Clock;
};

/** Asks for the manager's approval of `needs`; resolves with the approving role or throws. */
export type Approve = (needs: ApprovalNeed[]) => Promise<Actor>;

/** A change's outcome: the ticket, and what a manager approved for it (to audit). */
export type Changed = { ticket: TicketView; approved?: { needs: ApprovalNeed[]; by: Actor } };

export type ItemizedSale = {
  open(): Promise<TicketView>;
  addItem(p: TicketAddItem, approve: Approve): Promise<Changed>;
  addScan(p: TicketAddScan, approve: Approve): Promise<Changed>;
  addOpenItem(p: TicketAddOpenItem, approve: Approve): Promise<Changed>;
  setQuantity(ticketId: string, lineId: string, quantity: number, approve: Approve): Promise<Changed>;
  setPrice(ticketId: string, lineId: string, unitPriceCents: number, approve: Approve): Promise<Changed>;
  setLineDiscount(
    ticketId: string,
    lineId: string,
    discount: TicketDiscount | null,
    approve: Approve,
  ): Promise<Changed>;
  setDiscount(ticketId: string, discount: TicketDiscount | null, approve: Approve): Promise<Changed>;
  voidLine(ticketId: string, lineId: string, approve: Approve): Promise<Changed>;
};

function rate(t: TaxClassRateView): TicketTaxClass {
  return { code: t.code, name: t.name, ratePercent: t.ratePercent, mode: t.mode };
}

export function createItemizedSale(deps: ItemizedSaleDeps): ItemizedSale {
  const { engine, catalog, clock } = deps;

  /** The lane's own rate (Settings), added to the price: a store without a catalog taxes as before. */
  const laneTax = (): TicketTaxClass => ({
    code: 'lane',
    name: 'Tax',
    ratePercent: deps.settings().sale.taxRatePercent,
    mode: 'exclusive',
  });

  const change = async (
    ticketId: string,
    approve: Approve,
    edit: (lines: ItemizedTicketView) => void | Promise<void>,
  ): Promise<Changed> => {
    let approved: Changed['approved'];
    const ticket = await engine.amend(ticketId, async (lines) => {
      await edit(lines);
      reprice(lines);
      const needs = approvalsNeeded(lines, deps.settings().discounts);
      if (needs.length > 0) {
        const by = await approve(needs);
        recordApprovals(lines, needs, by.role, clock.now());
        approved = { needs, by };
      }
      return lines;
    });
    return { ticket, ...(approved ? { approved } : {}) };
  };

  const itemLine = async (
    item: CatalogItemView,
    quantity: number,
    unitPriceCents: number | undefined,
    barcode?: string,
  ): Promise<NewLine> => {
    if (!item.active)
      throw new BridgeFailure('conflict', `${item.name} is not sold any more (inactive).`, {
        messageId: 'sale.inactiveItem',
        params: { name: item.name },
      });
    if (item.openPrice && unitPriceCents === undefined)
      throw new BridgeFailure('invalid', `Type the price of ${item.name}: it is an open-price item.`, {
        messageId: 'sale.openPrice',
        params: { name: item.name },
      });
    const taxClass = await catalog.taxClassRate(item.taxClassId);
    // From now on the item can only be deactivated: a ticket refers to it (also if this change is refused).
    await catalog.markSold(item.id);
    return {
      kind: 'item',
      name: item.name,
      itemId: item.id,
      sku: item.sku,
      ...(barcode ? { barcode } : {}),
      quantity,
      unitPriceCents: unitPriceCents ?? item.priceCents,
      listPriceCents: item.priceCents,
      ...(item.openPrice ? { openPrice: true } : {}),
      taxClass: rate(taxClass),
    };
  };

  return {
    open: () => engine.adopt(newItemizedTicket(clock.now())),

    addItem: (p, approve) =>
      change(p.ticketId, approve, async (lines) => {
        const item = await catalog.item(p.itemId);
        addLine(lines, await itemLine(item, p.quantity ?? 1, p.unitPriceCents));
      }),

    addScan: (p, approve) =>
      change(p.ticketId, approve, async (lines) => {
        const found = await catalog.lookup({ barcode: p.data, ...(p.aimId ? { aimId: p.aimId } : {}) });
        if (!found.priceEmbedded) {
          addLine(lines, await itemLine(found.item, p.quantity ?? 1, undefined, p.data));
          return;
        }
        if (!found.item.active)
          throw new BridgeFailure('conflict', `${found.item.name} is not sold any more (inactive).`, {
            messageId: 'sale.inactiveItem',
            params: { name: found.item.name },
          });
        await catalog.markSold(found.item.id);
        // A weighed item is one unit at the label's price (the scale printed the price, not the weight).
        addLine(lines, {
          kind: 'weighed',
          name: found.item.name,
          itemId: found.item.id,
          sku: found.item.sku,
          barcode: p.data,
          quantity: 1,
          unitPriceCents: found.priceEmbedded.priceCents,
          taxClass: rate(found.taxClass),
        });
      }),

    addOpenItem: (p, approve) =>
      change(p.ticketId, approve, async (lines) => {
        const name = p.name?.trim() || RECEIPT_WORDS[languageOf(deps.settings().locale.locale)].openItemName;
        if (hasControlCharacter(name)) throw new BridgeFailure('invalid', 'A name cannot hold a line break.');
        const taxClass =
          p.taxClassId === undefined ? laneTax() : rate(await catalog.taxClassRate(p.taxClassId));
        addLine(lines, {
          kind: 'open-item',
          name,
          quantity: p.quantity ?? 1,
          unitPriceCents: p.priceCents,
          taxClass,
        });
      }),

    setQuantity: (ticketId, lineId, quantity, approve) =>
      change(ticketId, approve, (lines) => setQuantity(lines, lineId, quantity)),
    setPrice: (ticketId, lineId, unitPriceCents, approve) =>
      change(ticketId, approve, (lines) => setUnitPrice(lines, lineId, unitPriceCents)),
    setLineDiscount: (ticketId, lineId, discount, approve) =>
      change(ticketId, approve, (lines) => setLineDiscount(lines, lineId, discount)),
    setDiscount: (ticketId, discount, approve) =>
      change(ticketId, approve, (lines) => setTicketDiscount(lines, discount)),
    voidLine: (ticketId, lineId, approve) => change(ticketId, approve, (lines) => voidLine(lines, lineId)),
  };
}
