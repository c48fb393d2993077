import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumExecutable } from './chromium';

/**
 * `npm run icons`: renders build/icon.svg into the icons electron-builder packages — build/icons/NxN.png
 * (Linux: AppImage, deb, the desktop entry), build/icon.png, and build/icon.ico (Windows: the executable,
 * NSIS installer and uninstaller). Chromium does the rasterizing (the same browser the e2e tests use,
 * `apt-get install chromium`), so no image library is added for a step that runs only when the SVG
 * changes. The outputs are committed; build/icon.svg.sha256 records which SVG they came from, and
 * test/build fails when the SVG changed without them.
 */
const buildDir = dirname(fileURLToPath(import.meta.url));
export const ICON_SVG = join(buildDir, 'icon.svg');
export const ICON_SVG_HASH = join(buildDir, 'icon.svg.sha256');
export const LINUX_ICON_SIZES = [16, 24, 32, 48, 64, 128, 256, 512] as const;
/** Windows shell sizes; 256 is stored as PNG, the rest as 32-bit BMP, which every Windows tool reads. */
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256] as const;

export function svgHash(svg: string | Buffer): string {
  return createHash('sha256').update(svg).digest('hex');
}

/** An ICO entry as a 32-bit bottom-up BGRA DIB with an all-zero AND mask (alpha does the masking). */
function dibFromPng(png: Buffer): Buffer {
  const { width, height, data } = PNG.sync.read(png);
  const header = Buffer.alloc(40);
  const maskRow = Math.ceil(width / 32) * 4;
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(width, 4);
  header.writeInt32LE(height * 2, 8); // XOR bitmap + AND mask, as the ICO format requires
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  header.writeUInt32LE(width * height * 4 + maskRow * height, 20);
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = (y * width + x) * 4;
      const to = ((height - 1 - y) * width + x) * 4;
      pixels[to] = data[from + 2] ?? 0;
      pixels[to + 1] = data[from + 1] ?? 0;
      pixels[to + 2] = data[from] ?? 0;
      pixels[to + 3] = data[from + 3] ?? 0;
    }
  }
  return Buffer.concat([header, pixels, Buffer.alloc(maskRow * height)]);
}

export function buildIco(pngs: ReadonlyMap<number, Buffer>): Buffer {
  const sizes = [...pngs.keys()].sort((a, b) => a - b);
  const images = sizes.map((size) => {
    const png = pngs.get(size);
    if (!png) throw new Error(`no ${size}px image`);
    return size >= 256 ? png : dibFromPng(png);
  });
  const dir = Buffer.alloc(6 + 16 * sizes.length);
  dir.writeUInt16LE(0, 0);
  dir.writeUInt16LE(1, 2); // 1 = icon
  dir.writeUInt16LE(sizes.length, 4);
  let offset = dir.length;
  sizes.forEach((size, i) => {
    const at = 6 + 16 * i;
    const image = images[i] ?? Buffer.alloc(0);
    dir.writeUInt8(size >= 256 ? 0 : size, at); // 0 means 256
    dir.writeUInt8(size >= 256 ? 0 : size, at + 1);
    dir.writeUInt16LE(1, at + 4);
    dir.writeUInt16LE(32, at + 6);
    dir.writeUInt32LE(image.length, at + 8);
    dir.writeUInt32LE(offset, at + 12);
    offset += image.length;
  });
  return Buffer.concat([dir, ...images]);
}

async function render(svg: string, sizes: readonly number[]): Promise<Map<number, Buffer>> {
  const browser = await chromium.launch({
    executablePath: chromiumExecutable,
    args: [...chromiumArgs],
  });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    const out = new Map<number, Buffer>();
    for (const size of sizes) {
      await page.setViewportSize({ width: size, height: size });
      const sized = svg.replace(/width="1024" height="1024"/, `width="${size}" height="${size}"`);
      await page.setContent(
        `<!doctype html><html><body style="margin:0;background:transparent">${sized}</body></html>`,
      );
      out.set(
        size,
        await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }),
      );
    }
    return out;
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const svg = readFileSync(ICON_SVG, 'utf8');
  if (!svg.includes('width="1024" height="1024"'))
    throw new Error('icon.svg must declare width="1024" height="1024"');
  const sizes = [...new Set<number>([...LINUX_ICON_SIZES, ...ICO_SIZES])];
  const pngs = await render(svg, sizes);
  mkdirSync(join(buildDir, 'icons'), { recursive: true });
  for (const size of LINUX_ICON_SIZES) {
    const png = pngs.get(size);
    if (png) writeFileSync(join(buildDir, 'icons', `${size}x${size}.png`), png);
  }
  const big = pngs.get(512);
  if (big) writeFileSync(join(buildDir, 'icon.png'), big);
  writeFileSync(
    join(buildDir, 'icon.ico'),
    buildIco(new Map(ICO_SIZES.map((s) => [s, pngs.get(s) ?? Buffer.alloc(0)]))),
  );
  writeFileSync(ICON_SVG_HASH, `${svgHash(svg)}  icon.svg\n`);
  process.stdout.write(
    `icons: ${LINUX_ICON_SIZES.join(', ')} px PNG, icon.png, icon.ico (${ICO_SIZES.join(', ')})\n`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`icons: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
