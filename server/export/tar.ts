/** A gzip-compressed tar (ustar) of a flat folder, streamed to a file: what Zulip serves exports as. */
import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

function header(name: string, size: number, mtime: number): Buffer {
  const h = Buffer.alloc(512);
  const put = (text: string, offset: number, length: number) => h.write(text, offset, length, 'utf8');
  const octal = (n: number, length: number) => n.toString(8).padStart(length - 1, '0') + '\0';
  if (Buffer.byteLength(name) > 100) throw new Error(`name too long for tar: ${name}`);
  put(name, 0, 100);
  put(octal(0o600, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(Math.floor(mtime / 1000), 12), 136, 12);
  put('        ', 148, 8);
  put('0', 156, 1);
  put('ustar\u000000', 257, 8);
  let sum = 0;
  for (const byte of h) sum += byte;
  put(octal(sum, 7) + ' ', 148, 8);
  return h;
}

/** Writes `dir`'s files (not subfolders) into `target` as `prefix/NAME` entries. */
export async function tarGzFolder(dir: string, prefix: string, target: string): Promise<void> {
  const names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name).sort();
  const tar = new PassThrough();
  const done = pipeline(tar, createGzip({ level: 6 }), createWriteStream(target, { mode: 0o600 }));
  const write = (chunk: Buffer) => (tar.write(chunk) ? Promise.resolve() : new Promise<void>((r) => tar.once('drain', () => r())));
  try {
    for (const name of names) {
      const path = join(dir, name);
      const s = await stat(path);
      await write(header(`${prefix}/${name}`, s.size, s.mtimeMs));
      for await (const chunk of createReadStream(path)) await write(chunk as Buffer);
      if (s.size % 512) await write(Buffer.alloc(512 - (s.size % 512)));
    }
    tar.end(Buffer.alloc(1024));
  } catch (err) {
    tar.destroy(err as Error);
  }
  await done;
}
