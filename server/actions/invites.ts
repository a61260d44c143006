/**
 * Invite links (Zulip's do_create_multiuse_invite_link, do_revoke_multi_use_invite)
 * and joining through one: the account is created with the invite's role, then
 * subscribed to its channels (and the organization's default channels when the
 * invite says so). `invites_changed` tells administrators and the creator to refetch.
 */
import type { App } from '../context.js';
import { channelById } from '../lib/channels/access.js';
import { inviteAudience, newInviteKey, nowSeconds } from '../lib/realm/invites.js';
import type { InviteRecord, Role, UserRecord } from '../store/records.js';
import { commit } from './commit.js';
import { doAddSubscriptions } from './subscriptions.js';
import { doCreateUser } from './users.js';
import { doWelcomeNewUser } from './onboarding.js';

export interface NewInvite {
  role: Role;
  expiresInMinutes: number | null;
  streamIds: number[];
  includeDefaults: boolean;
}

export async function doCreateInviteLink(app: App, creator: UserRecord, input: NewInvite): Promise<InviteRecord> {
  return commit(app, (tx) => {
    const doc = app.store.invites.data;
    const created = nowSeconds(app);
    const inv: InviteRecord = {
      id: doc.nextId++,
      key: newInviteKey(),
      invited_by: creator.id,
      created,
      expires: input.expiresInMinutes === null ? null : created + input.expiresInMinutes * 60,
      role: input.role,
      stream_ids: input.streamIds,
      include_realm_default_subscriptions: input.includeDefaults,
      used: 0,
    };
    doc.invites.push(inv);
    tx.touch(app.store.invites);
    tx.emit({ type: 'invites_changed' }, inviteAudience(app, inv));
    return inv;
  });
}

/** Changes what a link gives; the link (its key) and its expiry stay. */
export async function doEditInviteLink(app: App, inv: InviteRecord, change: { role: Role; streamIds: number[]; includeDefaults: boolean }): Promise<void> {
  await commit(app, (tx) => {
    inv.role = change.role;
    inv.stream_ids = change.streamIds;
    inv.include_realm_default_subscriptions = change.includeDefaults;
    tx.touch(app.store.invites);
    tx.emit({ type: 'invites_changed' }, inviteAudience(app, inv));
  });
}

export async function doRevokeInviteLink(app: App, inv: InviteRecord): Promise<void> {
  await commit(app, (tx) => {
    const doc = app.store.invites.data;
    doc.invites = doc.invites.filter((i) => i !== inv);
    tx.touch(app.store.invites);
    tx.emit({ type: 'invites_changed' }, inviteAudience(app, inv));
  });
}

/** Creates the account (checked by the view) and subscribes it as the invite says. */
export async function doJoinWithInvite(
  app: App,
  inv: InviteRecord,
  account: { email: string; fullName: string; password: string },
): Promise<UserRecord> {
  const user = await doCreateUser(app, { ...account, role: inv.role });
  await commit(app, (tx) => {
    inv.used++;
    tx.touch(app.store.invites);
  });
  const ids = new Set(inv.stream_ids);
  if (inv.include_realm_default_subscriptions) {
    for (const c of app.store.channels.data.channels) if (c.is_default_stream) ids.add(c.id);
  }
  const channels = [...ids].map((id) => channelById(app, id)).filter((c) => c !== undefined && !c.is_archived);
  if (channels.length) {
    await doAddSubscriptions(app, user, { create: [], existing: channels as NonNullable<(typeof channels)[number]>[], users: [user], colors: new Map() });
  }
  await doWelcomeNewUser(app, user);
  return user;
}
