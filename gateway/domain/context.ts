import type { Principal } from '../security/authenticator';
import type { Storage } from '../storage/queryable';
import type { Processor } from '../sandbox/processor';
import type { GatewayKeys } from '../security/keys';
import type { Clock } from './clock';

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
