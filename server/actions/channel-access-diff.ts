/**
 * Channel visibility around changes that are not channel edits: group
 * membership (members or subgroups of a group used in a channel's `can_*`
 * settings) and role changes. Zulip (zerver/actions/user_groups.py and
 * do_change_user_role) sends a user who starts knowing a channel a `stream`
 * create (with the subscriber `peer_add` that follows it here, see
 * ./channel-events.ts), and one who stops knowing it a `stream` delete.
 *
 * Usage, inside one commit (nothing may await between the two calls):
 *
 *     commit(app, (tx) => {
 *       const snap = snapshotChannelAccess(app, affectedUserIds);
 *       ...mutate groups / roles...
 *       emitChannelAccessDiff(app, tx, snap);
 *     });
 *
 * `userIds` limits the work to the users whose access can move (the users
 * added or removed, the members of subgroups added or removed, the user whose
 * role changes); omitted, every active user is compared.
 */
import type { App } from '../context.js';
import type { GroupSettingValue } from '../store/channel-records.js';
import { emitChannelCreate, emitChannelDelete } from './channel-events.js';
import { SETTINGS_GRANTING_METADATA_ACCESS } from '../lib/channels/settings.js';
import { hasMetadataAccess, subscriberMap } from '../lib/channels/access.js';
import { groupSettingMemberIds } from '../lib/groups/groups.js';
import { isAdmin, isGuest } from '../lib/people/people.js';
import type { Transaction } from './commit.js';

export interface ChannelAccessSnapshot {
  /** The users compared (active when the snapshot was taken). */
  readonly userIds: readonly number[];
  /** Per channel ID, which of those users had metadata access. */
  readonly access: ReadonlyMap<number, ReadonlySet<number>>;
}

function activeUsers(app: App, userIds?: Iterable<number>) {
  if (userIds === undefined) return app.store.users.all().filter((u) => u.is_active);
  const out = [];
  for (const id of new Set(userIds)) {
    const u = app.store.users.get(id);
    if (u?.is_active) out.push(u);
  }
  return out;
}

/** Up to this many users (a role change), channels are checked user by user; above, settings are resolved once per value. */
const PER_USER_LIMIT = 10;

/**
 * hasMetadataAccess (lib/channels/access.ts) for every (channel, user) pair. For many
 * users (a role change of everyone, a big subgroup) the members of a private
 * channel's access-granting settings are resolved once per channel instead of
 * once per user: the same rule, written per channel.
 */
function computeAccess(app: App, userIds: readonly number[]): Map<number, Set<number>> {
  const users = activeUsers(app, userIds);
  const subscribers = subscriberMap(app);
  const out = new Map<number, Set<number>>();
  // Channels share setting values (role:nobody, the same team): resolve each value once.
  const resolved = new Map<string, number[]>();
  const membersOf = (value: GroupSettingValue): number[] => {
    const key = typeof value === 'number' ? String(value) : JSON.stringify(value);
    let ids = resolved.get(key);
    if (!ids) resolved.set(key, (ids = groupSettingMemberIds(app, value)));
    return ids;
  };
  for (const channel of app.store.channels.data.channels) {
    const subs = new Set(subscribers.get(channel.id) ?? []);
    const open = channel.is_web_public;
    if (users.length <= PER_USER_LIMIT) {
      out.set(channel.id, new Set(users.filter((u) => hasMetadataAccess(app, u, channel, subs.has(u.id))).map((u) => u.id)));
      continue;
    }
    const granted = new Set<number>();
    if (!open && channel.invite_only) {
      for (const name of SETTINGS_GRANTING_METADATA_ACCESS) {
        const value = channel.settings[name];
        if (value !== undefined) for (const id of membersOf(value)) granted.add(id);
      }
    }
    const seeing = new Set<number>();
    for (const u of users) {
      const sees =
        open || subs.has(u.id) || (!isGuest(u) && (!channel.invite_only || isAdmin(u) || granted.has(u.id)));
      if (sees) seeing.add(u.id);
    }
    out.set(channel.id, seeing);
  }
  return out;
}

/** Who of `userIds` (default: every active user) knows which channel, before a change. */
export function snapshotChannelAccess(app: App, userIds?: Iterable<number>): ChannelAccessSnapshot {
  const ids = activeUsers(app, userIds).map((u) => u.id);
  return { userIds: ids, access: computeAccess(app, ids) };
}

/**
 * After the change: `stream` create (+ subscriber peer_add) to the users of the
 * snapshot who gained metadata access to a channel, `stream` delete to those who
 * lost it. Users deactivated in between are skipped (they have no queues).
 * Returns how many (channel, user) pairs changed, for tests and logs.
 */
export function emitChannelAccessDiff(app: App, tx: Transaction, snapshot: ChannelAccessSnapshot): number {
  const after = computeAccess(app, snapshot.userIds);
  let changed = 0;
  for (const channel of app.store.channels.data.channels) {
    const now = after.get(channel.id)!;
    const before = snapshot.access.get(channel.id) ?? new Set<number>();
    const gained = [...now].filter((id) => !before.has(id));
    const lost = [...before].filter((id) => !now.has(id) && app.store.users.get(id)?.is_active === true);
    emitChannelCreate(tx, app, channel, gained);
    emitChannelDelete(tx, channel, lost);
    changed += gained.length + lost.length;
  }
  return changed;
}
