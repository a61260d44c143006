/**
 * Users as clients see them: roles, email visibility, who may access whom
 * (Zulip's can_access_all_users_group for guests) and the member object.
 */
import type { App } from '../../context.js';
import type { User } from '../../protocol/user.js';
import { ROLE, type UserRecord } from '../../store/records.js';
import { isUserInGroupSetting } from '../groups/groups.js';

export const isAdmin = (u: UserRecord) => u.role === ROLE.OWNER || u.role === ROLE.ADMIN;
export const isOwner = (u: UserRecord) => u.role === ROLE.OWNER;
export const isModerator = (u: UserRecord) => u.role === ROLE.MODERATOR;
export const isGuest = (u: UserRecord) => u.role === ROLE.GUEST;

export const ROLES: readonly number[] = [ROLE.OWNER, ROLE.ADMIN, ROLE.MODERATOR, ROLE.MEMBER, ROLE.GUEST];

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

/** The organization's own address domain: stand-ins for hidden addresses (`user{id}@…`) and bots live there. */
export const fakeDomain = (app: App | null): string => app?.store.realm.data.realm?.settings.fake_email_domain ?? 'hearth.local';

export const fakeEmailFor = (app: App, userId: number) => `user${userId}@${fakeDomain(app)}`;
export const fakeEmail = (app: App, user: UserRecord): string => fakeEmailFor(app, user.id);

/** The address a viewer uses for this user in the API. */
export function apiEmail(app: App, viewer: UserRecord | null, target: UserRecord): string {
  return canSeeEmail(app, viewer, target) ? target.email : fakeEmail(app, target);
}

export const avatarUrl = (u: UserRecord) => `/avatar/${u.id}?v=${u.avatar_version}`;
export const avatarUrlMedium = (u: UserRecord) => `/avatar/${u.id}/medium?v=${u.avatar_version}`;
/** Zulip's avatar_source: U for an uploaded image, G for the default (generated locally, never gravatar). */
export const avatarSource = (u: UserRecord): 'U' | 'G' => (u.avatar ? 'U' : 'G');

/**
 * `date_joined` in Zulip's shape: `YYYY-MM-DDTHH:MM+00:00` (minute precision) for users,
 * the day only for spectators.
 */
/** Formatted join dates by stored value: every user dict carries one, and a Date per call showed in profiles. */
const joinedText = new Map<string, string>();

export function formatDateJoined(iso: string, spectator: boolean): string {
  let s = joinedText.get(iso);
  if (s === undefined) {
    const d = new Date(iso);
    if (Number.isNaN(d.getTime())) return iso;
    s = d.toISOString();
    if (joinedText.size > 50_000) joinedText.clear();
    joinedText.set(iso, s);
  }
  return spectator ? s.slice(0, 10) : `${s.slice(0, 16)}+00:00`;
}

// --- Access (guests limited by can_access_all_users_group) ---

/** Whether the viewer sees every user (Zulip's check_user_can_access_all_users). */
export function canAccessAllUsers(app: App, viewer: UserRecord | null): boolean {
  if (!viewer || !isGuest(viewer)) return true;
  const setting = app.store.realm.data.realm?.settings.can_access_all_users_group;
  if (setting === undefined || setting === null) return true;
  return isUserInGroupSetting(app, setting, viewer.id);
}

/**
 * The humans a restricted guest may access: themselves, everyone subscribed to a
 * channel they are subscribed to, and everyone they share a direct message with.
 * Bots are always accessible (not listed here).
 */
export function accessibleHumanIds(app: App, viewer: UserRecord): Set<number> {
  const out = new Set<number>([viewer.id]);
  const subs = app.store.subscriptions.data.subscriptions;
  const mine = new Set(subs.filter((s) => s.user_id === viewer.id && s.active).map((s) => s.stream_id));
  for (const s of subs) if (s.active && mine.has(s.stream_id)) out.add(s.user_id);
  for (const id of app.store.messages.directOf(viewer.id)) {
    for (const p of app.store.messages.get(id)?.dm ?? []) out.add(p);
  }
  return out;
}

/** null: the viewer accesses everyone; otherwise a membership test. */
export function accessFilter(app: App, viewer: UserRecord | null): ((u: UserRecord) => boolean) | null {
  if (canAccessAllUsers(app, viewer)) return null;
  const ids = accessibleHumanIds(app, viewer!);
  return (u) => u.is_bot || ids.has(u.id);
}

export function canAccessUser(app: App, viewer: UserRecord | null, target: UserRecord): boolean {
  const f = accessFilter(app, viewer);
  return f === null || f(target);
}

/** Active users who may access `target` (the audience of its `realm_user` events). */
export function usersWhoCanAccess(app: App, target: UserRecord): number[] {
  return app.store.users
    .all()
    .filter((v) => v.is_active && canAccessUser(app, v, target))
    .map((v) => v.id);
}

export const activeUsers = (app: App): UserRecord[] => app.store.users.all().filter((u) => u.is_active);

// --- The member object ---

export interface FormatOptions {
  /** Include `profile_data` for humans (default true: register and events). */
  profileData?: boolean;
}

/** A user in Zulip's member-object shape, as `viewer` (null: a spectator) may see it. */
export function formatUser(
  app: App,
  viewer: UserRecord | null,
  u: UserRecord,
  opts: FormatOptions = {},
): User {
  const visible = viewer !== null && canSeeEmail(app, viewer, u);
  const out: User = {
    user_id: u.id,
    delivery_email: visible ? u.email : null,
    email: canSeeEmail(app, viewer, u) ? u.email : fakeEmail(app, u),
    full_name: u.full_name,
    date_joined: formatDateJoined(u.date_joined, viewer === null),
    is_active: u.is_active,
    is_owner: isOwner(u),
    is_admin: isAdmin(u),
    is_guest: isGuest(u),
    is_bot: u.is_bot,
    role: u.role,
    timezone: u.timezone,
    // Hearth never points at a third-party avatar, so `client_gravatar` never turns this into null.
    avatar_url: avatarUrl(u),
    avatar_version: u.avatar_version,
    is_imported_stub: u.is_imported_stub,
  };
  if (viewer === null) delete out.timezone;
  if (u.is_deleted) out.is_deleted = true;
  // bot_type is null for people (the spec's User table); bot_owner_id only for bots.
  if (u.is_bot) Object.assign(out, { bot_type: u.bot_type, bot_owner_id: u.bot_owner_id });
  else {
    out.bot_type = null;
    if (opts.profileData !== false) out.profile_data = viewer === null ? {} : profileDataOf(u);
  }
  return out;
}

export function profileDataOf(u: UserRecord): Record<string, { value: string; rendered_value?: string }> {
  const out: Record<string, { value: string; rendered_value?: string }> = {};
  for (const [id, v] of Object.entries(u.profile_data ?? {})) out[id] = { ...v };
  return out;
}

/** Zulip's placeholder for a user a guest may not access ("Unknown user"). */
export function inaccessibleUser(app: App, userId: number): User {
  return {
    user_id: userId,
    delivery_email: null,
    email: fakeEmailFor(app, userId),
    full_name: 'Unknown user',
    date_joined: '1970-01-01T00:00+00:00',
    is_active: true,
    is_owner: false,
    is_admin: false,
    is_guest: false,
    is_bot: false,
    bot_type: null,
    role: ROLE.MEMBER,
    timezone: '',
    avatar_url: `/avatar/${userId}?v=1`,
    avatar_version: 1,
    is_imported_stub: false,
    profile_data: {},
  };
}

/** The `realm_user` register fields about the requester themselves. */
export function ownUserFields(u: UserRecord): Record<string, unknown> {
  return {
    user_id: u.id,
    email: u.email,
    delivery_email: u.email,
    full_name: u.full_name,
    is_admin: isAdmin(u),
    is_owner: isOwner(u),
    // Zulip 11 (feature level 380): true for administrators and owners too.
    is_moderator: isModerator(u) || isAdmin(u),
    is_guest: isGuest(u),
    avatar_source: avatarSource(u),
    avatar_url: avatarUrl(u),
    avatar_url_medium: avatarUrlMedium(u),
  };
}

/** One dot-separated part of an address: no space, control character or separator. */
const ATOM = String.raw`[^\s@<>()[\]\\,;:"\x00-\x1f\x7f.]+`;
/** local@domain: dot-separated parts, none empty (no leading, trailing or double dot); a domain of two parts or more, or localhost. */
const EMAIL_RE = new RegExp(String.raw`^${ATOM}(\.${ATOM})*@(${ATOM}(\.${ATOM})+|localhost)$`, 'i');

export const isValidEmail = (email: string): boolean => email.length <= 254 && EMAIL_RE.test(email);
