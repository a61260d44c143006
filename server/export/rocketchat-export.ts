/**
 * Writes an export for Zulip's Rocket.Chat converter: the folder of `.bson` files that
 * `./manage.py convert_rocketchat_data DIR --output OUT` reads (file names and fields as
 * zerver/data_import/rocketchat.py expects them), plus `hearth-fixup.json` for
 * `hearth zulip-fixup` and a short README.txt. Files go in as GridFS chunks of 255 KiB.
 */
import { mkdir, open, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Binary, ObjectId } from 'bson';
import { BsonFile, writeBsonFile } from './bson-file.js';
import type { ExportProgress } from './export-state.js';
import { buildFixup } from './fixup-build.js';
import { buildPlan, GRIDFS_CHUNK, type ExportScope, type RocketChatPlan } from './rocketchat-model.js';
import type { Snapshot } from './snapshot.js';

export type { ExportProgress };

export interface ExportSummary {
  users: number;
  rooms: number;
  /** Hearth messages exported, and the documents they became (several files: several messages). */
  messages: number;
  messageDocuments: number;
  reactions: number;
  uploads: number;
  uploadBytes: number;
  emoji: number;
  topics: number;
  /** Files the store lists but the disk no longer has (left out; the converter skips them). */
  missingFiles: string[];
}

export interface ExportOptions {
  scope?: ExportScope;
  consenting?: Set<number>;
  onProgress?: (p: ExportProgress) => void;
  /** Checked between steps: true stops the export with an error (the server is stopping). */
  stopping?: () => boolean;
}

const README = `This folder is an export of a Hearth organization in the shape of a Rocket.Chat
database dump (mongodump .bson files), for Zulip's importer.

On the Zulip server:
  ./manage.py convert_rocketchat_data THIS_FOLDER --output /tmp/converted
  ./manage.py import '' /tmp/converted
Then, from any computer that reaches the Zulip server:
  npx hearth zulip-fixup --site https://zulip.example.com --email OWNER_EMAIL --api-key KEY --fixup THIS_FOLDER/hearth-fixup.json
which restores exact topic names, roles, groups, profile fields, folders and descriptions.
Hearth's help center has the whole path: /help/moving-to-zulip on the Hearth server
(renderer/help/moving-to-zulip.md in its source).
`;

/** Copies one file into GridFS `.files`/`.chunks` documents; false when the file is gone. */
async function addGridFsFile(path: string, fileDoc: Record<string, unknown>, files: BsonFile, chunks: BsonFile): Promise<number | null> {
  const handle = await open(path, 'r').catch(() => null);
  if (!handle) return null;
  try {
    let n = 0;
    let length = 0;
    for (;;) {
      const buf = Buffer.alloc(GRIDFS_CHUNK);
      const { bytesRead } = await handle.read(buf, 0, GRIDFS_CHUNK, length);
      if (bytesRead === 0 && n > 0) break;
      await chunks.add({ _id: new ObjectId(), files_id: fileDoc._id, n, data: new Binary(buf.subarray(0, bytesRead)) });
      n += 1;
      length += bytesRead;
      if (bytesRead < GRIDFS_CHUNK) break;
    }
    await files.add({ ...fileDoc, length, chunkSize: GRIDFS_CHUNK });
    return length;
  } finally {
    await handle.close();
  }
}

/** Writes the export into `outDir` (created; it must be empty or absent). Consumes the snapshot: its messages are released when it returns. */
export async function writeRocketChatExport(snap: Snapshot, outDir: string, opts: ExportOptions = {}): Promise<ExportSummary> {
  try {
    return await writeExport(snap, outDir, opts);
  } finally {
    snap.messages.release();
  }
}

async function writeExport(snap: Snapshot, outDir: string, opts: ExportOptions): Promise<ExportSummary> {
  await mkdir(outDir, { recursive: true, mode: 0o700 });
  if ((await readdir(outDir)).length) throw new Error(`${outDir} is not empty: choose an empty or new folder`);
  const plan: RocketChatPlan = await buildPlan(snap, opts.scope ?? 'full', opts.consenting, opts.stopping);
  const onProgress = opts.onProgress ?? (() => undefined);
  const progress = (p: ExportProgress) => {
    if (opts.stopping?.()) throw new Error('Hearth stopped before the export was finished');
    onProgress(p);
  };
  const at = (name: string) => join(outDir, name);
  const topics = plan.rooms.filter((r) => typeof r.prid === 'string').length;

  progress({ phase: 'people and channels', done: 0, total: 1 });
  await writeBsonFile(at('instances.bson'), [plan.instance]);
  await writeBsonFile(at('users.bson'), plan.users);
  await writeBsonFile(at('rocketchat_avatars.bson'), []);
  await writeBsonFile(at('rocketchat_room.bson'), plan.rooms);

  const messages = await BsonFile.create(at('rocketchat_message.bson'));
  let done = 0;
  try {
    progress({ phase: 'messages', done: 0, total: plan.messageCount });
    let lastId = '';
    for (const doc of plan.messages()) {
      await messages.add(doc);
      const id = (doc._id as string).replace(/f\d+$/, '');
      if (id !== lastId) {
        lastId = id;
        done += 1;
        if (done % 2000 === 0) progress({ phase: 'messages', done, total: plan.messageCount });
      }
    }
  } catch (err) {
    await messages.abandon();
    throw err;
  }
  await messages.close();

  const missing: string[] = [];
  const uploadDocs = await BsonFile.create(at('rocketchat_uploads.bson'));
  const uploadFiles = await BsonFile.create(at('rocketchat_uploads.files.bson'));
  const uploadChunks = await BsonFile.create(at('rocketchat_uploads.chunks.bson'));
  let uploadBytes = 0;
  let uploads = 0;
  const totalBytes = plan.uploads.reduce((s, u) => s + u.size, 0);
  progress({ phase: 'uploads', done: 0, total: totalBytes });
  for (const u of plan.uploads) {
    const fileDoc = { _id: u.doc._id, filename: u.doc.name, contentType: u.doc.type, uploadDate: u.doc.uploadedAt };
    const length = await addGridFsFile(join(snap.dataDir, 'uploads', 'files', u.storage), fileDoc, uploadFiles, uploadChunks);
    if (length === null) {
      missing.push(`upload ${String(u.doc.name)}`);
      continue;
    }
    await uploadDocs.add({ ...u.doc, size: length });
    uploads += 1;
    uploadBytes += length;
    progress({ phase: 'uploads', done: uploadBytes, total: totalBytes });
  }
  for (const f of [uploadDocs, uploadFiles, uploadChunks]) await f.close();

  progress({ phase: 'custom emoji', done: 0, total: plan.emoji.length });
  const emojiDocs = await BsonFile.create(at('rocketchat_custom_emoji.bson'));
  const emojiFiles = await BsonFile.create(at('custom_emoji.files.bson'));
  const emojiChunks = await BsonFile.create(at('custom_emoji.chunks.bson'));
  let emoji = 0;
  for (const e of plan.emoji) {
    const length = await addGridFsFile(join(snap.dataDir, 'emoji', e.file), e.fileDoc, emojiFiles, emojiChunks);
    if (length === null) {
      missing.push(`emoji :${String(e.doc.name)}:`);
      continue;
    }
    await emojiDocs.add(e.doc);
    emoji += 1;
  }
  for (const f of [emojiDocs, emojiFiles, emojiChunks]) await f.close();

  await writeFile(at('hearth-fixup.json'), JSON.stringify(buildFixup(snap, plan), null, 2) + '\n', { mode: 0o600 });
  await writeFile(at('README.txt'), README, { mode: 0o600 });
  progress({ phase: 'done', done: 1, total: 1 });
  return {
    users: plan.users.length,
    rooms: plan.rooms.length,
    messages: plan.messageCount,
    messageDocuments: messages.count,
    reactions: plan.reactionCount,
    uploads,
    uploadBytes,
    emoji,
    topics,
    missingFiles: missing,
  };
}
