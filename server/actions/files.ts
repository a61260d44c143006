/**
 * Placing a received file under the data dir durably: the one way uploads,
 * avatars (users' and bots'), the organization icon and custom emoji images
 * reach their storage place. Views check what they received, then call this.
 */
import { chmod, mkdir, open, rename } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { App } from '../context.js';

async function fsyncPath(path: string): Promise<void> {
  const h = await open(path, 'r');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

/**
 * Moves a finished file (a spooled multipart file or a completed tus upload,
 * both on the data dir's file system) to `to` under the data dir and makes it
 * durable before resolving: the file is fsynced, then every directory from its
 * folder up to the data dir, so its name (and any folder made for it) survives
 * a crash. The record that points at the file is written after this. The file ends up mode 0600
 * and any folder made for it 0700.
 */
export async function placeFile(app: App, from: string, to: string): Promise<void> {
  const root = resolve(app.config.dataDir);
  const target = resolve(to);
  await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  // Only this account reads the data dir: the file is 0600 before it takes its name.
  await chmod(from, 0o600);
  await rename(from, target);
  await fsyncPath(target);
  for (let dir = dirname(target); ; dir = dirname(dir)) {
    await fsyncPath(dir);
    if (dir === root || dir === dirname(dir)) break;
  }
}
