/**
 * What the message box suggests while typing, as Zulip's composebox typeahead does:
 * `@` people, groups and wildcards (`@_` for silent mentions), `#` channels, `#channel>`
 * topics of that channel, `:` + two letters emoji. `tokenAt` finds what is being typed at
 * the cursor; `suggest` lists what could replace it (the Markdown to insert).
 */
import { signal } from '@preact/signals';
import { get } from '../store/api.js';
import { unicodeEmoji, unicodeOf } from '../messages/emoji-data.js';
import { keyOf } from '../store/narrow.js';
import { store, topicLabel, topicsOf, type GroupSettingValue } from '../store/state.js';
import { once } from '../store/once.js';

export type TokenKind = 'mention' | 'channel' | 'topic' | 'emoji';

export interface Token {
  kind: TokenKind;
  /** Where the replaced text starts and ends in the message. */
  start: number;
  end: number;
  query: string;
  silent?: boolean;
  streamId?: number;
}

export interface Suggestion {
  key: string;
  label: string;
  detail?: string;
  /** An emoji glyph, an icon, or an image (avatar, custom emoji). */
  glyph?: string;
  icon?: 'wildcard' | 'group' | 'channel' | 'private' | 'topic';
  image?: string;
  insert: string;
}

/** Where the message goes, for which wildcard mentions make sense. */
export type ComposeContext = { kind: 'channel'; streamId: number; topic: string } | { kind: 'dm' } | null;

const MAX = 8;
/** Zulip's WILDCARD_MENTION_THRESHOLD. */
const WILDCARD_THRESHOLD = 15;

const lower = (s: string) => s.toLowerCase();

/** The token being typed just before `caret`, or null (also inside a ``` code block). */
export function tokenAt(text: string, caret: number): Token | null {
  const before = text.slice(0, caret);
  if ((before.match(/^```/gm)?.length ?? 0) % 2 === 1) return null;
  let m = /(^|[\s(])#\*\*([^\n*>]+?)(?:\*\* ?)?>([^\n*]{0,60})$/.exec(before) ?? /(^|[\s(])#([^\n#*>]{1,60})>([^\n*]{0,60})$/.exec(before);
  if (m) {
    const name = lower(m[2]!.trim());
    const channel = [...store.channels.value.values()].find((c) => lower(c.name) === name);
    if (channel) return { kind: 'topic', start: m.index + m[1]!.length, end: caret, query: m[3]!, streamId: channel.stream_id };
  }
  m = /(^|[\s(])#(?:\*\*)?([^\n#*>]{0,40})$/.exec(before);
  if (m) return { kind: 'channel', start: m.index + m[1]!.length, end: caret, query: m[2]! };
  m = /(^|[\s(])@(_?)(?:\*\*?)?([^\n@*]{0,40})$/.exec(before);
  if (m) return { kind: 'mention', start: m.index + m[1]!.length, end: caret, query: m[3]!, silent: m[2] === '_' };
  m = /(^|[\s(]):([\w+-]{2,30})$/.exec(before);
  if (m) return { kind: 'emoji', start: m.index + m[1]!.length, end: caret, query: m[2]! };
  return null;
}

/** How well `name` matches `q`: 0 starts with it, 1 a word starts with it, 2 contains it, -1 no match. */
function rank(name: string, q: string): number {
  const n = lower(name);
  if (!q) return 1;
  if (n.startsWith(q)) return 0;
  if (n.split(/[\s_\-.]+/).some((w) => w.startsWith(q))) return 1;
  return n.includes(q) ? 2 : -1;
}

function ranked<T>(items: T[], nameOf: (x: T) => string, q: string, also?: (x: T) => boolean): T[] {
  const out: { x: T; r: number }[] = [];
  for (const x of items) {
    let r = rank(nameOf(x), q);
    if (r < 0 && also?.(x)) r = 3;
    if (r >= 0) out.push({ x, r });
  }
  return out.sort((a, b) => a.r - b.r || nameOf(a.x).localeCompare(nameOf(b.x))).map((o) => o.x);
}

/** Whether a user is in a group, its subgroups included. */
function inGroup(groupId: number, userId: number, seen = new Set<number>()): boolean {
  if (seen.has(groupId)) return false;
  seen.add(groupId);
  const g = store.userGroups.value.get(groupId);
  return !!g && (g.members.includes(userId) || g.direct_subgroup_ids.some((id) => inGroup(id, userId, seen)));
}

/** Whether a user holds a group setting (a group ID or an anonymous group). */
export function holdsSetting(value: GroupSettingValue, userId: number): boolean {
  if (typeof value === 'number') return inGroup(value, userId);
  return value.direct_members.includes(userId) || value.direct_subgroups.some((id) => inGroup(id, userId));
}

/**
 * Wildcards as Zulip offers them: in a direct message `all` and `everyone`; in a channel
 * `all`, `everyone`, `channel`, `topic` when the sender may notify the channel (in
 * can_mention_many_users_group, or at most 15 subscribers), else `topic` when the topic's
 * loaded history shows at most 15 participants.
 */
function wildcards(ctx: ComposeContext): { name: string; detail: string }[] {
  if (!ctx) return [];
  if (ctx.kind === 'dm') return ['all', 'everyone'].map((name) => ({ name, detail: 'Notify recipients' }));
  const self = store.selfId.value;
  const subs = (store.channels.value.get(ctx.streamId) as { subscriber_count?: number } | undefined)?.subscriber_count ?? Infinity;
  const many = holdsSetting(store.canMentionManyUsersGroup.value, self);
  const topic = { name: 'topic', detail: 'Notify topic' };
  if (many || subs <= WILDCARD_THRESHOLD) return [...['all', 'everyone', 'channel'].map((name) => ({ name, detail: 'Notify channel' })), topic];
  const feed = store.feeds.value.get(keyOf({ kind: 'topic', streamId: ctx.streamId, topic: ctx.topic }));
  if (feed?.foundOldest && new Set(feed.messages.map((m) => m.sender_id)).size <= WILDCARD_THRESHOLD) return [topic];
  return [];
}

function mentions(t: Token, ctx: ComposeContext): Suggestion[] {
  const q = lower(t.query.trim());
  const self = store.selfId.value;
  const mark = t.silent ? '@_' : '@';
  const out: Suggestion[] = [];
  if (!t.silent) {
    for (const w of wildcards(ctx)) {
      if (w.name.startsWith(q)) out.push({ key: `w:${w.name}`, label: w.name, detail: w.detail, icon: 'wildcard', insert: `@**${w.name}** ` });
    }
  }
  // Zulip offers the groups the sender may mention; system groups are not offered.
  const groups = ranked(
    [...store.userGroups.value.values()].filter((g) => !g.is_system_group && !g.deactivated && holdsSetting(g.can_mention_group, self)),
    (g) => g.name,
    q,
  );
  // Active people and bots; not the system bots (Notification Bot...), as in Zulip.
  const active = [...store.users.value.values()].filter((u) => u.is_active && !(u as { is_system_bot?: boolean }).is_system_bot);
  const counts = new Map<string, number>();
  for (const u of active) counts.set(lower(u.full_name), (counts.get(lower(u.full_name)) ?? 0) + 1);
  const people = ranked(active, (u) => u.full_name, q, (u) => lower(u.email).startsWith(q));
  // Room for a couple of groups when people fill the list.
  for (const u of people.slice(0, MAX - out.length - Math.min(2, groups.length))) {
    const dup = (counts.get(lower(u.full_name)) ?? 0) > 1;
    out.push({
      key: `u:${u.user_id}`,
      label: u.full_name,
      detail: u.email,
      image: u.avatar_url ?? `/avatar/${u.user_id}`,
      insert: `${mark}**${u.full_name}${dup ? `|${u.user_id}` : ''}** `,
    });
  }
  for (const g of groups.slice(0, MAX - out.length)) {
    out.push({ key: `g:${g.id}`, label: g.name, detail: g.description || 'User group', icon: 'group', insert: `${mark}*${g.name}* ` });
  }
  return out.slice(0, MAX);
}

function channels(t: Token): Suggestion[] {
  const q = lower(t.query.trim());
  const subscribed = new Set(store.subscriptions.value.map((s) => s.stream_id));
  const all = [...store.channels.value.values()].filter((c) => !c.is_archived);
  return ranked(all, (c) => c.name, q)
    .sort((a, b) => Number(subscribed.has(b.stream_id)) - Number(subscribed.has(a.stream_id)))
    .slice(0, MAX)
    .map((c) => ({ key: `c:${c.stream_id}`, label: c.name, detail: c.description, icon: c.invite_only ? 'private' : 'channel', insert: `#**${c.name}** ` }));
}

/** Topics fetched per channel (`GET /users/me/{id}/topics`), once each. */
export const topicCache = signal(new Map<number, string[]>());
const asked = new Set<number>();

function loadTopics(streamId: number): void {
  if (asked.has(streamId)) return;
  asked.add(streamId);
  get<{ topics: { name: string }[] }>(`/users/me/${streamId}/topics`)
    .then((r) => (topicCache.value = new Map(topicCache.value).set(streamId, r.topics.map((x) => x.name))))
    .catch(() => asked.delete(streamId));
}

function topics(t: Token): Suggestion[] {
  const id = t.streamId!;
  loadTopics(id);
  const names = new Map<string, string>();
  for (const x of [...topicsOf(id).map((x) => x.topic), ...(topicCache.value.get(id) ?? [])]) if (!names.has(lower(x))) names.set(lower(x), x);
  const channel = store.channels.value.get(id)?.name ?? '';
  return ranked([...names.values()], topicLabel, lower(t.query.trim()))
    .slice(0, MAX)
    .map((x) => ({ key: `t:${x}`, label: topicLabel(x), detail: `#${channel}`, icon: 'topic', insert: `#**${channel}>${x}** ` }));
}

/** Emoji names from the server's emoji data (emoji-data.ts fetches it once, on first use). */
export const emojiNames = signal<{ name: string; code: string }[] | null>(null);
/** Asks for the emoji data once (again after a failure). */
const loadEmoji = once(() =>
  unicodeEmoji().then((all) => {
    emojiNames.value = all.flatMap((e) => e.names.map((name) => ({ name, code: e.code })));
  }),
);

function emoji(t: Token): Suggestion[] {
  loadEmoji();
  const q = lower(t.query);
  const custom = Object.values(store.realmEmoji.value)
    .filter((e) => !e.deactivated)
    .map((e) => ({ name: e.name, code: '', image: e.source_url }));
  const all: { name: string; code: string; image?: string }[] = [...custom, ...(emojiNames.value ?? [])];
  return ranked(all, (e) => e.name, q)
    .slice(0, MAX)
    .map((e) => ({ key: `e:${e.name}`, label: `:${e.name}:`, glyph: e.code ? unicodeOf(e.code) : undefined, image: e.image, insert: `:${e.name}: ` }));
}

export function suggest(t: Token, ctx: ComposeContext): Suggestion[] {
  switch (t.kind) {
    case 'mention':
      return mentions(t, ctx);
    case 'channel':
      return channels(t);
    case 'topic':
      return topics(t);
    case 'emoji':
      return emoji(t);
  }
}
