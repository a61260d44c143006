/** Muting users (Zulip's do_mute_user / do_unmute_user): stored on the muter; `muted_users` event with the whole list. */
import type { App } from '../context.js';
import type { UserRecord } from '../store/records.js';
import { commit } from './commit.js';

export async function doSetMuted(app: App, user: UserRecord, targetId: number, muted: boolean): Promise<void> {
  await commit(app, (tx) => {
    const list = (user.muted_users ?? []).filter((m) => m.id !== targetId);
    if (muted) list.push({ id: targetId, timestamp: Math.floor(app.clock.now() / 1000) });
    if (list.length) user.muted_users = list;
    else delete user.muted_users;
    tx.touch(app.store.users.collection);
    tx.emit({ type: 'muted_users', muted_users: list }, [user.id]);
  });
}
