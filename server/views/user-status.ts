/** POST /users/me/status and GET /users/{user_id}/status (Zulip's user_status.py). */
import type { ApiRequest, ViewResult } from '../context.js';
import { doUpdateStatus, type StatusChange } from '../actions/user-status.js';
import { doChangeSettings } from '../actions/user-settings.js';
import { errors } from '../errors.js';
import { t } from '../http/params.js';
import { canAccessUser } from '../lib/people.js';
import { customEmojiOf, resolveReactionEmoji } from '../lib/reaction-emoji.js';
import { MAX_STATUS_TEXT } from '../lib/user-status.js';
import { pathInt, requireUser } from './common.js';

export async function updateStatus(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const text = params.get('status_text', t.string);
  const away = params.get('away', t.bool);
  const emojiName = params.get('emoji_name', t.string);
  const emojiCode = params.get('emoji_code', t.string);
  const reactionType = params.get('reaction_type', t.string);
  if (text === undefined && away === undefined && emojiName === undefined) {
    throw errors.badRequest('Client did not pass any new values.');
  }
  const change: StatusChange = {};
  if (text !== undefined) {
    const trimmed = text.trim();
    if ([...trimmed].length > MAX_STATUS_TEXT) throw errors.badRequest(`status_text is too long (limit: ${MAX_STATUS_TEXT} characters)`);
    change.status_text = trimmed;
  }
  if (emojiName !== undefined) {
    change.emoji = emojiName === '' ? null : resolveReactionEmoji(emojiName, emojiCode || undefined, reactionType || undefined, customEmojiOf(app));
  }
  // Zulip 6.0+: `away` is presence_enabled turned off (feature level 148).
  if (away !== undefined) await doChangeSettings(app, user, { settings: { presence_enabled: !away } });
  if (change.status_text !== undefined || change.emoji !== undefined) await doUpdateStatus(app, user, change);
  return {};
}

export function getStatus(req: ApiRequest): ViewResult {
  const viewer = requireUser(req);
  const target = req.app.store.users.get(pathInt(req, 'user_id'));
  if (!target || !canAccessUser(req.app, viewer, target)) throw errors.badRequest('No such user');
  return { status: { ...(target.status ?? {}) } };
}
