import type { App } from '../context.js';
import { ROLE, type UserRecord } from '../store/records.js';

export const isAdmin = (u: UserRecord) => u.role === ROLE.OWNER || u.role === ROLE.ADMIN;
export const isOwner = (u: UserRecord) => u.role === ROLE.OWNER;
export const isModerator = (u: UserRecord) => u.role === ROLE.MODERATOR;
export const isGuest = (u: UserRecord) => u.role === ROLE.GUEST;

export const EMAIL_VISIBILITY = { EVERYONE: 1, MEMBERS: 2, ADMINS: 3, NOBODY: 4, MODERATORS: 5 } as const;

/** Whether `viewer` (null: a spectator) may see `target`'s real email address. */
export function canSeeEmail(app: App, viewer: UserRecord | null, target: UserRecord): boolean {
  if (target.is_bot) return true;
  if (!viewer) return false;
  if (viewer.id === target.id) return true;
  const setting = app.store.realm.data.realm?.settings.email_address_visibility ?? EMAIL_VISIBILITY.EVERYONE;
  switch (setting) {
    case EMAIL_VISIBILITY.EVERYONE:
      return true;
    case EMAIL_VISIBILITY.MEMBERS:
      return !isGuest(viewer);
    case EMAIL_VISIBILITY.ADMINS:
      return isAdmin(viewer);
    case EMAIL_VISIBILITY.MODERATORS:
      return isAdmin(viewer) || isModerator(viewer);
    default:
      return false;
  }
}

export function fakeEmail(app: App, user: UserRecord): string {
  return `user${user.id}@${app.store.realm.data.realm?.settings.fake_email_domain ?? 'hearth.local'}`;
}

/** The address a viewer uses for this user in the API. */
export function apiEmail(app: App, viewer: UserRecord | null, target: UserRecord): string {
  return canSeeEmail(app, viewer, target) ? target.email : fakeEmail(app, target);
}

export const avatarUrl = (u: UserRecord) => `/avatar/${u.id}?v=${u.avatar_version}`;

/** A user in Zulip's member-object shape, as `viewer` may see it. */
export function formatUser(app: App, viewer: UserRecord | null, u: UserRecord): Record<string, unknown> {
  const visible = canSeeEmail(app, viewer, u);
  const out: Record<string, unknown> = {
    user_id: u.id,
    delivery_email: visible ? u.email : null,
    email: visible ? u.email : fakeEmail(app, u),
    full_name: u.full_name,
    date_joined: u.date_joined,
    is_active: u.is_active,
    is_owner: isOwner(u),
    is_admin: isAdmin(u),
    is_guest: isGuest(u),
    is_bot: u.is_bot,
    bot_type: u.bot_type,
    role: u.role,
    timezone: u.timezone,
    avatar_url: avatarUrl(u),
    avatar_version: u.avatar_version,
    is_imported_stub: u.is_imported_stub,
  };
  if (u.is_bot) out.bot_owner_id = u.bot_owner_id;
  else out.profile_data = {};
  return out;
}

const EMAIL_RE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$|^[^\s@<>()[\]\\,;:"]+@localhost$/i;

export const isValidEmail = (email: string): boolean => email.length <= 254 && EMAIL_RE.test(email);
