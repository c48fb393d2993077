import type { BridgeError, BridgeErrorCode } from './contract';

/** Thrown inside the core to answer a command with `{ ok: false, error }`; never crosses the bridge itself. */
export class BridgeFailure extends Error {
  readonly code: BridgeErrorCode;
  readonly gatewayCode: number | undefined;
  readonly declineCode: number | undefined;
  readonly problems: string[] | undefined;
  readonly messageId: string | undefined;
  readonly params: Record<string, string | number> | undefined;

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
    };
  }
}
