/**
 * The appliers of the compose features' events (appliers.ts holds the table): drafts, scheduled
 * messages, reminders, user groups, custom emoji, and the organization's call provider and
 * who may use wildcard mentions.
 */
import type { ClientEventOf as Of } from '../../../server/protocol/events.js';
import type { Store } from './state.js';

const soonest = <T extends { scheduled_delivery_timestamp: number }>(list: T[]) =>
  [...list].sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp);

export function onDrafts(store: Store, e: Of<'drafts'>): void {
  const next = new Map(store.drafts.value);
  if (e.op === 'add') for (const d of e.drafts) next.set(d.id, d);
  else if (e.op === 'update') next.set(e.draft.id, e.draft);
  else if (e.op === 'remove') next.delete(e.draft_id);
  store.drafts.value = next;
}

export function onScheduled(store: Store, e: Of<'scheduled_messages'>): void {
  const list = store.scheduled.value;
  if (e.op === 'add') {
    const added = e.scheduled_messages;
    const ids = new Set(added.map((m) => m.scheduled_message_id));
    store.scheduled.value = soonest([...list.filter((m) => !ids.has(m.scheduled_message_id)), ...added]);
  } else if (e.op === 'update') {
    const m = e.scheduled_message;
    store.scheduled.value = soonest(list.map((x) => (x.scheduled_message_id === m.scheduled_message_id ? { ...x, ...m } : x)));
  } else if (e.op === 'remove') {
    store.scheduled.value = list.filter((m) => m.scheduled_message_id !== e.scheduled_message_id);
  }
}

export function onReminders(store: Store, e: Of<'reminders'>): void {
  const list = store.reminders.value;
  if (e.op === 'add') {
    const added = e.reminders;
    const ids = new Set(added.map((r) => r.reminder_id));
    store.reminders.value = soonest([...list.filter((r) => !ids.has(r.reminder_id)), ...added]);
  } else if (e.op === 'remove') {
    store.reminders.value = list.filter((r) => r.reminder_id !== e.reminder_id);
  }
}

export function onUserGroup(store: Store, e: Of<'user_group'>): void {
  const next = new Map(store.userGroups.value);
  const g = 'group_id' in e ? next.get(e.group_id) : undefined;
  const union = (a: number[], b: number[]) => [...new Set([...a, ...b])];
  const minus = (a: number[], b: number[]) => a.filter((x) => !b.includes(x));
  switch (e.op) {
    case 'add':
      next.set(e.group.id, e.group);
      break;
    case 'remove':
      next.delete(e.group_id);
      break;
    case 'update':
      if (g) next.set(g.id, { ...g, ...e.data });
      break;
    case 'add_members':
      if (g) next.set(g.id, { ...g, members: union(g.members, e.user_ids) });
      break;
    case 'remove_members':
      if (g) next.set(g.id, { ...g, members: minus(g.members, e.user_ids) });
      break;
    case 'add_subgroups':
      if (g) next.set(g.id, { ...g, direct_subgroup_ids: union(g.direct_subgroup_ids, e.direct_subgroup_ids) });
      break;
    case 'remove_subgroups':
      if (g) next.set(g.id, { ...g, direct_subgroup_ids: minus(g.direct_subgroup_ids, e.direct_subgroup_ids) });
      break;
  }
  store.userGroups.value = next;
}

/** The realm settings the compose box cares about (`update` and `update_dict`). */
export function onComposeRealm(store: Store, e: Of<'realm'>): void {
  const data: Record<string, unknown> = e.op === 'update' ? { [e.property]: e.value } : e.op === 'update_dict' ? (e.data ?? {}) : {};
  if ('video_chat_provider' in data) store.videoChatProvider.value = Number(data.video_chat_provider);
  if ('can_mention_many_users_group' in data) store.canMentionManyUsersGroup.value = data.can_mention_many_users_group as number;
}
