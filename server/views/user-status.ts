/** POST /users/me/status and GET /users/{user_id}/status (Zulip's user_status.py). */
import type { ApiRequest, ViewResult } from '../context.js';
import { doUpdateStatus, type StatusChange } from '../actions/user-status.js';
import { doChangeSettings } from '../actions/user-settings.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { canAccessUser, isAdmin } from '../lib/people/people.js';
import type { UserRecord } from '../store/records.js';
import { resolveReactionEmoji } from '../lib/emoji/reaction.js';
import { MAX_STATUS_TEXT } from '../lib/people/status.js';
import { pathInt } from './common.js';
import { requireUser } from '../lib/people/require.js';

/**
 * The status change a request asks for (Zulip's update_user_status): text, emoji, or both;
 * `away` is read by the caller where it applies.
 */
function statusChange(req: ApiRequest, alsoAway: boolean): StatusChange {
  const { app, params } = req;
  const text = params.get('status_text', t.string);
  const emojiName = params.get('emoji_name', t.string);
  const emojiCode = params.get('emoji_code', t.string);
  const reactionType = params.get('reaction_type', t.string);
  if (text === undefined && emojiName === undefined && !alsoAway) throw errors.badRequest('Client did not pass any new values.');
  if (emojiName === undefined && (emojiCode !== undefined || reactionType !== undefined)) {
    throw errors.badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  }
  const change: StatusChange = {};
  if (text !== undefined) {
    const trimmed = text.trim();
    if ([...trimmed].length > MAX_STATUS_TEXT) throw errors.badRequest(`status_text is too long (limit: ${MAX_STATUS_TEXT} characters)`);
    change.status_text = trimmed;
  }
  if (emojiName !== undefined) {
    change.emoji = emojiName === '' ? null : resolveReactionEmoji(emojiName, emojiCode || undefined, reactionType || undefined, app.customEmoji);
  }
  return change;
}

async function applyStatus(req: ApiRequest, user: UserRecord, change: StatusChange): Promise<void> {
  if (change.status_text !== undefined || change.emoji !== undefined) await doUpdateStatus(req.app, user, change);
}

/** POST /users/me/status */
export async function updateStatus(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const away = req.params.get('away', t.bool);
  const change = statusChange(req, away !== undefined);
  // Zulip 6.0+: `away` is presence_enabled turned off (feature level 148).
  if (away !== undefined) await doChangeSettings(req.app, user, { settings: { presence_enabled: !away } });
  await applyStatus(req, user, change);
  return {};
}

/** POST /users/{user_id}/status: an administrator sets someone's status (Zulip 11, feature level 407). */
export async function updateStatusForUser(req: ApiRequest): Promise<ViewResult> {
  const admin = requireUser(req);
  if (!isAdmin(admin)) throw errors.badRequest('Insufficient permission');
  const target = req.app.store.users.get(pathInt(req, 'user_id'));
  if (!target) throw errors.badRequest('No such user');
  await applyStatus(req, target, statusChange(req, false));
  return {};
}

export function getStatus(req: ApiRequest): ViewResult {
  const viewer = requireUser(req);
  const target = req.app.store.users.get(pathInt(req, 'user_id'));
  if (!target || !canAccessUser(req.app, viewer, target)) throw errors.badRequest('No such user');
  return { status: { ...(target.status ?? {}) } };
}
