import { ResponseCode, responseCatalog } from '../contract/response-codes';

export type BaseOutcome = { Msg: string[]; ResponseCode: number; displayMessage: string; verbiage: string };

function catalogEntry(code: number) {
  return (responseCatalog as Record<number, { meaning: string; verbiage: string } | undefined>)[code];
}

/** The four fields every answer carries, for a code and its messages. */
export function outcome(code: number, messages: string[] = [], display?: string): BaseOutcome {
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
