/** Reads a .tar.gz into name → bytes (regular files only): enough to check Hearth's exports. */
import { gunzipSync } from 'node:zlib';

export function untarGz(gz: Buffer): Map<string, Buffer> {
  const tar = gunzipSync(gz);
  const out = new Map<string, Buffer>();
  let at = 0;
  while (at + 512 <= tar.length) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(header.subarray(124, 136).toString('latin1').replace(/\0.*$/s, '').trim(), 8);
    const stored = parseInt(header.subarray(148, 156).toString('latin1').replace(/\0.*$/s, '').trim(), 8);
    const blank = Buffer.from(header);
    blank.fill(0x20, 148, 156);
    const sum = blank.reduce((s, b) => s + b, 0);
    if (sum !== stored) throw new Error(`bad tar checksum for ${name}`);
    if (header[156] === 0x30 || header[156] === 0) out.set(name, Buffer.from(tar.subarray(at + 512, at + 512 + size)));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}
