import { useEffect, useState } from 'react';
import type { SaleProgress } from '../../../../common/bridge/contract';
import { useNow, useSale, useSaleStore } from '../../state/context';

/** The live device prompt ("Insert, tap or swipe", "Customer entering PIN", …) and a cancel that stops the device. */
export function PromptPanel() {
  const progress = useSale((s) => s.progress);
  const sale = useSaleStore();
  const [deadline, setDeadline] = useState<number | null>(null);
  const now = useNow(1000);
  const [cancelling, setCancelling] = useState(false);

  useEffect(() => {
    setDeadline(progress?.timeoutSeconds ? Date.now() + progress.timeoutSeconds * 1000 : null);
  }, [progress]);

  const prompt = promptText(progress);
  const left = deadline ? Math.max(0, Math.round((deadline - now) / 1000)) : null;
  // Once the request has left for the gateway, cancelling cannot stop it: the core says so by its step.
  const canCancel =
    !progress ||
    progress.step === 'waiting-for-card' ||
    progress.step === 'reading-card' ||
    progress.step === 'pin-entry';
  return (
    <section aria-labelledby="prompt-text" className="stack">
      <h2 className="sr-only">In progress</h2>
      <div
        id="prompt-text"
        className="prompt"
        role="status"
        aria-live="assertive"
        data-step={progress?.step ?? 'starting'}
      >
        {prompt}
      </div>
      {left !== null && canCancel ? <p className="hint">Times out in {left} s</p> : null}
      {left !== null && progress?.step === 'authorizing' ? (
        <p className="hint">Answer due in {left} s</p>
      ) : null}
      <button
        type="button"
        className="btn btn-danger"
        disabled={!canCancel || cancelling}
        onClick={() => {
          setCancelling(true);
          void sale
            .getState()
            .cancel()
            .finally(() => setCancelling(false));
        }}
        aria-keyshortcuts="Escape"
        data-autofocus
      >
        Cancel <kbd aria-hidden="true">Esc</kbd>
      </button>
    </section>
  );
}

function promptText(p: SaleProgress | null): string {
  if (!p) return 'Starting…';
  return p.prompt;
}
