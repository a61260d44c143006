import { join } from 'node:path';
import { DurableJSONFile } from './durable-file.js';

/**
 * Schema migrations, applied in order at start to bring a data dir up to
 * CURRENT_SCHEMA_VERSION. Each one edits files in place before any collection
 * is opened; the manifest's version is bumped after each step lands.
 */
export interface Migration {
  to: number;
  describe: string;
  run(dataDir: string): Promise<void>;
}

export const migrations: Migration[] = [
  {
    to: 2,
    describe: "realm settings: can_create_multiuse_invite_group is Zulip's create_multiuse_invite_group",
    run: (dir) =>
      rewriteJson<{ realm: { settings: Record<string, unknown> } | null }>(dir, 'realm.json', (doc) => {
        const settings = doc.realm?.settings;
        if (settings && 'can_create_multiuse_invite_group' in settings) {
          settings.create_multiuse_invite_group = settings.can_create_multiuse_invite_group;
          delete settings.can_create_multiuse_invite_group;
        }
        return doc;
      }),
  },
  {
    to: 3,
    describe:
      'message segments may hold a later copy of a message (changes appended in place); a Hearth before this schema would read them as damage, so it refuses the data dir instead',
    run: async () => undefined,
  },
  {
    to: 4,
    describe:
      'message rows are one number each (user ID * 1024 + flags), not two; segments written before are read as pairs at load (store/message-records.ts packedRows), but a Hearth before this schema would misread the new ones, so it refuses the data dir instead',
    run: async () => undefined,
  },
  {
    to: 5,
    describe:
      "read, starred and collapsed live in the flags journal (messages/flags.json and flags-<n>.log), no longer in the messages' rows; the first start writes the snapshot from the rows (redone whole if stopped before it lands), and a Hearth before this schema would read stale flags, so it refuses the data dir instead",
    run: async () => undefined,
  },
];

export const CURRENT_SCHEMA_VERSION = 1 + migrations.length;

/**
 * Helper for migrations: rewrite one JSON file through a function, durably (temp file,
 * fsync, rename), so a crash leaves the old file or the new one; a file not there yet
 * (a data dir without that collection) is left alone.
 */
export async function rewriteJson<T>(dataDir: string, name: string, fn: (doc: T) => T): Promise<void> {
  const file = new DurableJSONFile<T>(join(dataDir, name));
  const doc = await file.read();
  if (doc !== null) await file.write(fn(doc));
}
