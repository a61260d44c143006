/** POST / DELETE /messages/{message_id}/reactions (Zulip's reactions.py). */
import type { ApiRequest, ViewResult } from '../context.js';
import { doAddReaction, doRemoveReaction, findReaction } from '../actions/reactions.js';
import { HearthError } from '../errors.js';
import { t } from '../http/params.js';
import { resolveReactionEmoji, type RealmEmojiLookup } from '../lib/reaction-emoji.js';
import { requireUser } from './common.js';
import { accessMessage } from './messages.js';

/** The organization's custom emoji, when that area has installed a lookup on the app. */
const realmEmoji = (req: ApiRequest): RealmEmojiLookup =>
  (req.app as { realmEmojiByName?: RealmEmojiLookup }).realmEmojiByName ?? (() => undefined);

function emojiOf(req: ApiRequest) {
  const { params } = req;
  const name = params.require('emoji_name', t.string);
  const code = params.get('emoji_code', t.string);
  const type = params.get('reaction_type', t.string);
  return resolveReactionEmoji(name, code, type, realmEmoji(req));
}

export async function addReaction(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const m = accessMessage(req, user);
  const emoji = emojiOf(req);
  if (findReaction(m, user.id, emoji)) {
    throw new HearthError('Reaction already exists.', { code: 'REACTION_ALREADY_EXISTS' });
  }
  await doAddReaction(req.app, user, m, emoji);
  return {};
}

export async function removeReaction(req: ApiRequest): Promise<ViewResult> {
  const { params } = req;
  const user = requireUser(req);
  const m = accessMessage(req, user);
  // Zulip: the code (with its type) identifies the reaction; a name alone is resolved to a code.
  const code = params.get('emoji_code', t.string);
  const type = params.get('reaction_type', t.string) ?? 'unicode_emoji';
  let target: { emoji_code: string; reaction_type: string };
  if (code !== undefined) {
    params.accept('emoji_name');
    target = { emoji_code: code, reaction_type: type };
  } else {
    target = emojiOf(req);
  }
  const existing = findReaction(m, user.id, target);
  if (!existing) throw new HearthError("Reaction doesn't exist.", { code: 'REACTION_DOES_NOT_EXIST' });
  await doRemoveReaction(req.app, user, m, existing);
  return {};
}
