/**
 * Default avatars made locally (Hearth never asks gravatar): a symmetric 5×5
 * identicon in a colour derived from the user ID, encoded as a PNG with
 * node:zlib. Deterministic, so it caches like a file.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

export const AVATAR_SIZE = 100;
export const AVATAR_MEDIUM_SIZE = 500;
/** Largest accepted uploaded avatar (Zulip's MAX_AVATAR_FILE_SIZE_MIB default). */
export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

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

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/** An RGB PNG of `size`×`size` pixels where `pixel(x, y)` gives each colour. */
export function encodePng(size: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const row = 1 + size * 3;
  const raw = Buffer.alloc(row * size);
  for (let y = 0; y < size; y++) {
    raw[y * row] = 0;
    for (let x = 0; x < size; x++) {
      const [r, g, b] = pixel(x, y);
      const o = y * row + 1 + x * 3;
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The generated default avatar of a user (`seed`: its ID), or a grey silhouette-free tile for unknown users. */
export function defaultAvatarPng(seed: number | null, size: number = AVATAR_SIZE): Buffer {
  const background: [number, number, number] = [240, 240, 240];
  if (seed === null) return encodePng(size, () => [200, 200, 200]);
  const hash = createHash('sha256').update(`hearth-avatar:${seed}`).digest();
  const colour = hslToRgb((hash[0]! * 360) / 256, 0.55, 0.5);
  const cells: boolean[][] = [];
  for (let y = 0; y < 5; y++) {
    cells.push([]);
    for (let x = 0; x < 3; x++) cells[y]!.push(((hash[1 + y * 3 + x]! >> 3) & 1) === 1);
  }
  const margin = Math.round(size * 0.1);
  const cell = (size - 2 * margin) / 5;
  return encodePng(size, (x, y) => {
    const cx = Math.floor((x - margin) / cell);
    const cy = Math.floor((y - margin) / cell);
    if (cx < 0 || cy < 0 || cx > 4 || cy > 4) return background;
    const col = cx < 3 ? cx : 4 - cx;
    return cells[cy]![col] ? colour : background;
  });
}
