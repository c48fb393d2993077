import { useMemo } from 'react';
import { encodeCode128 } from '../format/code128';

type Props = { data: string; label: string; height?: number };

/** Ten modules of white each side: the quiet zone a reader needs (ISO/IEC 15417 §4.4.1). */
const QUIET = 10;

/**
 * A Code 128 symbol as one SVG path (crisp at any size), with its text under it as the printer prints
 * it: what a scanner at the counter reads back from the screen or the paper.
 */
export function Code128({ data, label, height = 56 }: Props) {
  const { path, width } = useMemo(() => {
    const symbol = encodeCode128(data);
    let x = QUIET;
    let d = '';
    symbol.widths.forEach((w, i) => {
      if (i % 2 === 0) d += `M${x} 0h${w}v1h-${w}z`;
      x += w;
    });
    return { path: d, width: symbol.modules + 2 * QUIET };
  }, [data]);
  return (
    <figure className="code128">
      <svg
        role="img"
        aria-label={label}
        viewBox={`0 0 ${width} 1`}
        preserveAspectRatio="none"
        width={width * 2}
        height={height}
        shapeRendering="crispEdges"
      >
        <rect width={width} height={1} fill="#fff" />
        <path d={path} fill="#000" />
      </svg>
      <figcaption>{data}</figcaption>
    </figure>
  );
}
