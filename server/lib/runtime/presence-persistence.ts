/**
 * Presence outlives restarts: "last active" times are what people see of each
 * other, and a desktop server restarts often. The presence book is written to
 * `presence.json` every five minutes and on a graceful stop (a plain replace:
 * losing the last minutes of presence to a crash is harmless), and read back
 * at start for the users that still exist.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from '../../context.js';
import type { PresenceEntry } from '../people/presence-book.js';

const FILE = 'presence.json';
export const PRESENCE_SAVE_MS = 5 * 60 * 1000;

interface SavedPresence {
  version: 1;
  lastUpdateId: number;
  rows: [number, PresenceEntry][];
}

export async function savePresence(app: App): Promise<void> {
  const book = app.presence;
  const doc: SavedPresence = { version: 1, lastUpdateId: book.lastUpdateId, rows: [...book.rows] };
  const file = join(app.config.dataDir, FILE);
  await writeFile(`${file}.tmp`, JSON.stringify(doc), { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}

const isEntry = (e: unknown): e is PresenceEntry => {
  const x = e as PresenceEntry;
  return typeof x === 'object' && x !== null && Number.isFinite(x.active_timestamp) && Number.isFinite(x.idle_timestamp) && Number.isInteger(x.update_id);
};

/** Reads the saved presence (nothing when the file is missing or damaged). Returns how many rows. */
export async function restorePresence(app: App): Promise<number> {
  let doc: SavedPresence;
  try {
    doc = JSON.parse(await readFile(join(app.config.dataDir, FILE), 'utf8')) as SavedPresence;
  } catch {
    return 0;
  }
  if (doc?.version !== 1 || !Array.isArray(doc.rows) || !Number.isInteger(doc.lastUpdateId)) return 0;
  const book = app.presence;
  let n = 0;
  for (const row of doc.rows) {
    if (!Array.isArray(row) || !Number.isInteger(row[0]) || !isEntry(row[1]) || !app.store.users.get(row[0])) continue;
    book.rows.set(row[0], { ...row[1] });
    n++;
  }
  book.lastUpdateId = Math.max(book.lastUpdateId, doc.lastUpdateId);
  return n;
}

/** Saves every five minutes; returns the stop function. */
export function schedulePresenceSaves(app: App, everyMs = PRESENCE_SAVE_MS): () => void {
  const timer = setInterval(() => void savePresence(app).catch((err: unknown) => app.log.warn('presence not saved', { error: String(err) })), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
