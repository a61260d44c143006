/**
 * `GET /hearth/retention/preview` (a Hearth extension, for the organization settings): the dry run
 * of a retention period before it is saved: how many messages (and files only they link) the next
 * retention pass would delete if the organization's `message_retention_days`, or with `stream_id`
 * one channel's, were `days`. Administrators only (changing the periods is for owners, as Zulip).
 */
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { channelById } from '../lib/channels/access.js';
import { parseRetentionDays, rawOrJson } from '../lib/channels/validate.js';
import { FOREVER, retentionPreview, retentionTargets } from '../lib/messages/retention.js';
import { requireAdmin } from '../lib/people/require.js';
import { t } from '../params/params.js';

/** `days`: a positive number of days, `unlimited` (or -1), and for a channel `realm_default`. */
export function previewRetention(req: ApiRequest): ViewResult {
  requireAdmin(req);
  const { app, params } = req;
  const raw = params.require('days', rawOrJson);
  const streamId = params.get('stream_id', t.int);
  const days = raw === FOREVER ? FOREVER : parseRetentionDays(raw);
  if (streamId === undefined) {
    if (days === null) throw errors.badRequest("Bad value for 'days': realm_default");
    return { days, ...retentionPreview(app, retentionTargets(app, { realmDays: days })) };
  }
  if (!channelById(app, streamId)) throw errors.badRequest('Invalid channel ID');
  const targets = retentionTargets(app, { channel: { id: streamId, days } }).filter((x) => x.stream_id === streamId);
  return { days, stream_id: streamId, ...retentionPreview(app, targets) };
}
