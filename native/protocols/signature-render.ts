/**
 * Captured signature strokes -> the shapes gateways take (docs/devices.md §5.2): an SVG document,
 * PNG bytes (Finix, Paynet and Clover take base64 PNG), and the Worldnet/Payroc base-28 vector point
 * string. Pure CPU work; no I/O.
 */
import { PNG } from 'pngjs';

/** Strokes in some source canvas; `t` is optional here since rendering ignores time. */
export type RenderPoint = { x: number; y: number; t?: number };
export type RenderStroke = readonly RenderPoint[];
export type CanvasSize = { width: number; height: number };

export type RenderOptions = {
  /** The coordinate space of the strokes, e.g. the pad's logical size (SigLite 1x5: 2150 x 1400). */
  source: CanvasSize;
  /** Output size in pixels; default: the source scaled to 600 px wide. */
  width?: number;
  height?: number;
  /** Line width in output pixels. Default 3. */
  strokeWidth?: number;
};

function outputSize(opts: RenderOptions): CanvasSize {
  const width = Math.max(1, Math.round(opts.width ?? 600));
  const height = Math.max(
    1,
    Math.round(opts.height ?? (width * opts.source.height) / Math.max(1, opts.source.width)),
  );
  return { width, height };
}

function fmt(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/** An SVG document: one polyline per stroke (a lone point becomes a dot), black on transparent. */
export function strokesToSvg(strokes: readonly RenderStroke[], opts: RenderOptions): string {
  const { width, height } = outputSize(opts);
  const sx = width / opts.source.width;
  const sy = height / opts.source.height;
  const w = opts.strokeWidth ?? 3;
  const parts: string[] = [];
  for (const stroke of strokes) {
    if (stroke.length === 0) continue;
    if (stroke.length === 1) {
      const p = stroke[0] as RenderPoint;
      parts.push(`<circle cx="${fmt(p.x * sx)}" cy="${fmt(p.y * sy)}" r="${fmt(w / 2)}" fill="#000"/>`);
      continue;
    }
    const pts = stroke.map((p) => `${fmt(p.x * sx)},${fmt(p.y * sy)}`).join(' ');
    parts.push(`<polyline points="${pts}"/>`);
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<g fill="none" stroke="#000" stroke-width="${fmt(w)}" stroke-linecap="round" stroke-linejoin="round">` +
    `${parts.join('')}</g></svg>`
  );
}

export type PngOptions = RenderOptions & {
  /** Default 'white': some gateways render transparent pixels as black. */
  background?: 'white' | 'transparent';
};

/** PNG bytes of the strokes: round-capped lines of `strokeWidth` pixels, drawn by stamping discs. */
export function strokesToPng(strokes: readonly RenderStroke[], opts: PngOptions): Uint8Array {
  const { width, height } = outputSize(opts);
  const png = new PNG({ width, height });
  const data = png.data;
  const bg = (opts.background ?? 'white') === 'white' ? 255 : 0;
  // RGBA all 255 = opaque white; all 0 = transparent.
  data.fill(bg);
  const sx = width / opts.source.width;
  const sy = height / opts.source.height;
  const r = Math.max(0.5, (opts.strokeWidth ?? 3) / 2);
  const stamp = (cx: number, cy: number): void => {
    const x0 = Math.max(0, Math.floor(cx - r));
    const x1 = Math.min(width - 1, Math.ceil(cx + r));
    const y0 = Math.max(0, Math.floor(cy - r));
    const y1 = Math.min(height - 1, Math.ceil(cy + r));
    for (let y = y0; y <= y1; y += 1) {
      for (let x = x0; x <= x1; x += 1) {
        const dx = x + 0.5 - cx;
        const dy = y + 0.5 - cy;
        if (dx * dx + dy * dy > r * r) continue;
        const i = (y * width + x) * 4;
        data[i] = 0;
        data[i + 1] = 0;
        data[i + 2] = 0;
        data[i + 3] = 255;
      }
    }
  };
  for (const stroke of strokes) {
    let prev: RenderPoint | undefined;
    for (const p of stroke) {
      const ax = (prev ?? p).x * sx;
      const ay = (prev ?? p).y * sy;
      const bx = p.x * sx;
      const by = p.y * sy;
      const steps = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / Math.max(0.5, r / 2)));
      for (let s = 0; s <= steps; s += 1) stamp(ax + ((bx - ax) * s) / steps, ay + ((by - ay) * s) / steps);
      prev = p;
    }
  }
  return new Uint8Array(PNG.sync.write(png));
}

// ---------------------------------------------------------------------------------------------------
// Worldnet / Payroc vector point string (§5.2)

/** Canvas of the vector format: 300 x 100 (3:1). */
export const VECTOR_CANVAS: CanvasSize = { width: 300, height: 100 };
/** The format holds at most 1600 characters = 400 four-character groups (pen-ups included). */
export const VECTOR_MAX_GROUPS = 400;
const DIGITS = '0123456789abcdefghijklmnopqr';
const PEN_UP = '0000';

function base28(n: number): string {
  return (DIGITS[Math.floor(n / 28)] ?? '0') + (DIGITS[n % 28] ?? '0');
}

function unbase28(s: string): number | undefined {
  const hi = DIGITS.indexOf(s[0] ?? '');
  const lo = DIGITS.indexOf(s[1] ?? '');
  return hi < 0 || lo < 0 ? undefined : hi * 28 + lo;
}

/**
 * Encodes strokes as concatenated 4-character points (x then y, each 2 base-28 digits 0-9a-r) with
 * `0000` between strokes. The source canvas is fitted into 300 x 100 keeping its aspect and centred;
 * strokes are thinned evenly when they would exceed 400 groups. The point (0,0) would read as a pen-up,
 * so it is nudged to (1,0).
 */
export function encodeVectorSignature(strokes: readonly RenderStroke[], source: CanvasSize): string {
  const scale = Math.min(VECTOR_CANVAS.width / source.width, VECTOR_CANVAS.height / source.height);
  const offX = (VECTOR_CANVAS.width - source.width * scale) / 2;
  const offY = (VECTOR_CANVAS.height - source.height * scale) / 2;
  const scaled: { x: number; y: number }[][] = [];
  for (const stroke of strokes) {
    const out: { x: number; y: number }[] = [];
    for (const p of stroke) {
      let x = Math.min(VECTOR_CANVAS.width - 1, Math.max(0, Math.round(offX + p.x * scale)));
      const y = Math.min(VECTOR_CANVAS.height - 1, Math.max(0, Math.round(offY + p.y * scale)));
      if (x === 0 && y === 0) x = 1;
      const last = out[out.length - 1];
      if (!last || last.x !== x || last.y !== y) out.push({ x, y });
    }
    if (out.length > 0) scaled.push(out);
  }
  let step = 1;
  for (;;) {
    const thinned = scaled.map((s) => thin(s, step));
    const groups = thinned.reduce((n, s) => n + s.length, 0) + Math.max(0, thinned.length - 1);
    if (groups <= VECTOR_MAX_GROUPS || step > 1000) {
      return thinned
        .map((s) => s.map((p) => base28(p.x) + base28(p.y)).join(''))
        .join(PEN_UP)
        .slice(0, VECTOR_MAX_GROUPS * 4);
    }
    step += 1;
  }
}

function thin<T>(points: T[], step: number): T[] {
  if (step <= 1 || points.length <= 2) return points;
  const out: T[] = [];
  for (let i = 0; i < points.length; i += step) out.push(points[i] as T);
  const last = points[points.length - 1] as T;
  if (out[out.length - 1] !== last) out.push(last);
  return out;
}

/** Decodes a vector string into strokes on the 300 x 100 canvas; malformed groups are skipped. */
export function decodeVectorSignature(s: string): { x: number; y: number }[][] {
  const strokes: { x: number; y: number }[][] = [];
  let current: { x: number; y: number }[] = [];
  const text = s.toLowerCase();
  for (let i = 0; i + 4 <= text.length; i += 4) {
    const group = text.slice(i, i + 4);
    if (group === PEN_UP) {
      if (current.length > 0) strokes.push(current);
      current = [];
      continue;
    }
    const x = unbase28(group.slice(0, 2));
    const y = unbase28(group.slice(2));
    if (x === undefined || y === undefined) continue;
    current.push({ x, y });
  }
  if (current.length > 0) strokes.push(current);
  return strokes;
}
