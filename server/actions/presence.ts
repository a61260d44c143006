/**
 * Zulip's do_update_user_presence: the row changes in memory (presence is not
 * persisted); a `presence` event goes to everyone who may see the user when
 * they come online or become active again, unless more than `presenceEventUserLimit`
 * people may see them (Zulip's USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS: past it, such
 * events are quadratic work and clients rely on their minute's presence ping instead).
 * Through commit so events follow the one path.
 */
import type { App } from '../context.js';
import { OFFLINE_THRESHOLD_SECONDS } from '../lib/people/presence.js';
import { usersWhoCanAccess } from '../lib/people/people.js';
import { userSetting } from '../lib/people/settings.js';
import type { UserRecord } from '../store/records.js';
import { commit } from './commit.js';

export async function doUpdatePresence(app: App, user: UserRecord, status: 'active' | 'idle'): Promise<void> {
  await commit(app, (tx) => {
    const book = app.presence;
    const now = Math.floor(app.clock.now() / 1000);
    const old = book.rows.get(user.id);
    const wasOnline = old !== undefined && now - old.idle_timestamp <= OFFLINE_THRESHOLD_SECONDS;
    const wasActive = old !== undefined && now - old.active_timestamp <= OFFLINE_THRESHOLD_SECONDS;
    const row = {
      active_timestamp: status === 'active' ? now : (old?.active_timestamp ?? now),
      idle_timestamp: now,
      update_id: ++book.lastUpdateId,
    };
    book.rows.set(user.id, row);
    const announce = !wasOnline || (status === 'active' && !wasActive);
    if (announce && userSetting(app, user, 'presence_enabled') !== false) {
      const viewers = usersWhoCanAccess(app, user);
      if (viewers.length <= app.config.presenceEventUserLimit) tx.emit({ type: 'presence', user_id: user.id, row: { ...row } }, viewers);
    }
  });
}
