import type { SignatureInput } from '../../common/bridge/contract';

const MAX_POINTS = 20_000;

/**
 * A signature drawn on the terminal's screen, as SVG paths in its own box. Coordinates are rounded to
 * one decimal and bounded, so a hostile payload cannot inflate the ticket record.
 */
export function signatureSvg(input: Extract<SignatureInput, { source: 'screen' }>): string | undefined {
  const width = Number(input.width);
  const height = Number(input.height);
  if (
    !Number.isFinite(width) ||
    !Number.isFinite(height) ||
    width <= 0 ||
    height <= 0 ||
    width > 4000 ||
    height > 4000
  )
    return undefined;
  if (!Array.isArray(input.strokes)) return undefined;
  let points = 0;
  const paths: string[] = [];
  for (const stroke of input.strokes) {
    if (!Array.isArray(stroke) || stroke.length === 0) continue;
    const coords: string[] = [];
    for (const p of stroke) {
      if (++points > MAX_POINTS) return undefined;
      const x = Number(p?.x);
      const y = Number(p?.y);
      if (!Number.isFinite(x) || !Number.isFinite(y)) return undefined;
      const cx = Math.min(width, Math.max(0, x)).toFixed(1);
      const cy = Math.min(height, Math.max(0, y)).toFixed(1);
      coords.push(`${coords.length === 0 ? 'M' : 'L'}${cx} ${cy}`);
    }
    paths.push(`<path d="${coords.join(' ')}"/>`);
  }
  if (paths.length === 0) return undefined;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" fill="none" stroke="black" stroke-width="2" stroke-linecap="round">${paths.join('')}</svg>`;
}
