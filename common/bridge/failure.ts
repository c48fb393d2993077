import type { BridgeError, BridgeErrorCode, MessageWords } from './contract';

/** Thrown inside the core to answer a command with `{ ok: false, error }`; never crosses the bridge itself. */
export class BridgeFailure extends Error {
  readonly code: BridgeErrorCode;
  readonly gatewayCode: number | undefined;
  readonly declineCode: number | undefined;
  readonly problems: string[] | undefined;
  readonly messageId: string | undefined;
  readonly params: Record<string, string | number> | undefined;
  readonly problemWords: MessageWords[] | undefined;

  constructor(
    code: BridgeErrorCode,
    message: string,
    extra: {
      gatewayCode?: number;
      declineCode?: number;
      problems?: string[];
      /** The message's id in the screens' catalogs (contract/errors.ts) and its values. */
      messageId?: string;
      params?: Record<string, string | number>;
      /** `problems` by their ids in the screens' catalogs, in the same order. */
      problemWords?: MessageWords[];
    } = {},
  ) {
    super(message);
    this.name = 'BridgeFailure';
    this.code = code;
    this.gatewayCode = extra.gatewayCode;
    this.declineCode = extra.declineCode;
    this.problems = extra.problems;
    this.messageId = extra.messageId;
    this.params = extra.params;
    this.problemWords = extra.problemWords;
  }

  toError(): BridgeError {
    return {
      code: this.code,
      message: this.message,
      ...(this.gatewayCode !== undefined ? { gatewayCode: this.gatewayCode } : {}),
      ...(this.declineCode !== undefined ? { declineCode: this.declineCode } : {}),
      ...(this.problems ? { problems: this.problems } : {}),
      ...(this.messageId !== undefined ? { messageId: this.messageId } : {}),
      ...(this.params ? { params: this.params } : {}),
      ...(this.problemWords ? { problemWords: this.problemWords } : {}),
    };
  }
}
