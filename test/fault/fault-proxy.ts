import { sleep, startLoopbackProxy, type ProxyPlan } from '../support/loopback-proxy';

/**
 * A loopback HTTP proxy between the terminal and the gateway that injects the faults a store's network
 * produces: a request held back (it reaches the gateway late, after the terminal gave up), a response held
 * back, the response dropped after the gateway committed the payment, and the connection reset before the
 * request was forwarded.
 */
export type Fault = 'pass' | 'delay-request' | 'delay-response' | 'drop-response' | 'reset';

export type FaultPolicy = (path: string) => { fault: Fault; delayMs: number };

export type FaultProxy = {
  readonly url: string;
  setPolicy(policy: FaultPolicy): void;
  readonly counts: Record<Fault, number>;
  /** Requests forwarded to the gateway and not yet answered (held ones included). */
  inFlight(): number;
  /** Resolves once nothing is in flight. */
  idle(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
};

export const passThrough: FaultPolicy = () => ({ fault: 'pass', delayMs: 0 });

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  let policy: FaultPolicy = passThrough;
  const counts: Record<Fault, number> = {
    pass: 0,
    'delay-request': 0,
    'delay-response': 0,
    'drop-response': 0,
    reset: 0,
  };
  const proxy = await startLoopbackProxy(target, (req): ProxyPlan => {
    const { fault, delayMs } = policy(req.url ?? '/');
    counts[fault] += 1;
    if (fault === 'reset') return { reset: true };
    return {
      ...(fault === 'delay-request' ? { beforeForward: () => sleep(delayMs).then(() => undefined) } : {}),
      dropResponse: fault === 'drop-response',
      ...(fault === 'delay-response' ? { delayResponseMs: delayMs } : {}),
    };
  });
  return {
    url: proxy.url,
    setPolicy(p) {
      policy = p;
    },
    counts,
    inFlight: proxy.inFlight,
    idle: proxy.idle,
    close: proxy.close,
  };
}
