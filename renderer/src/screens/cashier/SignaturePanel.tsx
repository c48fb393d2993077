import { useRef, useState, type PointerEvent } from 'react';
import { useApp, useSaleStore } from '../../state/context';

type Point = { x: number; y: number; t: number };

/**
 * "Sign here": on the signature pad when one is connected (the cashier confirms once the customer has
 * signed), or in the box on this screen, which takes finger, pen or mouse strokes.
 */
export function SignaturePanel() {
  const sale = useSaleStore();
  const padConnected = useApp((s) =>
    (s.status?.devices ?? []).some((d) => d.role === 'signaturePad' && d.state === 'connected'),
  );
  const [strokes, setStrokes] = useState<Point[][]>([]);
  const drawing = useRef<Point[] | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const [busy, setBusy] = useState(false);
  const width = 560;
  const height = 200;

  const point = (e: PointerEvent<SVGSVGElement>): Point => {
    const box = svgRef.current?.getBoundingClientRect();
    const sx = box ? width / box.width : 1;
    const sy = box ? height / box.height : 1;
    return {
      x: Math.round((e.clientX - (box?.left ?? 0)) * sx),
      y: Math.round((e.clientY - (box?.top ?? 0)) * sy),
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

  const finish = async (source: 'pad' | 'screen') => {
    setBusy(true);
    await sale
      .getState()
      .signature(source === 'pad' ? { source: 'pad' } : { source: 'screen', width, height, strokes });
    setBusy(false);
  };

  return (
    <section className="card" aria-labelledby="sign-title">
      <h2 id="sign-title" className="prompt" role="status">
        Sign here
      </h2>
      {padConnected ? (
        <div className="stack">
          <p>Ask the customer to sign on the signature pad, then confirm.</p>
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy}
            onClick={() => void finish('pad')}
            data-autofocus
          >
            Customer has signed on the pad
          </button>
        </div>
      ) : null}
      <p id="sign-box-hint">
        {padConnected ? 'Or sign in the box below.' : 'The customer signs in the box below.'}
      </p>
      <svg
        ref={svgRef}
        className="signature-box"
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label="Signature box"
        aria-describedby="sign-box-hint"
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
      >
        <line x1="20" y1={height - 40} x2={width - 20} y2={height - 40} stroke="#666" strokeDasharray="6 6" />
        {strokes.map((s, i) => (
          <polyline
            key={i}
            points={s.map((p) => `${p.x},${p.y}`).join(' ')}
            fill="none"
            stroke="#000"
            strokeWidth="3"
          />
        ))}
      </svg>
      <div className="row">
        <button type="button" className="btn" onClick={() => setStrokes([])} disabled={strokes.length === 0}>
          Clear signature
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy || strokes.length === 0}
          onClick={() => void finish('screen')}
        >
          Accept signature
        </button>
      </div>
    </section>
  );
}
