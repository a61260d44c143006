/**
 * "Next unread topic" (Zulip's N) and "next unread direct message" (P): the next conversation
 * with unread messages after the open one, in the sidebar's order (pinned channels first,
 * then by name; a channel's topics newest first), leaving out muted channels and topics.
 * Counted from the store's unread messages, so it agrees with every badge on the page.
 */
import { announce } from '../ui/Toast.js';
import type { View } from '../store/narrow.js';
import { go, view } from '../store/router.js';
import { isTopicMuted, store, topicsOf, unreadCounts } from '../store/state.js';

type Topic = { streamId: number; topic: string };

/** Every unread, unmuted topic, in the sidebar's order. */
export function unreadTopics(): Topic[] {
  const subs = [...store.subscriptions.value]
    .filter((s) => !s.is_muted)
    .sort((a, b) => Number(b.pin_to_top) - Number(a.pin_to_top) || a.name.localeCompare(b.name));
  const out: Topic[] = [];
  for (const s of subs) {
    for (const t of topicsOf(s.stream_id)) if (t.unread > 0 && !isTopicMuted(s.stream_id, t.topic)) out.push({ streamId: s.stream_id, topic: t.topic });
  }
  return out;
}

/** The topic `n` goes to from a view: the next after the open topic (or in the open channel), wrapping around. */
export function nextUnreadTopic(from: View = view.value): Topic | null {
  const all = unreadTopics();
  if (from.kind === 'topic') {
    const at = all.findIndex((t) => t.streamId === from.streamId && t.topic.toLowerCase() === from.topic.toLowerCase());
    const rest = at < 0 ? all : [...all.slice(at + 1), ...all.slice(0, at)];
    // Not the open topic itself; after it in its channel, or in the channels that follow.
    const inChannel = at < 0 ? rest.find((t) => t.streamId === from.streamId) : undefined;
    return inChannel ?? rest[0] ?? null;
  }
  if (from.kind === 'channel') return all.find((t) => t.streamId === from.streamId) ?? all[0] ?? null;
  return all[0] ?? null;
}

/** The next direct conversation with unread messages (Zulip's P). */
export function nextUnreadDm(from: View = view.value): number[] | null {
  const open = from.kind === 'dm' ? from.userIds.join(',') : null;
  const list = [...unreadCounts.value.dms.keys()].filter((p) => p !== open).sort();
  const peers = list.find((p) => open === null || p > open) ?? list[0];
  return peers === undefined ? null : peers ? peers.split(',').map(Number) : [];
}

export function goNextUnreadTopic(): void {
  const t = nextUnreadTopic();
  if (t) go({ kind: 'topic', streamId: t.streamId, topic: t.topic });
  else announce('There are no more unread topics.');
}

export function goNextUnreadDm(): void {
  const ids = nextUnreadDm();
  if (ids) go({ kind: 'dm', userIds: ids });
  else announce('There are no more unread direct messages.');
}

/** The "Next unread topic" button of the Inbox and feed headers (the same as N). */
export function NextUnreadButton() {
  const next = nextUnreadTopic();
  return (
    <button type="button" class="next-unread" onClick={goNextUnreadTopic} disabled={!next} title="Keyboard: N">
      Next unread topic
    </button>
  );
}
