/**
 * Which users a restricted guest may access changes when they join or leave a
 * channel, exchange a first direct message, or change role. Zulip then sends
 * the guest `realm_user` add for each user gained (replacing the "Unknown user"
 * placeholder) and, for each user lost, `remove` (clients with
 * `user_list_incomplete`) or the placeholder `add` (others).
 *
 * Usage, inside one commit (nothing may await between the two calls):
 *
 *     const snap = snapshotUserAccess(app, affectedUserIds);
 *     ...subscribe / send / change role...
 *     emitUserAccessDiff(app, tx, snap);
 *
 * Only restricted guests can gain or lose access, so this is cheap when the
 * organization has no such restriction.
 */
import type { App } from '../context.js';
import { accessFilter, formatUser, inaccessibleUser, isGuest } from '../lib/people/people.js';
import type { UserRecord } from '../store/records.js';
import type { Transaction } from './commit.js';

export type UserAccessSnapshot = Map<number, ((u: UserRecord) => boolean) | null>;

/** Active guests: the only users whose access a subscription change can move. */
export const activeGuestIds = (app: App): number[] =>
  app.store.users
    .all()
    .filter((u) => u.is_active && isGuest(u))
    .map((u) => u.id);

export function snapshotUserAccess(app: App, viewerIds: Iterable<number>): UserAccessSnapshot {
  const out: UserAccessSnapshot = new Map();
  for (const id of new Set(viewerIds)) {
    const viewer = app.store.users.get(id);
    if (viewer?.is_active) out.set(id, accessFilter(app, viewer));
  }
  return out;
}

export function emitUserAccessDiff(app: App, tx: Transaction, snapshot: UserAccessSnapshot): void {
  for (const [viewerId, before] of snapshot) {
    const viewer = app.store.users.get(viewerId);
    if (!viewer?.is_active) continue;
    const after = accessFilter(app, viewer);
    if (before === null && after === null) continue;
    for (const u of app.store.users.all()) {
      const had = before === null || before(u);
      const has = after === null || after(u);
      if (had === has) continue;
      if (has) tx.emit({ type: 'realm_user', op: 'add', person: formatUser(app, viewer, u) }, [viewerId]);
      else {
        tx.emit(
          { type: 'realm_user', op: 'remove', person: { user_id: u.id, full_name: u.full_name }, incomplete_only: true },
          [viewerId],
        );
        tx.emit({ type: 'realm_user', op: 'add', person: inaccessibleUser(app, u.id), unknown_user: true }, [viewerId]);
      }
    }
  }
}
