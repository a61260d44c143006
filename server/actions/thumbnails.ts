/**
 * Making an upload's thumbnails after it is stored (Zulip's thumbnail worker, ensure_thumbnails),
 * off the request path: the upload is answered first, then the app's ThumbnailQueue runs this.
 * Once they are on disk, the upload's record lists them and every message linking it has its
 * loading placeholder rewritten to the thumbnail; its readers hear `update_message` with
 * `rendering_only: true` (Zulip's do_update_embedded_data). An image that fails to decode loses its
 * preview in those messages instead (the plain link stays) and never gets a thumbnail.
 */
import { stat } from 'node:fs/promises';
import type { App } from '../context.js';
import { rewriteThumbnailedImages } from '../markdown/image-preview.js';
import { imagePreview } from '../lib/uploads/previews.js';
import { pathIdFromReference } from '../lib/uploads/names.js';
import {
  formatsFor,
  makeThumbnail,
  removeThumbnails,
  thumbnailPath,
  thumbnailsDone,
  writeThumbnail,
  type MadeThumbnail,
} from '../lib/uploads/thumbnails.js';
import { renderedOf } from '../store/message-records.js';
import type { AttachmentRecord } from '../store/attachment-records.js';
import type { UpdateMessageEvent } from '../events/types.js';
import { filesDir, storagePath } from '../lib/uploads/storage.js';
import { commit, type Transaction } from './commit.js';
import { emitUpdateByFlags } from './update-message-events.js';

/** Puts an upload in the thumbnail line (urgent: at its front, for a request waiting on it). */
export function queueThumbnails(app: App, a: AttachmentRecord, urgent = false): Promise<void> {
  if (!a.image || thumbnailsDone(a.image)) return Promise.resolve();
  const id = a.id;
  return app.thumbnails.add(id, () => doMakeThumbnails(app, id), urgent);
}

/** At start: every image whose thumbnails a stop or crash left unmade goes back in the line. */
export function queueMissingThumbnails(app: App): number {
  let n = 0;
  for (const a of app.store.attachments.collection.data.attachments) {
    if (a.image && !thumbnailsDone(a.image)) {
      void queueThumbnails(app, a);
      n++;
    }
  }
  return n;
}

/** Makes the missing thumbnails of upload `id`, records them and updates its messages. */
export async function doMakeThumbnails(app: App, id: number): Promise<void> {
  const a = app.store.attachments.get(id);
  if (!a?.image) return;
  const image = a.image;
  const needed = formatsFor(image).filter((f) => !image.thumbnails.some((t) => t.name === f.name));
  if (needed.length === 0) return;
  const started = performance.now();
  const source = storagePath(app, a);
  const made: MadeThumbnail[] = [];
  let failure: unknown = null;
  try {
    // The file must still be the one recorded (deleted meanwhile: nothing to do).
    if (!(await stat(source).catch(() => null))?.isFile()) return;
    for (const f of needed) made.push(await makeThumbnail(source, image, f));
  } catch (err) {
    failure = err;
    app.log.warn('thumbnail not made: the image could not be decoded', { path_id: a.path_id, error: String(err) });
  }
  const dir = filesDir(app);
  try {
    for (const t of made) await writeThumbnail(thumbnailPath(dir, a, t.name), t.data);
  } catch (err) {
    // Disk full or failing: tried again at the next start.
    app.log.error('thumbnail not saved', { path_id: a.path_id, error: String(err) });
    return;
  }
  const current = app.store.attachments.get(id);
  if (current !== a || !a.image) {
    // Deleted while it was being made: its thumbnails go too.
    await removeThumbnails(dir, a);
    return;
  }
  await commit(app, (tx) => {
    const info = a.image!;
    if (failure !== null && info.thumbnails.length === 0 && made.length === 0) {
      // Never thumbnailed and cannot be: not an image Hearth previews (Zulip deletes its ImageAttachment).
      a.image = null;
      rewriteMessages(app, tx, a, null);
    } else {
      for (const t of made) {
        const { data: _bytes, ...stored } = t;
        info.thumbnails.push(stored);
      }
      rewriteMessages(app, tx, a, imagePreview(a, info));
    }
    tx.touch(app.store.attachments);
  });
  if (a.image === null) await removeThumbnails(dir, a);
  app.log.info('thumbnails made', {
    path_id: a.path_id,
    count: made.length,
    ms: Math.round(performance.now() - started),
  });
}

/**
 * Every message linking the upload, its placeholder rewritten (or its preview taken out), stored,
 * and `update_message` (rendering_only) to each reader, with their flags.
 */
function rewriteMessages(app: App, tx: Transaction, a: AttachmentRecord, preview: ReturnType<typeof imagePreview> | null): void {
  const store = app.store.messages;
  const isUpload = (href: string) => pathIdFromReference(href) === a.path_id;
  const changed: number[] = [];
  const now = Math.floor(app.clock.now() / 1000);
  for (const id of a.message_ids) {
    const m = store.get(id);
    if (!m) continue;
    const html = rewriteThumbnailedImages(renderedOf(m), isUpload, preview);
    if (html === undefined) continue;
    store.setContent(m, m.content, html, m.bits ?? 0);
    changed.push(m.id);
    const base: Omit<UpdateMessageEvent, 'flags'> = {
      type: 'update_message',
      user_id: null,
      edit_timestamp: now,
      message_id: m.id,
      message_ids: [m.id],
      content: m.content,
      rendered_content: html,
      rendering_only: true,
    };
    emitUpdateByFlags(app, tx, m, base);
  }
  if (changed.length) tx.touch(() => store.save(...changed));
}
