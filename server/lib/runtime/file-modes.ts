/**
 * Received files (uploads, unfinished resumable uploads, avatars, custom emoji, the organization
 * icon) are written mode 0600 in 0700 folders (server/actions/files.ts, http/body.ts,
 * views/tus.ts). Before that was so they were 0644 in 0755 folders: at start the ones still open
 * to other accounts of the computer are closed.
 */
import { chmod, lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The data dir's folders of received files. */
const RECEIVED = ['uploads', 'avatars', 'emoji', 'realm'];

/** Takes group and other permissions off `path` and, for a folder, everything in it; returns how many it changed. */
async function tighten(path: string): Promise<number> {
  const info = await lstat(path).catch(() => null);
  if (!info || !(info.isFile() || info.isDirectory())) return 0;
  let changed = 0;
  if (info.mode & 0o077) {
    await chmod(path, info.mode & 0o700);
    changed++;
  }
  if (info.isDirectory()) {
    for (const name of await readdir(path)) changed += await tighten(join(path, name));
  }
  return changed;
}

/** Makes every received file 0600 and folder 0700 (Windows has no such modes: nothing to do); returns how many changed. */
export async function tightenReceivedFiles(dataDir: string): Promise<number> {
  if (process.platform === 'win32') return 0;
  let changed = 0;
  for (const dir of RECEIVED) changed += await tighten(join(dataDir, dir));
  return changed;
}
