import { useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomerAsk } from '../../../../electron/bridge/contract';
import { formatCents } from '../../format/money';
import { useCustomer, useCustomerStore } from './customer-context';

type Point = { x: number; y: number; t: number };

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
  const [strokes, setStrokes] = useState<Point[][]>([]);
  const drawing = useRef<Point[] | null>(null);
  const box = useRef<SVGSVGElement>(null);

  const point = (e: PointerEvent<SVGSVGElement>): Point => {
    const r = box.current?.getBoundingClientRect();
    const sx = r ? WIDTH / r.width : 1;
    const sy = r ? HEIGHT / r.height : 1;
    return {
      x: Math.round((e.clientX - (r?.left ?? 0)) * sx),
      y: Math.round((e.clientY - (r?.top ?? 0)) * sy),
      t: Math.round(e.timeStamp),
    };
  };
  const down = (e: PointerEvent<SVGSVGElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drawing.current = [point(e)];
    setStrokes((s) => [...s, drawing.current ?? []]);
  };
  const move = (e: PointerEvent<SVGSVGElement>) => {
    if (!drawing.current) return;
    drawing.current.push(point(e));
    setStrokes((s) => [...s.slice(0, -1), [...(drawing.current ?? [])]]);
  };
  const up = () => {
    drawing.current = null;
  };

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
        <button
          type="button"
          className="cd-button"
          disabled={busy || strokes.length === 0}
          onClick={() => setStrokes([])}
        >
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
