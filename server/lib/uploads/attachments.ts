/**
 * Attachments as the API shows them (Zulip's Attachment.to_dict), who may
 * read a file (Zulip's validate_attachment_request, through the messages
 * area's read-access hook). The `attachment` events are sent by
 * server/actions/attachments.ts.
 */
import type { App } from '../../context.js';
import type { AttachmentRecord } from '../../store/attachment-records.js';

/**
 * Times in seconds (Zulip 12, feature level 443). `message_ids` (feature level
 * 472) replaced `messages`, which is still sent for older clients.
 */
export function formatAttachment(app: App, a: AttachmentRecord): Record<string, unknown> {
  const messages: { id: number; date_sent: number }[] = [];
  for (const id of a.message_ids) {
    const m = app.store.messages.get(id);
    if (m) messages.push({ id, date_sent: m.timestamp });
  }
  return {
    id: a.id,
    name: a.file_name,
    path_id: a.path_id,
    size: a.size,
    create_time: Math.floor(a.create_time / 1000),
    message_ids: messages.map((m) => m.id),
    messages,
  };
}

/**
 * Whether `userId` (null: a spectator) may read the file: its uploader, or
 * anyone who may read a message that links it (spectators: a web-public one).
 */
export function canReadAttachment(app: App, userId: number | null, a: AttachmentRecord): boolean {
  if (userId !== null) {
    const user = app.store.users.get(userId);
    if (!user || !user.is_active) return false;
    if (a.owner_id === userId) return true;
  }
  return a.message_ids.some((m) => app.messageAccess.canRead(userId, m));
}
