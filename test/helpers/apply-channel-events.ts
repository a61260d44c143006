/**
 * Client-side reducers for the channels area (`stream`, `subscription`,
 * `default_streams`, `channel_folder`), as a Zulip client applies them to
 * `subscriptions` / `unsubscribed` / `never_subscribed`, `streams`,
 * `realm_default_streams` and `channel_folders`. `subscriber_count` is kept
 * from peer events, as the spec asks of clients.
 */
// biome-ignore lint/suspicious/noExplicitAny: register state as plain JSON, as a client keeps it (compared with a fresh register)
type State = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: events as the JSON a client receives
type Event = Record<string, any>;

export interface ChannelReducerOptions {
  /** The register's include_subscribers: entries created from events then carry `subscribers`. */
  includeSubscribers?: boolean;
  /** include_subscribers=partial: channels of 250+ subscribers keep them as `partial_subscribers`. */
  partial?: boolean;
  /** The registered user (their own ID leaves `subscribers` when they unsubscribe). */
  userId?: number;
}

const LISTS = ['subscriptions', 'unsubscribed', 'never_subscribed'] as const;
const byName = (a: Event, b: Event) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function sortAll(state: State): void {
  for (const key of [...LISTS, 'streams']) if (Array.isArray(state[key])) state[key].sort(byName);
}

/** Every channel entry in the state: the three subscription lists and `streams`. */
function entries(state: State): Event[] {
  return [...LISTS, 'streams'].flatMap((key) => (Array.isArray(state[key]) ? state[key] : []));
}

function applyStream(state: State, e: Event, opts: ChannelReducerOptions): void {
  if (e.op === 'create') {
    for (const s of e.streams) {
      if (state.never_subscribed) {
        const entry = structuredClone(s);
        if (opts.includeSubscribers) entry.subscribers = [];
        state.never_subscribed.push(entry);
      }
      if (state.streams) state.streams.push(structuredClone(s));
    }
  } else if (e.op === 'delete') {
    const gone = new Set<number>(e.stream_ids);
    for (const key of [...LISTS, 'streams']) {
      if (Array.isArray(state[key])) state[key] = state[key].filter((s: Event) => !gone.has(s.stream_id));
    }
  } else if (e.op === 'update') {
    for (const obj of entries(state)) {
      if (obj.stream_id !== e.stream_id) continue;
      obj[e.property] = e.value;
      if (e.property === 'description') obj.rendered_description = e.rendered_description;
      if (e.history_public_to_subscribers !== undefined) obj.history_public_to_subscribers = e.history_public_to_subscribers;
      if (e.is_web_public !== undefined) obj.is_web_public = e.is_web_public;
    }
  } else throw new Error(`unknown stream op ${e.op}`);
  sortAll(state);
}

/** peer_add / peer_remove: subscriber lists where tracked, and subscriber_count everywhere. */
function applyPeers(state: State, e: Event, sign: 1 | -1): void {
  const streams = new Set<number>(e.stream_ids);
  const ids: number[] = e.user_ids;
  for (const obj of entries(state)) {
    if (!streams.has(obj.stream_id)) continue;
    const key = 'subscribers' in obj ? 'subscribers' : 'partial_subscribers' in obj ? 'partial_subscribers' : null;
    if (key === 'subscribers') {
      const before = new Set<number>(obj.subscribers);
      const after = new Set(before);
      for (const id of ids) if (sign > 0) after.add(id);
      else after.delete(id);
      obj.subscribers = [...after].sort((a, b) => a - b);
      obj.subscriber_count += after.size - before.size;
    } else {
      if (key) {
        const set = new Set<number>(obj[key]);
        for (const id of ids) if (sign > 0) set.add(id);
        else set.delete(id);
        obj[key] = [...set].sort((a, b) => a - b);
      }
      obj.subscriber_count += sign * ids.length;
    }
  }
}

function applySubscription(state: State, e: Event, opts: ChannelReducerOptions): void {
  if (!state.subscriptions) return;
  if (e.op === 'add') {
    const added = new Set<number>(e.subscriptions.map((s: Event) => s.stream_id));
    for (const sub of e.subscriptions) {
      if (state.subscriptions.some((s: Event) => s.stream_id === sub.stream_id)) continue;
      const entry = structuredClone(sub);
      if (!opts.includeSubscribers) delete entry.subscribers;
      else if (opts.partial && entry.subscribers?.length >= 250) {
        entry.partial_subscribers = entry.subscribers;
        delete entry.subscribers;
      }
      state.subscriptions.push(entry);
    }
    // The channel object in the event is current: `streams` takes its count from it.
    for (const s of state.streams ?? []) {
      const sub = e.subscriptions.find((x: Event) => x.stream_id === s.stream_id);
      if (sub) s.subscriber_count = sub.subscriber_count;
    }
    state.unsubscribed = state.unsubscribed.filter((s: Event) => !added.has(s.stream_id));
    state.never_subscribed = state.never_subscribed.filter((s: Event) => !added.has(s.stream_id));
  } else if (e.op === 'remove') {
    const removed = new Set<number>(e.subscriptions.map((s: Event) => s.stream_id));
    const moved = state.subscriptions.filter((s: Event) => removed.has(s.stream_id));
    for (const sub of moved) {
      if (Array.isArray(sub.subscribers)) sub.subscribers = sub.subscribers.filter((id: number) => id !== opts.userId);
      sub.subscriber_count -= 1;
    }
    for (const s of state.streams ?? []) if (removed.has(s.stream_id)) s.subscriber_count -= 1;
    state.subscriptions = state.subscriptions.filter((s: Event) => !removed.has(s.stream_id));
    state.unsubscribed.push(...moved);
  } else if (e.op === 'update') {
    const sub = state.subscriptions.find((s: Event) => s.stream_id === e.stream_id);
    if (sub) sub[e.property] = e.value;
  } else if (e.op === 'peer_add') applyPeers(state, e, 1);
  else if (e.op === 'peer_remove') applyPeers(state, e, -1);
  else throw new Error(`unknown subscription op ${e.op}`);
  sortAll(state);
}

function applyChannelFolder(state: State, e: Event): void {
  if (!state.channel_folders) return;
  const folders: Event[] = state.channel_folders;
  if (e.op === 'add') folders.push(e.channel_folder);
  else if (e.op === 'update') Object.assign(folders.find((f) => f.id === e.channel_folder_id) ?? {}, e.data);
  else if (e.op === 'reorder') {
    e.order.forEach((id: number, i: number) => {
      const f = folders.find((x) => x.id === id);
      if (f) f.order = i;
    });
  } else throw new Error(`unknown channel_folder op ${e.op}`);
  folders.sort((a, b) => a.order - b.order || a.id - b.id);
}

/** Applies one channels-area event; returns false for event types of other areas. */
export function applyChannelEvent(state: State, e: Event, opts: ChannelReducerOptions): boolean {
  switch (e.type) {
    case 'stream':
      applyStream(state, e, opts);
      return true;
    case 'subscription':
      applySubscription(state, e, opts);
      return true;
    case 'default_streams':
      if (state.realm_default_streams) state.realm_default_streams = e.default_streams;
      return true;
    case 'channel_folder':
      applyChannelFolder(state, e);
      return true;
    default:
      return false;
  }
}
