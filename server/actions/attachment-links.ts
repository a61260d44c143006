/**
 * Links between messages and uploaded files, called by the messages area
 * inside its send, edit and delete transactions (Zulip's do_claim_attachments,
 * check_attachment_reference_change and the cleanup after deletion).
 */
import type { App } from '../context.js';
import type { AttachmentRecord } from '../store/attachment-records.js';
import { canReadAttachment } from '../lib/uploads/attachments.js';
import { pathIdFromReference } from '../lib/uploads/names.js';
import { emitAttachmentEvent, removeStoredFile } from './attachments.js';
import type { Transaction } from './commit.js';

/** The attachments a list of `/user_uploads/...` references names (unknown or malformed ones skipped). */
function referenced(app: App, paths: string[]): AttachmentRecord[] {
  const out = new Set<AttachmentRecord>();
  for (const p of paths) {
    const pathId = pathIdFromReference(p);
    const a = pathId === null ? undefined : app.store.attachments.byPathId(pathId);
    if (a) out.add(a);
  }
  return [...out];
}

/**
 * Message `messageId`, sent by `senderId`, links these `/user_uploads/...`
 * paths. Each file the sender may read (their own upload, or one they can
 * already see through another message: Zulip lets people reshare a file
 * they can open) gets the message recorded; the owner's clients get
 * `attachment` op update. Files the sender cannot read are left alone, so
 * a guessed link shares nothing.
 */
export function claimAttachments(app: App, tx: Transaction, senderId: number, messageId: number, paths: string[]): void {
  for (const a of referenced(app, paths)) {
    if (a.message_ids.includes(messageId) || !canReadAttachment(app, senderId, a)) continue;
    app.store.attachments.link(a, messageId);
    tx.touch(app.store.attachments);
    emitAttachmentEvent(app, tx, 'update', a);
  }
}

/**
 * After an edit: message `messageId` now links exactly these paths. Files no
 * longer linked lose the message (they stay: Zulip asks the author whether to
 * delete them); newly linked ones are claimed as on send. Returns the sender's
 * files this edit removed the last link to (Zulip's detached_attachments).
 */
export function relinkAttachments(
  app: App,
  tx: Transaction,
  senderId: number,
  messageId: number,
  paths: string[],
): AttachmentRecord[] {
  const now = new Set(referenced(app, paths));
  const unlinked: AttachmentRecord[] = [];
  for (const a of app.store.attachments.linkedTo(messageId)) {
    if (now.has(a)) continue;
    app.store.attachments.unlink(a, messageId);
    unlinked.push(a);
    tx.touch(app.store.attachments);
    emitAttachmentEvent(app, tx, 'update', a);
  }
  claimAttachments(app, tx, senderId, messageId, paths);
  return unlinked.filter((a) => a.owner_id === senderId && a.message_ids.length === 0);
}

/**
 * Called inside a message deletion transaction. The messages stop linking
 * their files; a file whose last linking message is gone is deleted (Zulip:
 * "automatically deleted once the last message containing a link to them is
 * deleted"): the record goes in this transaction, the bytes once it is durable.
 */
export function releaseAttachments(app: App, tx: Transaction, messageIds: number[]): void {
  const touched = new Set<AttachmentRecord>();
  for (const id of messageIds) {
    for (const a of app.store.attachments.linkedTo(id)) {
      app.store.attachments.unlink(a, id);
      touched.add(a);
    }
  }
  if (touched.size === 0) return;
  const doomed: AttachmentRecord[] = [];
  for (const a of touched) {
    if (a.message_ids.length === 0) {
      app.store.attachments.remove(a);
      doomed.push(a);
    }
  }
  tx.touch(app.store.attachments);
  for (const a of touched) emitAttachmentEvent(app, tx, a.message_ids.length === 0 ? 'remove' : 'update', a);
  if (doomed.length === 0) return;
  tx.touch(async () => {
    await app.store.attachments.save();
    await Promise.all(doomed.map((a) => removeStoredFile(app, a)));
  });
}
