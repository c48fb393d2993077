import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApp, useSaleStore } from '../../state/context';
import { useSignatureStrokes } from '../../ui/use-signature-strokes';

/**
 * "Sign here": on the signature pad when one is connected (the cashier confirms once the customer has
 * signed), or in the box on this screen, which takes finger, pen or mouse strokes.
 */
export function SignaturePanel() {
  const { t } = useTranslation('sale');
  const sale = useSaleStore();
  const padConnected = useApp((s) =>
    (s.status?.devices ?? []).some((d) => d.role === 'signaturePad' && d.state === 'connected'),
  );
  const [busy, setBusy] = useState(false);
  const width = 560;
  const height = 200;
  const { strokes, clear, box: svgRef, down, move, up } = useSignatureStrokes(width, height);

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
        {t('signature.signHere')}
      </h2>
      {padConnected ? (
        <div className="stack">
          <p>{t('signature.onPad')}</p>
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy}
            onClick={() => void finish('pad')}
            data-autofocus
          >
            {t('signature.signedOnPad')}
          </button>
        </div>
      ) : null}
      <p id="sign-box-hint">{padConnected ? t('signature.orBox') : t('signature.inBox')}</p>
      <svg
        ref={svgRef}
        className="signature-box"
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={t('signature.box')}
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
        <button type="button" className="btn" onClick={clear} disabled={strokes.length === 0}>
          {t('signature.clear')}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy || strokes.length === 0}
          onClick={() => void finish('screen')}
        >
          {t('signature.accept')}
        </button>
      </div>
    </section>
  );
}
