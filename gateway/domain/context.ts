import type { Principal } from '../security/authenticator';
import type { Storage } from '../storage/queryable';
import type { Issuers } from './issuer-port';
import type { Processor } from './processor-port';
import type { GatewayKeys } from '../security/keys';
import type { Clock } from './clock';

// Routes, hosted pages and schedulers may not import storage (eslint.config.js); they name its handles
// through here.
export type { Queryable, Storage } from '../storage/queryable';

export type PaymentRules = {
  /** Same card, amount and type inside this window is a duplicate unless ForceDuplication (5 minutes by default). */
  duplicateWindowMs: number;
  amountCeilingCents: number;
  /** ClosePreauth's AdditionalTip may be at most this share of what the preauthorization held (20 %). */
  maxAdditionalTipPercent: number;
};

/** What every operation gets: storage, the processor, keys, time and rules. Built once per gateway. */
export type Services = {
  storage: Storage;
  processor: Processor;
  /** The gift card, EBT, check verification and deposit issuers the gateway stands in for. */
  issuers: Issuers;
  keys: GatewayKeys;
  clock: Clock;
  rules: PaymentRules;
  /** How long a processor call may take before its outcome counts as unknown (and is cancelled). */
  processorTimeoutMs: number;
};

/** Who is calling and how, for one request. */
export type RequestContext = {
  principal: Principal;
  isTest: boolean;
  source: string | null;
};
