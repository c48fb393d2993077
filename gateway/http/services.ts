import type { Services } from '../domain/context';
import type { FraudScreen } from '../domain/payments';
import type { Authenticator } from '../security/authenticator';

export type GatewayConfig = {
  /** Prefix of every API path, e.g. `/testing` (empty by default). */
  basePath: string;
  /** `{basePath}/testing/api/...` is served as `{basePath}/api/...` (app.ts). */
  testingPrefix: boolean;
  /** Public origin used in generated links (payment link checkout URLs). */
  publicUrl: string;
  bodyLimitBytes: number;
  processorTimeoutMs: number;
  tokenTtlSeconds: number;
  sandbox: boolean;
};

/** Everything a route needs, built once by buildGateway. */
export type GatewayServices = Services & {
  authenticator: Authenticator;
  fraud: FraudScreen;
  config: GatewayConfig;
  processorTimeoutMs: number;
};
