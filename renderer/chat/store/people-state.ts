/**
 * The people half of the store: presence (slim rows), user status, custom profile fields
 * and each person's values, muted users, alert words and topic visibility (muted, followed).
 * `loadPeopleState` reads them from a register answer, the appliers (appliers.ts) keep them current;
 * helpers answer "is this person active?", "what is their role called?".
 */
import { topicKey } from '../../../server/protocol/conversation-keys.js';
import type { ClientEventOf as Of, RealmUserUpdateEvent } from '../../../server/protocol/events.js';
import type { RegisterState } from '../../../server/protocol/register.js';
import { store, type PresenceRow, type Store, type User, type UserStatus, type UserTopic } from './state.js';

/** Seconds on the server's clock (the browser's clock corrected by the last server_timestamp). */
export const serverNow = () => Date.now() / 1000 + store.clockSkew.value;

export function notePresences(presences: Record<string, PresenceRow> | undefined, serverTimestamp?: number, s: Store = store): void {
  if (typeof serverTimestamp === 'number') s.clockSkew.value = serverTimestamp - Date.now() / 1000;
  s.now.value = Date.now() / 1000 + s.clockSkew.value;
  if (!presences) return;
  const next = new Map(s.presenceRows.value);
  for (const [id, p] of Object.entries(presences)) {
    if (p && typeof p.active_timestamp === 'number') next.set(Number(id), { active_timestamp: p.active_timestamp, idle_timestamp: p.idle_timestamp ?? 0 });
  }
  s.presenceRows.value = next;
}

export function loadPeopleState(store: Store, r: RegisterState): void {
  store.presenceRows.value = new Map();
  notePresences(r.presences, r.server_timestamp, store);
  if (typeof r.server_presence_offline_threshold_seconds === 'number') store.presenceThreshold.value = r.server_presence_offline_threshold_seconds;
  if (typeof r.server_presence_ping_interval_seconds === 'number') store.presencePingInterval.value = r.server_presence_ping_interval_seconds;
  const statuses = new Map<number, UserStatus>();
  for (const [id, s] of Object.entries(r.user_status ?? {})) statuses.set(Number(id), { ...s });
  store.userStatus.value = statuses;
  store.profileFields.value = r.custom_profile_fields ?? [];
  store.mutedUsers.value = new Map((r.muted_users ?? []).map((m) => [m.id, m.timestamp]));
  store.alertWords.value = r.alert_words ?? [];
  const topics = new Map<string, UserTopic>();
  for (const t of r.user_topics ?? []) if (t.visibility_policy) topics.set(topicKey(t.stream_id, t.topic_name), t);
  store.userTopics.value = topics;
}

/** A user_status event: only the fields it names change; an empty string clears one. */
export function onStatus(store: Store, e: Of<'user_status'>): void {
  const next = new Map(store.userStatus.value);
  const s: UserStatus = { ...(next.get(e.user_id) ?? {}) };
  if (e.status_text !== undefined) s.status_text = e.status_text;
  if (e.emoji_name !== undefined) Object.assign(s, { emoji_name: e.emoji_name, emoji_code: e.emoji_code ?? '', reaction_type: e.reaction_type ?? '' });
  next.set(e.user_id, s);
  store.userStatus.value = next;
}

/** A realm_user update carrying one custom profile field's new value (null: removed). */
export function onProfileValue(store: Store, p: RealmUserUpdateEvent['person']): void {
  const f = p.custom_profile_field;
  const u = store.users.value.get(p.user_id);
  if (!f || !u) return;
  const data = { ...(u.profile_data ?? {}) };
  if (f.value === null) delete data[f.id];
  else data[f.id] = { value: f.value, ...(f.rendered_value !== undefined ? { rendered_value: f.rendered_value } : {}) };
  const users = new Map(store.users.value);
  users.set(u.user_id, { ...u, profile_data: data });
  store.users.value = users;
}

/** A user_topic event: the topic's visibility policy (0: none). */
export function onUserTopicPolicy(store: Store, e: Of<'user_topic'>): void {
  const next = new Map(store.userTopics.value);
  const key = topicKey(e.stream_id, e.topic_name);
  if (e.visibility_policy) next.set(key, { stream_id: e.stream_id, topic_name: e.topic_name, visibility_policy: e.visibility_policy, last_updated: e.last_updated });
  else next.delete(key);
  store.userTopics.value = next;
}

export type Availability = 'active' | 'idle' | 'offline';

/** Zulip's rule: active if active within the threshold, idle if seen within it, else offline. */
export function availabilityOf(userId: number, now: number = store.now.value): Availability {
  const u = store.users.value.get(userId);
  if (u?.is_bot) return 'offline';
  const row = store.presenceRows.value.get(userId);
  const t = store.presenceThreshold.value;
  if (row && now - row.active_timestamp <= t) return 'active';
  if (row && now - row.idle_timestamp <= t) return 'idle';
  return 'offline';
}

/** When someone was last seen (seconds), or undefined. */
export const lastSeen = (userId: number): number | undefined => {
  const row = store.presenceRows.value.get(userId);
  return row ? Math.max(row.active_timestamp, row.idle_timestamp) : undefined;
};

export const AVAILABILITY_TEXT: Record<Availability, string> = { active: 'Active', idle: 'Idle', offline: 'Offline' };

const ROLES: Record<number, string> = { 100: 'Owner', 200: 'Administrator', 300: 'Moderator', 400: 'Member', 600: 'Guest' };

export const roleName = (u: User): string => (u.is_bot ? 'Bot' : (ROLES[u.role] ?? 'Member'));

export const statusOf = (userId: number): UserStatus | undefined => {
  const s = store.userStatus.value.get(userId);
  return s && (s.status_text || s.emoji_name) ? s : undefined;
};

/** A Unicode emoji from its code ("1f44d", "1f468-200d-1f373"); custom emoji by name. */
export function emojiChar(code: string | undefined, type: string | undefined, name: string | undefined): string {
  if (!name) return '';
  if (type && type !== 'unicode_emoji') return `:${name}:`;
  try {
    return String.fromCodePoint(...(code ?? '').split('-').map((c) => parseInt(c, 16)));
  } catch {
    return `:${name}:`;
  }
}

/** "3 minutes ago", "2 days ago" (Intl.RelativeTimeFormat). */
export function ago(seconds: number, now: number = store.now.value): string {
  const diff = Math.max(0, now - seconds);
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  if (diff < 60) return 'just now';
  if (diff < 3600) return rtf.format(-Math.round(diff / 60), 'minute');
  if (diff < 86_400) return rtf.format(-Math.round(diff / 3600), 'hour');
  return rtf.format(-Math.round(diff / 86_400), 'day');
}

export const isTopicFollowed = (streamId: number, topic: string) => store.userTopics.value.get(topicKey(streamId, topic))?.visibility_policy === 3;
