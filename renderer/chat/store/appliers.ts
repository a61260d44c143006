/**
 * The client half of Zulip's event system: one applier per event type, each taking the store it
 * changes, the event (narrowed to its type by the protocol's union) and the effects beyond the store
 * (effects.ts). The table names every `ClientEvent` type, so a new kind of event does not compile
 * until it is applied here or listed as ignored. The page applies events to its one store with the
 * browser's effects (apply-event.ts); the store tests (test/renderer/store-*.test.ts) apply them to
 * stores of their own with none.
 */
import { topicKey } from '../../../server/protocol/conversation-keys.js';
import type { ClientEvent, ClientEventOf as Of, ClientEventType } from '../../../server/protocol/events.js';
import { onComposeRealm, onDrafts, onReminders, onScheduled, onUserGroup } from './compose-events.js';
import type { Effects } from './effects.js';
import { feedMutingChanged, onDelete, onFlags, onMessage, onReaction, onSubmessage, onUpdateMessage } from './message-events.js';
import { notePresences, onProfileValue, onStatus, onUserTopicPolicy } from './people-state.js';
import { MESSAGE_RULES, type ChannelFolder, type Store } from './state.js';

export type Applier<T extends ClientEventType> = (s: Store, e: Of<T>, fx: Effects) => void;

/** An event this client does not keep (a heartbeat, or a type it does not ask for at register: events.ts). */
const ignored = (): void => undefined;

/** How long a typing indicator lasts without a new "start" (the page's effects expire it). */
export const TYPING_EXPIRY_MS = 15_000;

/** The conversation a typing event is about, as feeds key it. */
function typingKey(s: Store, e: Of<'typing'>): string {
  if (e.message_type === 'stream') return `topic:${topicKey(e.stream_id, e.topic)}`;
  const ids = e.recipients.map((r) => r.user_id).filter((id) => id !== s.selfId.value);
  return `dm:${ids.sort((a, b) => a - b).join(',')}`;
}

function setTyping(s: Store, fx: Effects, key: string, userId: number, on: boolean): void {
  const next = new Map(s.typing.value);
  const list = (next.get(key) ?? []).filter((id) => id !== userId);
  if (on) list.push(userId);
  if (list.length) next.set(key, list);
  else next.delete(key);
  s.typing.value = next;
  fx.typing(`${key}|${userId}`, on, () => setTyping(s, fx, key, userId, false));
}

const byOrder = (list: ChannelFolder[]) => [...list].sort((a, b) => a.order - b.order || a.id - b.id);

/** The realm settings the store keeps from `update` and `update_dict`: the name, the upload limit, message actions' rules, compose's. */
function onRealm(s: Store, e: Of<'realm'>): void {
  onComposeRealm(s, e);
  if (e.op === 'update' && e.property === 'name') s.realmName.value = String(e.value);
  const data: Record<string, unknown> = e.op === 'update' ? { [e.property]: e.value } : e.op === 'update_dict' ? (e.data ?? {}) : {};
  if (typeof data.max_file_upload_size_mib === 'number') s.maxFileUploadMib.value = data.max_file_upload_size_mib;
  // The rules message actions follow (editing, deleting, moving, reporting).
  const rules = Object.entries(data).filter(([k]) => MESSAGE_RULES.includes(k));
  if (rules.length) s.messageRules.value = { ...s.messageRules.value, ...Object.fromEntries(rules) };
}

function onSubscription(s: Store, e: Of<'subscription'>, fx: Effects): void {
  if (e.op === 'add') {
    const added = e.subscriptions;
    const ids = new Set(added.map((x) => x.stream_id));
    s.subscriptions.value = [...s.subscriptions.value.filter((x) => !ids.has(x.stream_id)), ...added];
    const channels = new Map(s.channels.value);
    for (const x of added) channels.set(x.stream_id, x);
    s.channels.value = channels;
  } else if (e.op === 'remove') {
    // Left and joined again: the topic history may differ (protected history), so it is asked for anew.
    for (const x of e.subscriptions ?? []) fx.topicsForgotten(x.stream_id);
    const ids = new Set(e.subscriptions.map((x) => x.stream_id));
    s.subscriptions.value = s.subscriptions.value.filter((x) => !ids.has(x.stream_id));
    // One's own leaving comes as this event, not as a peer's: the count drops by one here.
    onPeers(s, { type: 'subscription', op: 'peer_remove', stream_ids: [...ids], user_ids: [s.selfId.value] });
  } else if (e.op === 'update') {
    const was = s.subscriptions.value.find((x) => x.stream_id === e.stream_id);
    s.subscriptions.value = s.subscriptions.value.map((x) => (x.stream_id === e.stream_id ? { ...x, [e.property]: e.value } : x));
    if ((e.property === 'is_muted' || e.property === 'in_home_view') && was) {
      const muted = e.property === 'is_muted' ? e.value === true : e.value === false;
      if (muted !== was.is_muted) feedMutingChanged(s, muted);
    }
  } else if (e.op === 'peer_add' || e.op === 'peer_remove') {
    onPeers(s, e);
  }
}

/** Subscriber counts follow who joins and leaves (the client keeps counts, not lists: `include_subscribers: false`). */
function onPeers(s: Store, e: Of<'subscription'> & { op: 'peer_add' | 'peer_remove' }): void {
  const by = (e.op === 'peer_add' ? 1 : -1) * e.user_ids.length;
  const ids = new Set(e.stream_ids);
  const count = <C extends { stream_id: number; subscriber_count?: number }>(c: C): C =>
    ids.has(c.stream_id) && typeof c.subscriber_count === 'number' ? { ...c, subscriber_count: Math.max(0, c.subscriber_count + by) } : c;
  s.subscriptions.value = s.subscriptions.value.map(count);
  const channels = new Map(s.channels.value);
  for (const id of ids) {
    const c = channels.get(id);
    if (c) channels.set(id, count(c));
  }
  s.channels.value = channels;
}

function onStream(s: Store, e: Of<'stream'>): void {
  const channels = new Map(s.channels.value);
  if (e.op === 'create') for (const c of e.streams) channels.set(c.stream_id, c);
  else if (e.op === 'delete') for (const c of e.streams) channels.delete(c.stream_id);
  else if (e.op === 'update') {
    const c = channels.get(e.stream_id);
    const rendered = e.rendered_description !== undefined ? { rendered_description: e.rendered_description } : {};
    if (c) channels.set(e.stream_id, { ...c, [e.property]: e.value, ...rendered });
    // The subscription's copy too (it kept the old rendered description until the next register).
    s.subscriptions.value = s.subscriptions.value.map((x) => (x.stream_id === e.stream_id ? { ...x, [e.property]: e.value, ...rendered } : x));
  }
  s.channels.value = channels;
}

function onUser(s: Store, e: Of<'realm_user'>): void {
  if (e.op === 'update' && e.person?.custom_profile_field) onProfileValue(s, e.person);
  const users = new Map(s.users.value);
  if (e.op === 'add') users.set(e.person.user_id, e.person);
  else if (e.op === 'update') {
    const u = users.get(e.person.user_id);
    if (u) users.set(e.person.user_id, { ...u, ...e.person });
  } else if (e.op === 'remove') users.delete(e.person.user_id);
  s.users.value = users;
}

function onPresence(s: Store, e: Of<'presence'>): void {
  // Clients with `simplified_presence_events` (this one) get `presences` only.
  notePresences('presences' in e ? e.presences : undefined, 'server_timestamp' in e ? e.server_timestamp : undefined, s);
  const next = new Map(s.presence.value);
  for (const [id, p] of Object.entries('presences' in e ? e.presences : {})) next.set(Number(id), p.active_timestamp);
  s.presence.value = next;
}

function onUserTopic(s: Store, e: Of<'user_topic'>): void {
  onUserTopicPolicy(s, e);
  const next = new Set(s.mutedTopics.value);
  const key = topicKey(e.stream_id, e.topic_name);
  const was = next.has(key);
  if (e.visibility_policy === 1) next.add(key);
  else next.delete(key);
  s.mutedTopics.value = next;
  if (was !== (e.visibility_policy === 1)) feedMutingChanged(s, !was);
}

function onChannelFolder(s: Store, e: Of<'channel_folder'>): void {
  let list = s.channelFolders.value;
  if (e.op === 'add') list = [...list.filter((f) => f.id !== e.channel_folder.id), { ...e.channel_folder }];
  else if (e.op === 'update') list = list.map((f) => (f.id === e.channel_folder_id ? { ...f, ...e.data } : f));
  else if (e.op === 'reorder') {
    const order = e.order;
    list = list.map((f) => (order.includes(f.id) ? { ...f, order: order.indexOf(f.id) } : f));
  }
  s.channelFolders.value = byOrder(list);
}

/** Every event type and its applier. */
export const APPLIERS: Appliers = {
  message: onMessage,
  update_message_flags: onFlags,
  update_message: onUpdateMessage,
  delete_message: onDelete,
  reaction: onReaction,
  submessage: onSubmessage,
  subscription: onSubscription,
  stream: onStream,
  realm_user: onUser,
  typing: (s, e, fx) => {
    const sender = e.sender?.user_id;
    if (sender !== s.selfId.value) setTyping(s, fx, typingKey(s, e), sender, e.op === 'start');
  },
  presence: onPresence,
  user_topic: onUserTopic,
  realm: onRealm,
  user_settings: (s, e) => {
    s.userSettings.value = { ...s.userSettings.value, [e.property]: e.value };
  },
  user_status: onStatus,
  muted_users: (s, e) => {
    s.mutedUsers.value = new Map((e.muted_users ?? []).map((m) => [m.id, m.timestamp]));
  },
  alert_words: (s, e) => {
    s.alertWords.value = e.alert_words ?? [];
  },
  custom_profile_fields: (s, e) => {
    s.profileFields.value = e.fields ?? [];
  },
  channel_folder: onChannelFolder,
  drafts: onDrafts,
  scheduled_messages: onScheduled,
  reminders: onReminders,
  user_group: onUserGroup,
  realm_emoji: (s, e) => {
    if ('realm_emoji' in e) s.realmEmoji.value = e.realm_emoji;
  },
  // Calls keep no register state: the page's call store takes them (apply-event.ts, chat/calls/).
  hearth_call: (_s, e, fx) => fx.call(e),
  heartbeat: ignored,
  // Not asked for by this client (events.ts): what the admin pages and other clients keep.
  saved_snippets: ignored,
  default_streams: ignored,
  muted_topics: ignored,
  typing_edit_message: ignored,
  attachment: ignored,
  realm_bot: ignored,
  device: ignored,
  realm_user_settings_defaults: ignored,
  realm_linkifiers: ignored,
  realm_playgrounds: ignored,
  realm_export: ignored,
  invites_changed: ignored,
  navigation_view: ignored,
};

export type Appliers = { readonly [T in ClientEventType]: Applier<T> };

/** Applies one event to a store (by `table`: the store tests pass one with an applier broken on purpose). */
export function applyTo(s: Store, e: ClientEvent, fx: Effects, table: Appliers = APPLIERS): void {
  (table[e.type] as Applier<typeof e.type>)(s, e as never, fx);
}
