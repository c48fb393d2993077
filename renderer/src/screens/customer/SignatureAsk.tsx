import { useTranslation } from 'react-i18next';
import type { CustomerAsk } from '../../../../common/bridge/contract';
import { formatCents } from '../../format/money';
import { useSignatureStrokes } from '../../ui/use-signature-strokes';
import { useCustomer, useCustomerStore } from './customer-context';

const WIDTH = 600;
const HEIGHT = 220;

/**
 * "Please sign" on the customer's own screen: finger, pen or mouse strokes in a box, sent as the
 * cashier's box sends them. The pad and the cashier's box stay open too; the first signature taken wins.
 */
export function SignatureAsk({ ask }: { ask: Extract<CustomerAsk, { kind: 'signature' }> }) {
  const { t } = useTranslation('customer');
  const store = useCustomerStore();
  const busy = useCustomer((s) => s.busy);
  const { strokes, clear, box, down, move, up } = useSignatureStrokes(WIDTH, HEIGHT);

  return (
    <section className="cd-ask" aria-labelledby="cd-sign-title">
      <h2 id="cd-sign-title" className="cd-ask-title">
        {t('signTitle')}
      </h2>
      <p className="cd-hint">{t('signFor', { amount: formatCents(ask.amountCents) })}</p>
      <svg
        ref={box}
        className="cd-signature"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={t('signBox')}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
      >
        <line x1="24" y1={HEIGHT - 48} x2={WIDTH - 24} y2={HEIGHT - 48} stroke="#555" strokeDasharray="8 8" />
        {strokes.map((s, i) => (
          <polyline
            key={i}
            points={s.map((p) => `${p.x},${p.y}`).join(' ')}
            fill="none"
            stroke="#000"
            strokeWidth="4"
            strokeLinecap="round"
          />
        ))}
      </svg>
      <div className="cd-row">
        <button type="button" className="cd-button" disabled={busy || strokes.length === 0} onClick={clear}>
          {t('signClear')}
        </button>
        <button
          type="button"
          className="cd-button cd-primary"
          disabled={busy || strokes.length === 0}
          onClick={() =>
            void store.getState().sign({ source: 'screen', width: WIDTH, height: HEIGHT, strokes })
          }
        >
          {t('signDone')}
        </button>
      </div>
    </section>
  );
}
