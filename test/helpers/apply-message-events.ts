/**
 * Client-side reducer for `message` events, as a Zulip client applies them to
 * `max_message_id`, `unread_msgs`, `recent_private_conversations`,
 * `starred_messages` (channels' `first_message_id` / `is_recently_active`
 * come as `stream` update events).
 */
// biome-ignore lint/suspicious/noExplicitAny: register state as plain JSON, as a client keeps it (compared with a fresh register)
type State = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: events as the JSON a client receives
type Event = Record<string, any>;

const insertSorted = (list: number[], id: number) => {
  if (!list.includes(id)) list.push(id);
  list.sort((a, b) => a - b);
};

/** Whether a channel topic is muted for the client (user topics over channel muting). */
export function isMutedIn(state: State, streamId: number, topic: string): boolean {
  const t = (state.user_topics ?? []).find((x: Event) => x.stream_id === streamId && x.topic_name.toLowerCase() === String(topic).toLowerCase());
  if (t?.visibility_policy === 1) return true;
  if (t?.visibility_policy === 2 || t?.visibility_policy === 3) return false;
  return (state.subscriptions ?? []).some((s: Event) => s.stream_id === streamId && (s.is_muted || s.in_home_view === false));
}

function addUnread(state: State, e: Event, userId: number | undefined): void {
  const u = state.unread_msgs;
  const m = e.message;
  if (!u || e.flags.includes('read')) return;
  const muted = m.type === 'stream' && isMutedIn(state, m.stream_id, m.subject);
  if (e.flags.includes('mentioned') || (e.flags.includes('wildcard_mentioned') && !muted)) insertSorted(u.mentions, m.id);
  if (m.type === 'stream') {
    let s = u.streams.find((x: Event) => x.stream_id === m.stream_id && x.topic === m.subject);
    if (!s) {
      s = { stream_id: m.stream_id, topic: m.subject, unread_message_ids: [] };
      u.streams.push(s);
      u.streams.sort((a: Event, b: Event) => a.stream_id - b.stream_id || (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0));
    }
    insertSorted(s.unread_message_ids, m.id);
    if (!muted) u.count++;
    return;
  }
  u.count++;
  const ids: number[] = m.display_recipient.map((r: Event) => r.id).sort((a: number, b: number) => a - b);
  if (ids.length <= 2) {
    const other = ids.find((x) => x !== userId) ?? userId;
    let p = u.pms.find((x: Event) => x.other_user_id === other);
    if (!p) {
      p = { other_user_id: other, sender_id: other, unread_message_ids: [] };
      u.pms.push(p);
      u.pms.sort((a: Event, b: Event) => a.other_user_id - b.other_user_id);
    }
    insertSorted(p.unread_message_ids, m.id);
  } else {
    const key = ids.join(',');
    let h = u.huddles.find((x: Event) => x.user_ids_string === key);
    if (!h) {
      h = { user_ids_string: key, unread_message_ids: [] };
      u.huddles.push(h);
      u.huddles.sort((a: Event, b: Event) => (a.user_ids_string < b.user_ids_string ? -1 : 1));
    }
    insertSorted(h.unread_message_ids, m.id);
  }
}

export function applyMessageEvent(state: State, e: Event, userId: number | undefined): void {
  const m = e.message;
  if (typeof state.max_message_id === 'number') state.max_message_id = Math.max(state.max_message_id, m.id);
  addUnread(state, e, userId);
  if (m.type === 'private' && state.recent_private_conversations) {
    const others = m.display_recipient
      .map((r: Event) => r.id)
      .filter((x: number) => x !== userId)
      .sort((a: number, b: number) => a - b);
    const list: Event[] = state.recent_private_conversations;
    const key = others.join(',');
    const found = list.find((c) => c.user_ids.join(',') === key);
    if (found) found.max_message_id = Math.max(found.max_message_id, m.id);
    else list.push({ max_message_id: m.id, user_ids: others });
    list.sort((a, b) => b.max_message_id - a.max_message_id);
  }
  if (state.starred_messages && e.flags.includes('starred')) insertSorted(state.starred_messages, m.id);
}

/**
 * `update_message_flags`, as a Zulip client applies it: `read` add drops the
 * messages from `unread_msgs` (all of them with `all`), `read` remove puts them
 * back from `message_details`, `starred` keeps `starred_messages`.
 */
export function applyFlagsEvent(state: State, e: Event, userId: number | undefined): void {
  if (e.flag === 'starred' && state.starred_messages) {
    if (e.op === 'add') for (const id of e.messages) insertSorted(state.starred_messages, id);
    else state.starred_messages = state.starred_messages.filter((id: number) => !e.messages.includes(id));
    return;
  }
  if (e.flag !== 'read' || !state.unread_msgs) return;
  const u = state.unread_msgs;
  if (e.op === 'add') {
    if (e.all) {
      Object.assign(u, { count: 0, pms: [], streams: [], huddles: [], mentions: [] });
      return;
    }
    const gone = new Set<number>(e.messages);
    for (const s of u.streams) {
      const before = s.unread_message_ids.length;
      s.unread_message_ids = s.unread_message_ids.filter((id: number) => !gone.has(id));
      if (!isMutedIn(state, s.stream_id, s.topic)) u.count -= before - s.unread_message_ids.length;
    }
    for (const key of ['pms', 'huddles']) {
      for (const p of u[key]) {
        const before = p.unread_message_ids.length;
        p.unread_message_ids = p.unread_message_ids.filter((id: number) => !gone.has(id));
        u.count -= before - p.unread_message_ids.length;
      }
    }
    u.streams = u.streams.filter((s: Event) => s.unread_message_ids.length);
    u.pms = u.pms.filter((s: Event) => s.unread_message_ids.length);
    u.huddles = u.huddles.filter((s: Event) => s.unread_message_ids.length);
    u.mentions = u.mentions.filter((id: number) => !gone.has(id));
    return;
  }
  for (const [key, d] of Object.entries(e.message_details as Record<string, Event>)) {
    const id = Number(key);
    const message =
      d.type === 'stream'
        ? { id, type: 'stream', stream_id: d.stream_id, subject: d.topic }
        : { id, type: 'private', display_recipient: [...d.user_ids, userId].map((x) => ({ id: x })) };
    addUnread(state, { message, flags: d.mentioned ? ['mentioned'] : [] }, userId);
  }
}

/**
 * `delete_message` (either form): the messages leave `unread_msgs` and
 * `starred_messages`. (Zulip's apply_event also recomputes `max_message_id` and
 * `recent_private_conversations` from the database, which a client cannot:
 * tests of deletions leave those sections out.)
 */
export function applyDeleteEvent(state: State, e: Event): void {
  const ids: number[] = e.message_ids ?? [e.message_id];
  if (state.starred_messages) state.starred_messages = state.starred_messages.filter((id: number) => !ids.includes(id));
  if (state.unread_msgs) {
    const unread = [
      ...state.unread_msgs.streams.flatMap((s: Event) => s.unread_message_ids),
      ...state.unread_msgs.pms.flatMap((s: Event) => s.unread_message_ids),
      ...state.unread_msgs.huddles.flatMap((s: Event) => s.unread_message_ids),
    ];
    const gone = ids.filter((id) => unread.includes(id));
    if (gone.length) applyFlagsEvent(state, { flag: 'read', op: 'add', messages: gone, all: false }, undefined);
  }
}

/**
 * `update_message`, as Zulip's apply_event keeps `unread_msgs`: moved unread
 * messages change channel/topic (and count if the channel's muting differs);
 * a content edit updates the message's place among the unread mentions.
 */
export function applyUpdateMessageEvent(state: State, e: Event): void {
  const u = state.unread_msgs;
  if (!u) return;
  if ('rendered_content' in e) {
    const unread = u.streams.some((s: Event) => s.unread_message_ids.includes(e.message_id)) ||
      u.pms.some((s: Event) => s.unread_message_ids.includes(e.message_id)) ||
      u.huddles.some((s: Event) => s.unread_message_ids.includes(e.message_id));
    u.mentions = u.mentions.filter((id: number) => id !== e.message_id);
    const flags: string[] = e.flags ?? [];
    const entry = u.streams.find((s: Event) => s.unread_message_ids.includes(e.message_id));
    const inMuted = entry !== undefined && isMutedIn(state, entry.stream_id, entry.topic);
    if (unread && (flags.includes('mentioned') || (flags.includes('wildcard_mentioned') && !inMuted))) insertSorted(u.mentions, e.message_id);
  }
  if (e.new_stream_id === undefined && e.subject === undefined) return;
  const ids = new Set<number>(e.message_ids);
  const toStream = e.new_stream_id ?? e.stream_id;
  const moving: { id: number; topic: string }[] = [];
  for (const s of u.streams) {
    if (s.stream_id !== e.stream_id) continue;
    for (const id of s.unread_message_ids) if (ids.has(id)) moving.push({ id, topic: e.subject ?? s.topic });
    s.unread_message_ids = s.unread_message_ids.filter((id: number) => !ids.has(id));
  }
  u.streams = u.streams.filter((s: Event) => s.unread_message_ids.length);
  if (!moving.length) return;
  for (const { id, topic } of moving) {
    let s = u.streams.find((x: Event) => x.stream_id === toStream && x.topic === topic);
    if (!s) {
      s = { stream_id: toStream, topic, unread_message_ids: [] };
      u.streams.push(s);
      u.streams.sort((a: Event, b: Event) => a.stream_id - b.stream_id || (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0));
    }
    insertSorted(s.unread_message_ids, id);
  }
  recountUnread(state);
}

/** Recounts `unread_msgs.count` after the user mutes or unmutes a channel (what a client's unread model does). */
export function recountUnread(state: State): void {
  const u = state.unread_msgs;
  if (!u) return;
  u.count =
    u.streams.reduce((n: number, s: Event) => n + (isMutedIn(state, s.stream_id, s.topic) ? 0 : s.unread_message_ids.length), 0) +
    u.pms.reduce((n: number, s: Event) => n + s.unread_message_ids.length, 0) +
    u.huddles.reduce((n: number, s: Event) => n + s.unread_message_ids.length, 0);
}
