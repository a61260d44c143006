/** `GET /attachments` and `DELETE /attachments/{attachment_id}` (Zulip's zerver/views/attachments.py). */
import { doDeleteAttachment } from '../actions/attachments.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { formatAttachment } from '../lib/uploads/attachments.js';
import { requireUser } from '../lib/people/require.js';

/** The caller's own uploads, and the organization's total upload size in bytes. */
export function listAttachments(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  const { attachments } = req.app.store;
  return {
    attachments: attachments.ownedBy(user.id).map((a) => formatAttachment(req.app, a)),
    upload_space_used: attachments.totalSize(),
  };
}

/** Only the uploader deletes a file (Zulip's access_attachment_by_id with needs_owner). */
export async function deleteAttachment(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const raw = req.path.attachment_id ?? '';
  const a = /^\d{1,15}$/.test(raw) ? req.app.store.attachments.get(Number(raw)) : undefined;
  if (!a || a.owner_id !== user.id) throw errors.badRequest('Invalid attachment');
  await doDeleteAttachment(req.app, a);
  return {};
}
