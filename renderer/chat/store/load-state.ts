/**
 * Fills a store from a `POST /register` answer (the snapshot events then keep current):
 * `loadStore` any store (the store tests' too), `loadState` the page's, with its sidebar's topic lists.
 */
import type { RegisterState } from '../../../server/protocol/register.js';
import { topicKey } from '../../../server/protocol/conversation-keys.js';
import { MESSAGE_RULES, store as pageStore, type Channel, type ChannelFolder, type RecentConversation, type Store, type UnreadPlace, type User } from './state.js';
import { loadPeopleState } from './people-state.js';
import { loadSidebarState } from '../sidebar/sidebar-state.js';

/** Fills the page's store, and fetches again the topic lists the sidebar knows (events may have been missed). */
export function loadState(r: RegisterState): void {
  loadStore(pageStore, r);
  loadSidebarState(r);
}

export function loadStore(store: Store, r: RegisterState): void {
  const selfId = Number(r.user_id);
  store.selfId.value = selfId;
  store.isAdmin.value = r.is_admin === true;
  store.canCreateChannels.value = r.can_create_public_streams === true || r.can_create_private_streams === true;
  store.realmName.value = String(r.realm_name ?? '');
  store.demo.value = r.hearth_demo_organization === true;
  store.maxMessageLength.value = Number(r.max_message_length ?? 10000);
  store.maxFileUploadMib.value = Number(r.max_file_upload_size_mib ?? 25);
  store.maxTopicLength.value = Number(r.max_topic_length ?? 60);
  store.serverEmojiDataUrl.value = String(r.server_emoji_data_url ?? '');
  store.userSettings.value = r.user_settings ?? {};

  const users = new Map<number, User>();
  for (const u of [...(r.realm_users ?? []), ...(r.realm_non_active_users ?? []), ...(r.cross_realm_bots ?? [])]) {
    users.set(u.user_id, u);
  }
  store.users.value = users;

  const subs = (r.subscriptions ?? []).map((s) => ({ ...s }));
  store.subscriptions.value = subs;
  const channels = new Map<number, Channel>();
  for (const c of [...(r.streams ?? []), ...(r.never_subscribed ?? []), ...(r.unsubscribed ?? []), ...subs]) {
    channels.set(c.stream_id, c);
  }
  store.channels.value = channels;

  const unread = new Map<number, UnreadPlace>();
  const u = r.unread_msgs;
  for (const s of u?.streams ?? []) for (const id of s.unread_message_ids) unread.set(id, { streamId: s.stream_id, topic: s.topic });
  for (const p of u?.pms ?? []) {
    const peers = p.other_user_id === selfId ? '' : String(p.other_user_id);
    for (const id of p.unread_message_ids) unread.set(id, { peers });
  }
  for (const h of u?.huddles ?? []) {
    const peers = h.user_ids_string.split(',').map(Number).filter((id) => id !== selfId).sort((a, b) => a - b).join(',');
    for (const id of h.unread_message_ids) unread.set(id, { peers });
  }
  store.unread.value = unread;
  store.mentions.value = new Set(u?.mentions ?? []);

  const muted = new Set<string>();
  for (const t of r.user_topics ?? []) {
    if (t.visibility_policy === 1) muted.add(topicKey(t.stream_id, t.topic_name));
  }
  store.mutedTopics.value = muted;

  const presence = new Map<number, number>();
  for (const [id, p] of Object.entries(r.presences ?? {})) {
    presence.set(Number(id), p.active_timestamp);
  }
  store.presence.value = presence;

  const recent = new Map<string, RecentConversation>();
  for (const c of r.recent_private_conversations ?? []) {
    const peers = [...c.user_ids].sort((a, b) => a - b).join(',');
    recent.set(`dm:${peers}`, { place: { peers }, maxId: c.max_message_id, timestamp: 0, senders: [] });
  }
  for (const [id, place] of unread) {
    if ('peers' in place) continue;
    const key = `topic:${topicKey(place.streamId, place.topic)}`;
    if ((recent.get(key)?.maxId ?? 0) < id) recent.set(key, { place, maxId: id, timestamp: 0, senders: [] });
  }
  store.recent.value = recent;
  store.feeds.value = new Map();
  store.typing.value = new Map();
  loadPeopleState(store, r);
  store.channelFolders.value = [...(r.channel_folders ?? [])].map((f): ChannelFolder => ({ ...f })).sort((a, b) => a.order - b.order || a.id - b.id);

  // Compose features: drafts, scheduled messages, reminders, groups (mentions), custom emoji, calls.
  store.drafts.value = new Map((r.drafts ?? []).map((d) => [d.id, d]));
  store.scheduled.value = r.scheduled_messages ?? [];
  store.reminders.value = r.reminders ?? [];
  store.userGroups.value = new Map((r.realm_user_groups ?? []).map((g) => [g.id, g]));
  store.realmEmoji.value = r.realm_emoji ?? {};
  store.videoChatProvider.value = Number(r.realm_video_chat_provider ?? 0);
  store.canMentionManyUsersGroup.value = r.realm_can_mention_many_users_group ?? 0;

  // Message actions: what the organization allows (edit, delete, move, resolve, report, read receipts).
  store.messageRules.value = Object.fromEntries(MESSAGE_RULES.filter((k) => `realm_${k}` in r).map((k) => [k, r[`realm_${k}`]]));
}
