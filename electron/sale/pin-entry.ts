import type { PinResult } from '../../native/drivers/roles';
import type { AcquiredCard, Prompt } from './card-acquire';
import type { SaleEngineDeps } from './sale-deps';

/**
 * The customer's PIN from the pad: the pad returns KSN + PIN block, never the PIN
 * (docs/decisions.md#devices). A cancelled tender cancels the pad's request, which then answers `cancelled`.
 */
export async function requestPin(
  deps: Pick<SaleEngineDeps, 'devices' | 'settings'>,
  card: AcquiredCard,
  amountCents: number,
  signal: AbortSignal,
  prompt: Prompt,
): Promise<PinResult> {
  const pad = deps.devices()?.pinPad;
  if (!pad) return { kind: 'failed', reason: 'PIN pad not connected' };
  const timeoutMs = deps.settings().sale.pinWaitMs;
  prompt('pin-entry', 'Customer entering PIN', Math.round(timeoutMs / 1000));
  const onAbort = () => {
    pad.cancel().catch(() => undefined);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await pad.requestPin({ pan: card.pan, amountCents, timeoutMs });
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
