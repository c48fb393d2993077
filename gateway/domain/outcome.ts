import { declineCatalog, isDeclineCode } from '../contract/decline-codes';
import { ResponseCode, responseCatalog } from '../contract/response-codes';

export type BaseOutcome = {
  Msg: string[];
  ResponseCode: number;
  displayMessage: string;
  verbiage: string;
  /** Declines only: the reason (contract/decline-codes.ts); ResponseCode is then 3. */
  DeclineCode?: number;
};

function catalogEntry(code: number) {
  return (responseCatalog as Record<number, { meaning: string; verbiage: string } | undefined>)[code];
}

/**
 * The four fields every answer carries, for a code and its messages. Inside the gateway a decline is
 * known by its reason (a DeclineCode, as the processor and the payments table say it); on the wire it is
 * the real catalog's ResponseCode 3 with the reason's verbiage (`EXPIRED CARD`; never a word containing
 * APPROV, which a published client reads as approval) and the reason in DeclineCode.
 */
export function outcome(code: number, messages: string[] = [], display?: string): BaseOutcome {
  if (isDeclineCode(code)) {
    return {
      Msg: messages.length > 0 ? messages : ['Declined'],
      ResponseCode: ResponseCode.Declined,
      displayMessage: display ?? messages[0] ?? 'Declined',
      verbiage: declineCatalog[code].verbiage,
      DeclineCode: code,
    };
  }
  const entry = catalogEntry(code);
  return {
    Msg: messages.length > 0 ? messages : [entry?.meaning ?? 'Done'],
    ResponseCode: code,
    displayMessage: display ?? messages[0] ?? entry?.meaning ?? '',
    verbiage: entry?.verbiage ?? 'ERROR',
  };
}

export function success(messages: string[] = ['Success'], display?: string): BaseOutcome {
  return outcome(ResponseCode.Success, messages, display);
}

/** The real catalog's "system error" (300, HTTP 500): shares its number with OperationNotSupported. */
export function systemError(messages: string[]): BaseOutcome {
  return { ...outcome(ResponseCode.InternalError, messages), verbiage: 'SYSTEM ERROR' };
}

/** A failure the domain raises deep inside a unit of work; the route turns it into an answer. */
export class DomainError extends Error {
  constructor(
    readonly code: number,
    readonly messages: string[],
  ) {
    super(messages.join('; '));
    this.name = 'DomainError';
  }
}
