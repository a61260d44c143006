/** POST / DELETE /messages/{message_id}/reactions (Zulip's reactions.py and check_add_reaction). */
import type { ApiRequest, ViewResult } from '../context.js';
import { doAddReaction, doRemoveReaction, findAnyReaction, findReaction } from '../actions/reactions.js';
import { errors, HearthError } from '../errors.js';
import { t } from '../params/params.js';
import { isInArchivedChannel } from '../lib/messages/action-recipients.js';
import { checkEmojiRequest, emojiData, requestedEmoji, type ReactionType } from '../lib/emoji/reaction.js';
import type { MessageRecord } from '../store/message-records.js';
import type { UserRecord } from '../store/records.js';
import { requireUser } from '../lib/people/require.js';
import { accessMessage } from './messages.js';

/** access_message(..., is_modifying_message=True): archived channels' messages stay as they are. */
function accessForChange(req: ApiRequest, user: UserRecord): MessageRecord {
  const m = accessMessage(req, user);
  if (isInArchivedChannel(req.app, m)) throw errors.badRequest('Invalid message(s)');
  return m;
}

export async function addReaction(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const name = params.require('emoji_name', t.string);
  const code = params.get('emoji_code', t.string);
  const type = params.get('reaction_type', t.string);
  const m = accessForChange(req, user);
  const custom = app.customEmoji;
  const wanted = requestedEmoji(name, code, type, custom);
  if (findReaction(m, user.id, wanted)) {
    throw new HearthError('Reaction already exists.', { code: 'REACTION_ALREADY_EXISTS' });
  }
  // A vote for an existing reaction keeps its name and is not validated again (it may be a
  // since-deactivated custom emoji); a new one must be valid now.
  const vote = findAnyReaction(m, wanted);
  const reaction_type = vote
    ? (wanted.reaction_type as ReactionType)
    : checkEmojiRequest(wanted.emoji_name, wanted.emoji_code, wanted.reaction_type, custom);
  await doAddReaction(app, user, m, { emoji_name: vote?.emoji_name ?? name, emoji_code: wanted.emoji_code, reaction_type });
  return {};
}

export async function removeReaction(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const name = params.get('emoji_name', t.string);
  let code = params.get('emoji_code', t.string);
  // Zulip: the type defaults to unicode_emoji even when the code is looked up from a name.
  const type = params.get('reaction_type', t.string) ?? 'unicode_emoji';
  const m = accessForChange(req, user);
  if (code === undefined) {
    if (name === undefined) {
      throw errors.badRequest('At least one of the following arguments must be present: emoji_name, emoji_code');
    }
    code = emojiData(name, app.customEmoji).emoji_code;
  }
  // No validation of the emoji: the stored reaction was valid when added (a custom emoji may
  // since have been deactivated).
  const existing = findReaction(m, user.id, { emoji_code: code, reaction_type: type });
  if (!existing) throw new HearthError("Reaction doesn't exist.", { code: 'REACTION_DOES_NOT_EXIST' });
  await doRemoveReaction(app, user, m, existing);
  return {};
}
