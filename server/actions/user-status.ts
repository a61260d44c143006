/** Zulip's do_update_user_status: stored on the user; `user_status` event to everyone who may see them. */
import type { App } from '../context.js';
import type { UserStatusEvent } from '../events/types.js';
import { usersWhoCanAccess } from '../lib/people/people.js';
import type { UserRecord } from '../store/records.js';
import { commit } from './commit.js';

export interface StatusChange {
  status_text?: string;
  emoji?: { emoji_name: string; emoji_code: string; reaction_type: string } | null;
}

export async function doUpdateStatus(app: App, user: UserRecord, ch: StatusChange): Promise<void> {
  await commit(app, (tx) => {
    const s = { ...(user.status ?? {}) };
    const event: UserStatusEvent = { type: 'user_status', user_id: user.id };
    if (ch.status_text !== undefined) {
      if (ch.status_text) s.status_text = ch.status_text;
      else delete s.status_text;
      event.status_text = ch.status_text;
    }
    if (ch.emoji !== undefined) {
      delete s.emoji_name;
      delete s.emoji_code;
      delete s.reaction_type;
      if (ch.emoji) Object.assign(s, ch.emoji);
      Object.assign(event, ch.emoji ?? { emoji_name: '', emoji_code: '', reaction_type: '' });
    }
    if (Object.keys(s).length) user.status = s;
    else delete user.status;
    tx.touch(app.store.users.collection);
    tx.emit(event, usersWhoCanAccess(app, user));
  });
}
