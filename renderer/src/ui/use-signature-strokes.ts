import { useRef, useState, type PointerEvent } from 'react';

export type SignaturePoint = { x: number; y: number; t: number };

/**
 * The strokes of a signature box (the cashier's and the customer display's alike): pointer events
 * scaled to the box's own width × height whatever size it is drawn at, each pointer-down a new stroke,
 * the pointer captured so a stroke that leaves the box still ends.
 */
export function useSignatureStrokes(width: number, height: number) {
  const [strokes, setStrokes] = useState<SignaturePoint[][]>([]);
  const drawing = useRef<SignaturePoint[] | null>(null);
  const box = useRef<SVGSVGElement>(null);

  const point = (e: PointerEvent<SVGSVGElement>): SignaturePoint => {
    const r = box.current?.getBoundingClientRect();
    const sx = r ? width / r.width : 1;
    const sy = r ? height / r.height : 1;
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
  return { strokes, clear: () => setStrokes([]), box, down, move, up };
}
