import type { CardRefusal, TenderView } from '../../common/bridge/contract';
import type { SaleResponse } from '../../gateway/contract/card-sale';
import type { ChipCompletion, ChipCvm, ChipHostResponse, ChipReader } from '../../native/drivers/roles';
import { readIssuerResponse } from '../../native/protocols/emv-issuer-response';
import type { GatewayResult } from '../gateway-client/client';
import type { Journal } from '../journal/journal-protocol';
import type { EntryPatch, JournalRow } from '../journal/journal-store';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';
import type { AcquiredCard } from './card-acquire';

/**
 * The chip conversation of one tender, after the card went online (docs/chip.md, "The flow"): the
 * request carries the card's ARQC; the issuer's answer (8A, 91, scripts) goes back to the card; the card
 * has the final say. A TC confirms the approval. An AAC after an approval, a card pulled out before it
 * answered, or a card that never answers is not a sale (EMV 4.4 Book 4 §6.3.8: the terminal shall
 * reverse): the journal turns the approval into a reversal — the reversal worker's queue, the same one a
 * lost answer feeds — and the cashier reads why.
 *
 * Write-ahead: the approval is committed as `awaiting-card` before the card is asked, so a terminal that
 * stops between the issuer's approval and the card's TC reverses it at the next start (recoverInFlight).
 */

export type ChipSaleDeps = {
  journal: Journal;
  clock: Clock;
  log: Logger;
  kickReversals: () => void;
};

/** What the cashier reads when the card did not confirm an approval. */
export const CARD_REFUSAL_MESSAGE: Readonly<Record<CardRefusal, string>> = {
  'declined-by-card': 'Declined by card — payment reversed. The customer is not charged.',
  'card-removed':
    'The card was removed before it confirmed the payment — payment reversed. The customer is not charged.',
  'card-not-answering':
    'The card did not confirm the payment — payment reversed. The customer is not charged.',
};

/** What the journal row says while the approval waits for the card, and after. */
const AWAITING_MESSAGE = 'Approved by the issuer: waiting for the card to confirm';

/** A hold cannot carry a PIN block (PreAuthorization has no KSN/PinBlock): such a card pays by sale. */
export const PIN_CARD_ON_HOLD =
  'This card asks for its PIN, which a pre-authorization cannot carry: use a sale or another card.';

// rule: card-final-say
/** After the gateway's answer: the card confirmed, refused (the approval is being reversed), or closed a decline. */
export type CardVerdict =
  | { kind: 'confirmed'; patch: EntryPatch }
  | { kind: 'refused'; why: CardRefusal; row: JournalRow }
  | { kind: 'closed' };

function refusalOf(c: ChipCompletion): CardRefusal {
  if (c.kind === 'completed') return 'declined-by-card';
  if (c.kind === 'card-removed') return 'card-removed';
  return 'card-not-answering';
}

/** 9F5B as the journal keeps it: upper-case hex, 5 bytes per script; anything else is not kept. */
function scriptResultsOf(c: ChipCompletion): string | null {
  if (c.kind !== 'completed' || c.scriptResults === undefined) return null;
  const hex = c.scriptResults.toUpperCase();
  return /^(?:[0-9A-F]{10}){1,16}$/.test(hex) ? hex : null;
}

export class ChipSale {
  /** True until the card's transaction is over (completed, or cancelled by abandon()). */
  private open = true;

  private constructor(
    private readonly deps: ChipSaleDeps,
    private readonly reader: ChipReader,
    readonly cvm: ChipCvm,
    private readonly last4: string,
  ) {}

  /** The conversation for a card read from the contact chip that went online; undefined for any other. */
  static for(card: AcquiredCard, reader: ChipReader | undefined, deps: ChipSaleDeps): ChipSale | undefined {
    if (card.source !== 'emv' || !card.chip || !reader) return undefined;
    return new ChipSale(deps, reader, card.chip.cvm, card.last4);
  }

  get inTransaction(): boolean {
    return this.open;
  }

  /** The tender stops before anything was sent (PIN cancelled, refused): the card's transaction ends. */
  async abandon(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    await this.reader.cancel().catch(() => undefined);
  }

  /**
   * The gateway is unreachable and store-and-forward would take the sale: only a card that approves
   * offline (TC on "unable to go online", Book 4 §6.3.8) may be stored. The sandbox cards decline (AAC).
   */
  async approvesOffline(): Promise<boolean> {
    const c = await this.tell('unable-to-go-online');
    return c.kind === 'completed' && c.decision === 'TC';
  }

  /**
   * The gateway's answer to the card. An approval is committed `awaiting-card` first, then handed to the
   * card: TC → `confirmed` (the caller records the approval with the card's patch); anything else →
   * the approval becomes a reversal. A decline goes to the card as the issuer sent it (its 8A and 91),
   * or — no issuer data, no answer, unreachable — as "unable to go online", so the card closes (AAC).
   */
  async afterAnswer(row: JournalRow, result: GatewayResult<SaleResponse>): Promise<CardVerdict> {
    if (!this.open) return { kind: 'closed' };
    if (!result.ok) {
      const issuer = readIssuerResponse(result.response?.EmvData ?? '');
      await this.tell(issuer ?? 'unable-to-go-online');
      return { kind: 'closed' };
    }
    const r = result.response;
    const now = this.deps.clock.now();
    await this.deps.journal.update(
      row.utn,
      {
        state: 'awaiting-card',
        srn: r.ServiceReferenceNumber ?? null,
        authCode: r.AuthorizationNumber ?? null,
        gatewayCode: result.code,
        message: AWAITING_MESSAGE,
      },
      now,
    );
    // An approval without the issuer's data (none verified it) still goes to the card as an approval;
    // without an ARPC the card decides by its own risk management.
    const answer: ChipHostResponse = readIssuerResponse(r.EmvData ?? '') ?? { arc: '00' };
    const completion = await this.tell(answer);
    const scriptResults = scriptResultsOf(completion);
    if (completion.kind === 'completed' && completion.decision === 'TC')
      return { kind: 'confirmed', patch: { cardDecision: 'TC', scriptResults } };
    const why = refusalOf(completion);
    const refused = await this.deps.journal.queueReversal(
      row.utn,
      `${CARD_REFUSAL_MESSAGE[why]} (reversing)`,
      this.deps.clock.now(),
      { cardDecision: completion.kind === 'completed' ? 'AAC' : null, scriptResults },
    );
    this.deps.kickReversals();
    this.deps.log.log(
      'warn',
      'sale',
      `${row.utn} card ${this.last4}: issuer approved, card ${why} (${completion.kind}); reversal queued`,
    );
    return { kind: 'refused', why, row: refused };
  }

  private async tell(answer: ChipHostResponse | 'unable-to-go-online'): Promise<ChipCompletion> {
    this.open = false;
    const c = await this.reader.complete(answer);
    this.deps.log.log(
      'info',
      'sale',
      `card ${this.last4}: ${answer === 'unable-to-go-online' ? 'unable to go online' : `ARC ${answer.arc}`} → ${
        c.kind === 'completed' ? c.decision : c.kind
      }`,
    );
    return c;
  }
}

/** The tender of an approval the card refused: reversed (queued), with the reason for the cashier. */
export function refusedTender(view: TenderView, row: JournalRow, why: CardRefusal): void {
  view.userTransactionNumber = row.utn;
  view.status = 'reversed';
  view.approvedCents = 0;
  view.cardRefusal = why;
  view.message = CARD_REFUSAL_MESSAGE[why];
  if (row.authCode) view.authCode = row.authCode;
  if (row.srn) view.serviceReferenceNumber = row.srn;
  if (row.gatewayCode !== null) view.gatewayCode = row.gatewayCode;
}
