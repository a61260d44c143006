/**
 * Reusable invite links (Zulip's MultiuseInvite): `/join/<key>/` lets anyone
 * who has the link create an account with the invite's role and channels,
 * until it expires or is revoked. Email invitations need an email server,
 * which a LAN-only Hearth does not have.
 */
import type { App } from '../../context.js';
import { customAlphabet } from 'nanoid';
import { safeEqual } from '../../auth/secrets.js';
import { inRealmSetting } from '../messages/edit-permissions.js';
import { isAdmin } from '../people/people.js';
import type { InviteRecord, UserRecord } from '../../store/records.js';

/** Zulip's INVITATION_LINK_VALIDITY_DAYS (10) in minutes: the default expiry. */
export const DEFAULT_INVITE_MINUTES = 10 * 24 * 60;

export const newInviteKey = customAlphabet('abcdefghijklmnopqrstuvwxyz0123456789', 24);

export const inviteLink = (baseUrl: string, key: string) => `${baseUrl}/join/${key}/`;

export const nowSeconds = (app: App) => Math.floor(app.clock.now() / 1000);

/** Still usable: not expired, and its creator still active (Zulip revokes a deactivated user's invites). */
export function isLive(app: App, inv: InviteRecord): boolean {
  if (inv.expires !== null && inv.expires <= nowSeconds(app)) return false;
  return app.store.users.get(inv.invited_by)?.is_active === true;
}

/** The live invite with this key (compared in constant time: the key is the only secret). */
export function inviteByKey(app: App, key: string): InviteRecord | undefined {
  let found: InviteRecord | undefined;
  for (const i of app.store.invites.data.invites) if (safeEqual(i.key, key) && !found) found = i;
  return found && isLive(app, found) ? found : undefined;
}

/** Zulip's can_create_multiuse_invite_to_realm (guests never). */
export const canCreateInviteLinks = (app: App, user: UserRecord) =>
  user.role !== 600 && inRealmSetting(app, user, 'create_multiuse_invite_group');

/** Zulip's do_get_invites_controlled_by_user: administrators see every live invite, others their own. */
export function invitesFor(app: App, user: UserRecord): InviteRecord[] {
  return app.store.invites.data.invites.filter((i) => isLive(app, i) && (isAdmin(user) || i.invited_by === user.id));
}

export function formatInvite(inv: InviteRecord, baseUrl: string): Record<string, unknown> {
  return {
    id: inv.id,
    invited_by_user_id: inv.invited_by,
    invited: inv.created,
    expiry_date: inv.expires,
    invited_as: inv.role,
    is_multiuse: true,
    link_url: inviteLink(baseUrl, inv.key),
  };
}

/** Who hears `invites_changed`: administrators and the invite's creator. */
export function inviteAudience(app: App, inv: InviteRecord): number[] {
  return app.store.users
    .all()
    .filter((u) => u.is_active && (isAdmin(u) || u.id === inv.invited_by))
    .map((u) => u.id);
}
