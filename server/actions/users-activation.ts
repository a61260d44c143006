/**
 * Deactivating and reactivating accounts (Zulip's do_deactivate_user and
 * do_reactivate_user, feature level 222+ event shapes).
 */
import type { App } from '../context.js';
import { channelById, metadataAccessUserIds } from '../lib/channels/access.js';
import { roleGroupIds } from '../lib/groups/groups.js';
import { activeUsers, isAdmin } from '../lib/people/people.js';
import type { UserRecord } from '../store/records.js';
import { commit, type Transaction } from './commit.js';
import { emitUserUpdate } from './users.js';
import { dropFromGroupSettings } from './group-settings-cleanup.js';
import { changeOwner } from './bots.js';
import { endSessionsOf } from './sessions.js';

/** The channels a user is subscribed to (the subscription rows survive deactivation). */
const subscribedChannelIds = (app: App, userId: number): number[] =>
  app.store.subscriptions.data.subscriptions.filter((s) => s.user_id === userId && s.active).map((s) => s.stream_id);

/** Zulip's bot_owner_user_ids: administrators and the bot's owner hear `realm_bot` events. */
export function botAudience(app: App, bot: UserRecord): number[] {
  const ids = new Set(activeUsers(app).filter((u) => isAdmin(u) && !u.is_bot).map((u) => u.id));
  if (bot.bot_owner_id !== null && app.store.users.get(bot.bot_owner_id)?.is_active) ids.add(bot.bot_owner_id);
  return [...ids];
}

/** Peer events for every channel the user is subscribed to (`peer_remove` or `peer_add`). */
function emitPeers(app: App, tx: Transaction, user: UserRecord, op: 'peer_add' | 'peer_remove'): void {
  for (const streamId of subscribedChannelIds(app, user.id)) {
    const channel = channelById(app, streamId);
    if (!channel) continue;
    const to = [...metadataAccessUserIds(app, channel)].filter((id) => id !== user.id);
    if (to.length) tx.emit({ type: 'subscription', op, stream_ids: [streamId], user_ids: [user.id] }, to);
  }
}

function deactivateOne(app: App, tx: Transaction, target: UserRecord): void {
  if (!target.is_active) return;
  // Everyone who could access the user hears it before the change; the user's own clients too.
  emitPeers(app, tx, target, 'peer_remove');
  emitUserUpdate(app, tx, target, { is_active: false });
  target.is_active = false;
  if (target.is_bot) {
    tx.emit({ type: 'realm_bot', op: 'update', bot: { user_id: target.id, is_active: false } }, botAudience(app, target));
  }
}

/**
 * Deactivates a user and every active bot they own. Clients drop a deactivated
 * user from every group themselves (Zulip feature level 303), so no
 * `user_group` events are sent.
 */
export async function doDeactivateUser(app: App, target: UserRecord): Promise<void> {
  const gone = await commit(app, (tx) => {
    tx.touch(app.store.users.collection);
    const users = [target];
    if (!target.is_bot) {
      for (const bot of app.store.users.all()) {
        if (bot.is_bot && bot.is_active && bot.bot_owner_id === target.id) users.unshift(bot);
      }
    }
    for (const u of users) deactivateOne(app, tx, u);
    const ids = new Set(users.map((u) => u.id));
    dropFromGroupSettings(app, tx, ids);
    // Browser sessions end in the same write.
    endSessionsOf(app, tx, ids);
    return users;
  });
  // Their credentials no longer work; their event queues go too (parked polls answer at once).
  for (const u of gone) app.events.deleteUser(u.id);
}

/**
 * Reactivates a user: `realm_user` update `is_active`, the user back in the
 * groups they are a direct member of (`add_members`), and back among their
 * channels' subscribers (`peer_add`). A bot whose owner is deactivated gets the
 * reactivating user as its owner (Zulip's do_reactivate_user), announced as an
 * owner change.
 */
export async function doReactivateUser(app: App, target: UserRecord, acting?: UserRecord): Promise<void> {
  if (target.is_active) return;
  await commit(app, (tx) => {
    const owner = target.bot_owner_id === null ? undefined : app.store.users.get(target.bot_owner_id);
    const newOwner = target.is_bot && owner && !owner.is_active && acting && acting.id !== owner.id ? acting : null;
    target.is_active = true;
    tx.touch(app.store.users.collection);
    emitUserUpdate(app, tx, target, { is_active: true });
    const everyone = activeUsers(app).map((u) => u.id);
    const groups = [
      ...roleGroupIds(app, target.role),
      ...app.store.groups.data.groups.filter((g) => !g.is_system_group && g.members.includes(target.id)).map((g) => g.id),
    ];
    for (const id of groups) {
      tx.emit({ type: 'user_group', op: 'add_members', group_id: id, user_ids: [target.id] }, everyone);
    }
    emitPeers(app, tx, target, 'peer_add');
    if (target.is_bot) {
      tx.emit({ type: 'realm_bot', op: 'update', bot: { user_id: target.id, is_active: true } }, botAudience(app, target));
      if (newOwner) changeOwner(app, tx, target, newOwner);
    }
  });
}
