import { Type, type Static } from 'typebox';
import { Text } from './schema-kit';

export type GatewayTimeouts = {
  /** Money-moving operations (sale, debit, refund…): no answer by then = unknown outcome. */
  saleMs: number;
  /** Reversals, reports and other reads. */
  otherMs: number;
};

export type GatewaySettingsView = {
  baseUrl: string;
  mid: number;
  cid: number;
  userName: string;
  appKey: string;
  appType: number;
  passwordSet: boolean;
  timeouts: GatewayTimeouts;
  /** True when the core runs the embedded sandbox gateway. */
  embeddedSandbox: boolean;
};

const timeout = Type.Integer({
  minimum: 500,
  maximum: 120_000,
  problem: 'Timeouts are 0.5 to 120 seconds.',
});
const wholeNumber = Type.Integer({ minimum: 0, problem: 'mid, cid and appType are whole numbers.' });

export const GatewaySettingsUpdateSchema = Type.Object({
  baseUrl: Type.Optional(Text(2048, 'baseUrl')),
  mid: Type.Optional(wholeNumber),
  cid: Type.Optional(wholeNumber),
  userName: Type.Optional(Text(128, 'userName')),
  /** Write-only: never read back. */
  password: Type.Optional(Text(256, 'password')),
  appKey: Type.Optional(Text(128, 'appKey')),
  appType: Type.Optional(wholeNumber),
  timeouts: Type.Optional(Type.Object({ saleMs: Type.Optional(timeout), otherMs: Type.Optional(timeout) })),
});
export type GatewaySettingsUpdate = Static<typeof GatewaySettingsUpdateSchema>;

export type GatewayTestResult = { ok: boolean; latencyMs: number; message: string };

export type GatewayStatusView = {
  online: boolean;
  lastCheckedAt?: number;
  lastError?: string;
};
