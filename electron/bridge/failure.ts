import type { BridgeError, BridgeErrorCode } from './contract';

/** Thrown inside the core to answer a command with `{ ok: false, error }`; never crosses the bridge itself. */
export class BridgeFailure extends Error {
  readonly code: BridgeErrorCode;
  readonly gatewayCode: number | undefined;
  readonly declineCode: number | undefined;
  readonly problems: string[] | undefined;

  constructor(
    code: BridgeErrorCode,
    message: string,
    extra: { gatewayCode?: number; declineCode?: number; problems?: string[] } = {},
  ) {
    super(message);
    this.name = 'BridgeFailure';
    this.code = code;
    this.gatewayCode = extra.gatewayCode;
    this.declineCode = extra.declineCode;
    this.problems = extra.problems;
  }

  toError(): BridgeError {
    return {
      code: this.code,
      message: this.message,
      ...(this.gatewayCode !== undefined ? { gatewayCode: this.gatewayCode } : {}),
      ...(this.declineCode !== undefined ? { declineCode: this.declineCode } : {}),
      ...(this.problems ? { problems: this.problems } : {}),
    };
  }
}
