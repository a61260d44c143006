/**
 * Uploads no message ever linked are deleted after a while (Zulip's
 * delete_old_unclaimed_attachments, which its servers run daily: five weeks by default).
 * A file attached to a draft that was never sent, or uploaded only to fill the disk, would
 * otherwise be kept for good and count against the upload quota. A file a scheduled message
 * links is kept until that message is sent (then a message links it) or deleted.
 */
import type { App } from '../context.js';
import type { AttachmentRecord } from '../store/attachment-records.js';
import { emitAttachmentEvent, removeStoredFile } from './attachments.js';
import { commit } from './commit.js';

/** Zulip's default: five weeks. */
export const UNCLAIMED_UPLOAD_DAYS = 35;

/** Uploads older than `maxAgeMs` that no message links and no scheduled message names. */
export function unclaimedUploads(app: App, maxAgeMs: number): AttachmentRecord[] {
  const before = app.clock.now() - maxAgeMs;
  const old = app.store.attachments.collection.data.attachments.filter((a) => a.message_ids.length === 0 && a.create_time < before);
  if (old.length === 0) return [];
  const scheduled = app.store.scheduled.data.scheduled.map((s) => s.content).join('\n');
  return old.filter((a) => !scheduled.includes(`/user_uploads/${a.path_id}`));
}

/** Deletes them: the records in one durable write (their owners hear `attachment` remove), then the bytes. */
export async function doDeleteUnclaimedUploads(app: App, maxAgeMs = UNCLAIMED_UPLOAD_DAYS * 86_400_000): Promise<number> {
  const gone = unclaimedUploads(app, maxAgeMs);
  if (gone.length === 0) return 0;
  await commit(app, (tx) => {
    for (const a of gone) {
      app.store.attachments.remove(a);
      emitAttachmentEvent(app, tx, 'remove', a);
    }
    tx.touch(app.store.attachments);
  });
  await Promise.all(gone.map((a) => removeStoredFile(app, a)));
  return gone.length;
}

/** Runs the sweep at start and then every `everyMs` (a day); returns a stop function. */
export function scheduleUnclaimedUploadSweep(app: App, everyMs = 86_400_000): () => void {
  const run = () =>
    doDeleteUnclaimedUploads(app).then(
      (n) => n && app.log.info('uploads no message linked for five weeks deleted', { count: n }),
      (err: unknown) => app.log.warn('unclaimed uploads could not be deleted', { error: String(err) }),
    );
  void run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
