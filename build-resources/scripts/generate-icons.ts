/**
 * Draws Hearth's app icon (a flame on a warm rounded square) and writes the PNGs
 * electron-builder uses: build-resources/icon.png (1024², macOS and Windows) and
 * build-resources/icons/<n>x<n>.png (Linux). No network, no image library: the shapes are
 * signed-distance functions sampled 4× per pixel, encoded with node:zlib.
 * Run: npm run icons
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

const OUT = fileURLToPath(new URL('..', import.meta.url));
export const LINUX_SIZES = [16, 32, 48, 64, 128, 256, 512] as const;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** An RGBA image as PNG (8-bit, colour type 6, no filtering). */
export function encodePng(size: number, rgba: Uint8Array): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    Buffer.from(rgba.buffer, rgba.byteOffset + y * size * 4, size * 4).copy(raw, y * (size * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Signed distance to a rounded square centred at 0.5 (negative inside). */
function roundedSquare(x: number, y: number, half: number, r: number): number {
  const qx = Math.abs(x - 0.5) - half + r;
  const qy = Math.abs(y - 0.5) - half + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

/** A flame: a circle below, narrowing to a point above (distance-ish, negative inside). */
function flame(x: number, y: number, cx: number, cy: number, r: number, height: number): number {
  const circle = Math.hypot(x - cx, y - cy) - r;
  if (y >= cy) return circle;
  // Above the centre the half-width shrinks linearly to 0 at the tip, with a slight lean.
  const t = (cy - y) / height;
  if (t >= 1) return Math.hypot(x - cx, y - (cy - height));
  const halfWidth = r * (1 - t) ** 1.2;
  const lean = 0.06 * r * Math.sin(t * Math.PI);
  return Math.abs(x - cx - lean) - halfWidth;
}

type Colour = [number, number, number];
const BACKGROUND: Colour = [0xc2, 0x41, 0x0c];
const OUTER: Colour = [0xfb, 0xbf, 0x24];
const INNER: Colour = [0xff, 0xf7, 0xe0];

function shade(x: number, y: number): [number, number, number, number] {
  if (roundedSquare(x, y, 0.45, 0.1) > 0) return [0, 0, 0, 0];
  if (flame(x, y, 0.5, 0.64, 0.1, 0.3) < 0) return [...INNER, 255];
  if (flame(x, y, 0.5, 0.6, 0.2, 0.42) < 0) return [...OUTER, 255];
  return [...BACKGROUND, 255];
}

/** Renders the icon at `size` pixels, 4×4 samples per pixel. */
export function renderIcon(size: number): Uint8Array {
  const out = new Uint8Array(size * size * 4);
  const S = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < S; sy++) {
        for (let sx = 0; sx < S; sx++) {
          const [cr, cg, cb, ca] = shade((px + (sx + 0.5) / S) / size, (py + (sy + 0.5) / S) / size);
          r += cr * ca;
          g += cg * ca;
          b += cb * ca;
          a += ca;
        }
      }
      const i = (py * size + px) * 4;
      out[i] = a ? Math.round(r / a) : 0;
      out[i + 1] = a ? Math.round(g / a) : 0;
      out[i + 2] = a ? Math.round(b / a) : 0;
      out[i + 3] = Math.round(a / (S * S));
    }
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  mkdirSync(join(OUT, 'icons'), { recursive: true });
  writeFileSync(join(OUT, 'icon.png'), encodePng(1024, renderIcon(1024)));
  for (const n of LINUX_SIZES) writeFileSync(join(OUT, 'icons', `${n}x${n}.png`), encodePng(n, renderIcon(n)));
  process.stdout.write(`icons written to ${OUT}\n`);
}
