/**
 * Where the person is: a view of the app (Inbox, Recent conversations, the channel
 * browser, account settings) or a message feed narrowed as Zulip narrows (a channel, a
 * topic, a direct conversation, mentions, starred, everything). Kept in the address bar's
 * hash, so Back/Forward and reloads work and a link can be shared.
 */
import { encodeHashComponent, termsFromPath, termsToPath, type SearchTerm } from '../search/search-terms.js';

export type View =
  | { kind: 'inbox' }
  | { kind: 'recent' }
  | { kind: 'channels' }
  | { kind: 'account' }
  | { kind: 'drafts' }
  | { kind: 'scheduled' }
  | { kind: 'people' }
  /** Personal settings, by Zulip's tab names (`#settings/notifications`). */
  | { kind: 'settings'; tab: SettingsTab }
  /** Organization settings, for owners and administrators (`#organization/users`; `/admin/` opens them). */
  | { kind: 'organization'; section: OrganizationSection }
  | { kind: 'feed' }
  | { kind: 'mentions' }
  | { kind: 'starred' }
  /** Messages of mine others reacted to (Zulip's Reactions view: `has:reaction sender:me`). */
  | { kind: 'reactions' }
  /** `near`: a message to open the feed at (a message link, `/near/ID`). */
  | { kind: 'channel'; streamId: number; near?: number }
  | { kind: 'topic'; streamId: number; topic: string; near?: number }
  /** The other people in the conversation (empty: messages to oneself), ascending. */
  | { kind: 'dm'; userIds: number[]; near?: number }
  /** A search: Zulip narrow terms from the search box (search.ts), `#narrow/channel/general/search/lunch`. */
  | { kind: 'search'; terms: SearchTerm[] };

export const SETTINGS_TABS = ['preferences', 'notifications', 'muted-users', 'topics', 'alert-words'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

/** The organization settings' sections, in their order (`admin/Organization.tsx`). */
export const ORGANIZATION_SECTIONS = ['users', 'channels', 'settings', 'integrations', 'status'] as const;
export type OrganizationSection = (typeof ORGANIZATION_SECTIONS)[number];

/**
 * The organization settings a hash names, or null: `#organization/users` …; `legacy` also reads the
 * hashes the admin pages had at `/admin/` (`#users`, `#settings` …), which the desktop window and
 * bookmarks still open (an empty one, or `#setup_token=…` once set up, is the first section).
 */
export function organizationOf(hash: string, legacy = false): OrganizationSection | null {
  const h = hash.replace(/^#/, '');
  const name = h.startsWith('organization') ? h.slice('organization/'.length) : legacy ? h : null;
  if (name === null) return null;
  return ORGANIZATION_SECTIONS.find((s) => s === name) ?? (legacy || h === 'organization' || h === 'organization/' ? 'users' : null);
}

export type FeedView = Extract<View, { kind: 'feed' | 'mentions' | 'starred' | 'reactions' | 'channel' | 'topic' | 'dm' }>;

export const isFeed = (v: View): v is FeedView => ['feed', 'mentions', 'starred', 'reactions', 'channel', 'topic', 'dm'].includes(v.kind);

/** A channel's `ID-name` as Zulip writes it (spaces as `-`, hash-encoded): the name is for people, the ID is read. */
const channelSlug = (id: number, name: string) => `${id}-${encodeHashComponent(name.replace(/ /g, '-'))}`;

/** The hash for a view; `names` gives channel names for readable links. */
export function hashOf(v: View, channelName: (id: number) => string = () => ''): string {
  if ('near' in v && v.near !== undefined) return `${hashOf({ ...v, near: undefined }, channelName)}/near/${v.near}`;
  switch (v.kind) {
    case 'inbox':
    case 'recent':
    case 'channels':
    case 'feed':
    case 'drafts':
    case 'scheduled':
      return `#${v.kind}`;
    case 'account':
      return '#settings/account';
    case 'people':
      return '#people';
    case 'settings':
      return `#settings/${v.tab}`;
    case 'organization':
      return `#organization/${v.section}`;
    case 'mentions':
      return '#narrow/is/mentioned';
    case 'starred':
      return '#narrow/is/starred';
    case 'reactions':
      return '#narrow/has/reaction/sender/me';
    case 'channel':
      return `#narrow/channel/${channelSlug(v.streamId, channelName(v.streamId))}`;
    case 'topic':
      return `#narrow/channel/${channelSlug(v.streamId, channelName(v.streamId))}/topic/${encodeHashComponent(v.topic)}`;
    case 'dm':
      return `#narrow/dm/${v.userIds.join(',') || 'me'}`;
    case 'search':
      return `#narrow/${termsToPath(v.terms)}`;
  }
}

/** Zulip's names for views this client has too (`#all_messages`, `#recent_topics`, `#streams/…`). */
const PAGE_ALIASES: Record<string, string> = { all_messages: 'feed', recent_topics: 'recent', streams: 'channels' };

/**
 * The view a hash names (unknown hashes: the Inbox): this client's hashes, and every `#narrow/` link
 * Zulip's apps make (search-terms.ts termsFromPath reads them). `selfId`: a direct-message link names
 * everyone in the conversation, oneself too (Zulip's message links do); the view lists the others.
 */
export function viewOf(hash: string, selfId = 0, idOfEmail: (email: string) => number | undefined = () => undefined): View {
  const h = hash.replace(/^#/, '');
  const page = h.split('/')[0]!;
  if (h === 'recent' || h === 'channels' || h === 'feed' || h === 'drafts' || h === 'scheduled' || h === 'inbox') return { kind: h };
  if (Object.hasOwn(PAGE_ALIASES, page)) return { kind: PAGE_ALIASES[page] as 'feed' | 'recent' | 'channels' };
  // Zulip's channel settings (`#channels/subscribed`, `#channels/3/general/general`): the channel browser.
  if (page === 'channels') return { kind: 'channels' };
  if (h === 'settings/account') return { kind: 'account' };
  if (h === 'people') return { kind: 'people' };
  const section = organizationOf(h);
  if (section) return { kind: 'organization', section };
  if (h === 'settings') return { kind: 'settings', tab: 'preferences' };
  const tab = SETTINGS_TABS.find((t) => h === `settings/${t}`);
  if (tab) return { kind: 'settings', tab };
  const terms = h.startsWith('narrow/') ? termsFromPath(h.slice('narrow/'.length)) : null;
  return terms?.length ? viewOfTerms(terms, selfId, idOfEmail) : { kind: 'inbox' };
}

const isId = (s: string) => /^\d+$/.test(s);
/** People named by IDs or (older links) addresses; null when someone is not known. */
function idsOf(s: string, idOfEmail: (email: string) => number | undefined): number[] | null {
  const ids = s.split(',').map((p) => (isId(p.trim()) ? Number(p) : idOfEmail(p.trim())));
  return ids.every((id) => id !== undefined) ? ids : null;
}

/**
 * The view narrow terms name: a channel, a topic or a direct conversation (at a message with
 * `near`/`with`; people by ID or address), Mentions, Starred, the Combined feed; any other narrow is a search, whose
 * results the server finds (it reads IDs, names and addresses alike). `near` and `with` are places,
 * not filters: a search leaves them out.
 */
export function viewOfTerms(terms: SearchTerm[], selfId = 0, idOfEmail: (email: string) => number | undefined = () => undefined): View {
  let near: number | undefined;
  const filters: SearchTerm[] = [];
  for (const t of terms) {
    if ((t.operator === 'near' || t.operator === 'with') && !t.negated && isId(t.operand)) near = Number(t.operand);
    else if (t.operator !== 'near' && t.operator !== 'with') filters.push(t);
  }
  const at = near === undefined ? {} : { near };
  const [a, b] = filters;
  const positive = filters.every((t) => !t.negated);
  if (positive && filters.length === 1 && a!.operator === 'channel' && isId(a!.operand)) return { kind: 'channel', streamId: Number(a!.operand), ...at };
  if (positive && filters.length === 2 && a!.operator === 'channel' && isId(a!.operand) && b!.operator === 'topic') {
    return { kind: 'topic', streamId: Number(a!.operand), topic: b!.operand, ...at };
  }
  if (positive && filters.length === 1 && a!.operator === 'dm') {
    const ids = a!.operand === 'me' ? [] : idsOf(a!.operand, idOfEmail);
    if (ids) return { kind: 'dm', userIds: [...new Set(ids)].filter((id) => id !== selfId).sort((x, y) => x - y), ...at };
  }
  if (positive && filters.length === 1 && a!.operator === 'is' && a!.operand === 'mentioned') return { kind: 'mentions' };
  if (positive && filters.length === 1 && a!.operator === 'is' && a!.operand === 'starred') return { kind: 'starred' };
  const reactionsView = (x: SearchTerm, y: SearchTerm) => x.operator === 'has' && x.operand === 'reaction' && y.operator === 'sender' && (y.operand === 'me' || y.operand === String(selfId));
  if (positive && filters.length === 2 && (reactionsView(a!, b!) || reactionsView(b!, a!))) return { kind: 'reactions' };
  if (positive && filters.length === 1 && a!.operator === 'in' && a!.operand === 'home') return { kind: 'feed' };
  // Only a place (`#narrow/near/ID`): that message, with a link into its conversation.
  if (!filters.length) return near === undefined ? { kind: 'inbox' } : { kind: 'search', terms: [{ operator: 'id', operand: String(near), negated: false }] };
  return { kind: 'search', terms: filters };
}

/** A stable key for caching a feed's messages. */
export const keyOf = (v: FeedView) => hashOf(v, () => '');

/** The API narrow (Zulip's operator/operand dicts). */
export function apiNarrow(v: FeedView, selfId: number): { operator: string; operand: unknown }[] {
  switch (v.kind) {
    case 'feed':
      return [{ operator: 'in', operand: 'home' }];
    case 'mentions':
      return [{ operator: 'is', operand: 'mentioned' }];
    case 'starred':
      return [{ operator: 'is', operand: 'starred' }];
    case 'reactions':
      return [
        { operator: 'has', operand: 'reaction' },
        { operator: 'sender', operand: selfId },
      ];
    case 'channel':
      return [{ operator: 'channel', operand: v.streamId }];
    case 'topic':
      return [
        { operator: 'channel', operand: v.streamId },
        { operator: 'topic', operand: v.topic },
      ];
    case 'dm':
      return [{ operator: 'dm', operand: v.userIds.length ? v.userIds : [selfId] }];
  }
}

export interface MessageLike {
  id: number;
  type: string;
  stream_id?: number;
  subject: string;
  sender_id: number;
  display_recipient: unknown;
  flags: string[];
  reactions?: unknown[];
}

/** The other participants of a direct message, ascending (empty: to oneself). */
export function dmPeers(m: MessageLike, selfId: number): number[] {
  const ids = Array.isArray(m.display_recipient) ? (m.display_recipient as { id: number }[]).map((r) => r.id) : [];
  return ids.filter((id) => id !== selfId).sort((a, b) => a - b);
}

/** Whether a (new) message belongs in a feed; `muted` says whether the combined feed hides it. */
export function matches(v: FeedView, m: MessageLike, selfId: number, muted: (m: MessageLike) => boolean): boolean {
  switch (v.kind) {
    case 'feed':
      return !muted(m);
    case 'mentions':
      return m.flags.some((f) => f === 'mentioned' || f === 'stream_wildcard_mentioned' || f === 'topic_wildcard_mentioned');
    case 'starred':
      return m.flags.includes('starred');
    case 'reactions':
      return m.sender_id === selfId && (m.reactions?.length ?? 0) > 0;
    case 'channel':
      return m.type === 'stream' && m.stream_id === v.streamId;
    case 'topic':
      return m.type === 'stream' && m.stream_id === v.streamId && m.subject.toLowerCase() === v.topic.toLowerCase();
    case 'dm':
      return m.type === 'private' && dmPeers(m, selfId).join(',') === v.userIds.join(',');
  }
}
