/**
 * Upload records: a new file (already durably in place under the data dir)
 * becomes an attachment; an owner deletes one; the owner hears of both through
 * `attachment` events. Links between files and messages are in
 * ./attachment-links.ts (called inside message transactions).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from '../context.js';
import { formatAttachment } from '../lib/uploads/attachments.js';
import { checkUploadAllowed, noteDeletedUpload } from '../lib/uploads/limits.js';
import { contentTypeFor, displayName, newUploadPath } from '../lib/uploads/names.js';
import type { AttachmentRecord, ImageInfo } from '../store/attachment-records.js';
import { probeImage, removeThumbnails } from '../lib/uploads/thumbnails.js';
import { commit, type Transaction } from './commit.js';
import { placeFile } from './files.js';
import { filesDir, storagePath } from '../lib/uploads/storage.js';
import { queueThumbnails } from './thumbnails.js';

export { filesDir, storagePath };

export interface NewAttachment {
  ownerId: number;
  pathId: string;
  storage: string;
  fileName: string;
  size: number;
  contentType: string;
  /** The image read from its header (null: not one Hearth thumbnails); absent: not read. */
  image?: ImageInfo | null;
}

/** Deletes a stored file's bytes and its thumbnails. */
export async function removeStoredFile(app: App, a: Pick<AttachmentRecord, 'storage'>): Promise<void> {
  await Promise.all([rm(storagePath(app, a), { force: true }), removeThumbnails(filesDir(app), a)]);
}

/** `attachment` event (op add, update or remove) for the file's owner, as Zulip's notify_attachment_update. */
export function emitAttachmentEvent(
  app: App,
  tx: Transaction,
  op: 'add' | 'update' | 'remove',
  a: AttachmentRecord,
): void {
  tx.emit(
    {
      type: 'attachment',
      op,
      attachment: op === 'remove' ? { id: a.id } : formatAttachment(app, a),
      upload_space_used: app.store.attachments.totalSize(),
    },
    [a.owner_id],
  );
}

/**
 * Records a placed file (Zulip's create_attachment); the owner's clients get `attachment` op add.
 * The organization's quota and a guest's daily allowance are checked in the same step (uploads
 * finishing together cannot both pass a check made before either was recorded).
 */
export function doCreateAttachment(app: App, f: NewAttachment): Promise<AttachmentRecord> {
  return commit(app, (tx) => {
    const owner = app.store.users.get(f.ownerId);
    if (owner) checkUploadAllowed(app, owner, f.size);
    const a = app.store.attachments.add({
      path_id: f.pathId,
      file_name: f.fileName,
      owner_id: f.ownerId,
      size: f.size,
      content_type: f.contentType,
      create_time: app.clock.now(),
      storage: f.storage,
      message_ids: [],
      ...(f.image !== undefined ? { image: f.image } : {}),
    });
    tx.touch(app.store.attachments);
    emitAttachmentEvent(app, tx, 'add', a);
    return a;
  });
}

/**
 * Deletes a file and its record (Zulip's remove_attachment): the record's
 * removal is durable before the bytes go; links in old messages stop working.
 */
export async function doDeleteAttachment(app: App, a: AttachmentRecord): Promise<void> {
  await commit(app, (tx) => {
    app.store.attachments.remove(a);
    tx.touch(app.store.attachments);
    emitAttachmentEvent(app, tx, 'remove', a);
  });
  noteDeletedUpload(app, app.store.users.get(a.owner_id), a);
  await removeStoredFile(app, a);
}

/**
 * A finished upload (plain or resumable) becomes a stored file: it gets a
 * fresh path, is moved into place durably, then recorded. Returns the record.
 */
export async function doStoreUpload(
  app: App,
  ownerId: number,
  f: { from: string; name: string; clientType: string | null | undefined; size: number },
): Promise<AttachmentRecord> {
  const realmId = app.store.realm.data.realm!.id;
  const fileName = displayName(f.name);
  const { pathId, storage } = newUploadPath(realmId, fileName);
  await placeFile(app, f.from, join(filesDir(app), storage));
  const contentType = contentTypeFor(f.clientType, fileName);
  try {
    // Only the header is read here (a few milliseconds); the thumbnails are made after the answer.
    const image = await probeImage(join(filesDir(app), storage), contentType);
    const a = await doCreateAttachment(app, { ownerId, pathId, storage, fileName, size: f.size, contentType, image });
    void queueThumbnails(app, a);
    return a;
  } catch (err) {
    // The record could not be written (the client hears 503) or the upload went over a limit: the
    // upload did not happen, so neither the record (also dropped when the store rolls back to the
    // disk) nor the bytes stay.
    const left = app.store.attachments.byPathId(pathId);
    if (left) app.store.attachments.remove(left);
    await rm(join(filesDir(app), storage), { force: true });
    throw err;
  }
}
