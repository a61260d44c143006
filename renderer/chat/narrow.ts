/**
 * Where the person is: a view of the app (Inbox, Recent conversations, the channel
 * browser, account settings) or a message feed narrowed as Zulip narrows (a channel, a
 * topic, a direct conversation, mentions, starred, everything). Kept in the address bar's
 * hash, so Back/Forward and reloads work and a link can be shared.
 */
import { termsFromPath, termsToPath, type SearchTerm } from './search-terms.js';

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
  | { kind: 'feed' }
  | { kind: 'mentions' }
  | { kind: 'starred' }
  /** `near`: a message to open the feed at (a message link, `/near/ID`). */
  | { kind: 'channel'; streamId: number; near?: number }
  | { kind: 'topic'; streamId: number; topic: string; near?: number }
  /** The other people in the conversation (empty: messages to oneself), ascending. */
  | { kind: 'dm'; userIds: number[]; near?: number }
  /** A search: Zulip narrow terms from the search box (search.ts), `#narrow/channel/general/search/lunch`. */
  | { kind: 'search'; terms: SearchTerm[] };

export const SETTINGS_TABS = ['preferences', 'notifications', 'muted-users', 'topics', 'alert-words'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

export type FeedView = Extract<View, { kind: 'feed' | 'mentions' | 'starred' | 'channel' | 'topic' | 'dm' }>;

export const isFeed = (v: View): v is FeedView => ['feed', 'mentions', 'starred', 'channel', 'topic', 'dm'].includes(v.kind);

const slug = (name: string) => name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '').toLowerCase();

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
    case 'mentions':
      return '#narrow/is/mentioned';
    case 'starred':
      return '#narrow/is/starred';
    case 'channel':
      return `#narrow/channel/${v.streamId}-${slug(channelName(v.streamId))}`;
    case 'topic':
      return `#narrow/channel/${v.streamId}-${slug(channelName(v.streamId))}/topic/${encodeURIComponent(v.topic)}`;
    case 'dm':
      return `#narrow/dm/${v.userIds.join(',') || 'me'}`;
    case 'search':
      return `#narrow/${termsToPath(v.terms)}`;
  }
}

/** The view a hash names (unknown hashes: the Inbox). */
export function viewOf(hash: string): View {
  const near = /\/(?:near|with)\/(\d+)$/.exec(hash);
  if (near) {
    const v = viewOf(hash.slice(0, near.index));
    return v.kind === 'channel' || v.kind === 'topic' || v.kind === 'dm' ? { ...v, near: Number(near[1]) } : v;
  }
  const h = hash.replace(/^#/, '');
  if (h === 'recent' || h === 'channels' || h === 'feed' || h === 'drafts' || h === 'scheduled') return { kind: h };
  if (h === 'settings/account') return { kind: 'account' };
  if (h === 'people') return { kind: 'people' };
  if (h === 'settings') return { kind: 'settings', tab: 'preferences' };
  const tab = SETTINGS_TABS.find((t) => h === `settings/${t}`);
  if (tab) return { kind: 'settings', tab };
  if (h === 'narrow/is/mentioned') return { kind: 'mentions' };
  if (h === 'narrow/is/starred') return { kind: 'starred' };
  let m = /^narrow\/channel\/(\d+)(?:-[^/]*)?(?:\/topic\/(.*))?$/.exec(h);
  if (m) {
    const streamId = Number(m[1]);
    if (m[2] === undefined) return { kind: 'channel', streamId };
    try {
      return { kind: 'topic', streamId, topic: decodeURIComponent(m[2]) };
    } catch {
      return { kind: 'channel', streamId };
    }
  }
  m = /^narrow\/dm\/(me|\d+(?:,\d+)*)$/.exec(h);
  if (m) return { kind: 'dm', userIds: m[1] === 'me' ? [] : m[1]!.split(',').map(Number).sort((a, b) => a - b) };
  const terms = h.startsWith('narrow/') ? termsFromPath(h.slice('narrow/'.length)) : null;
  if (terms?.length) return { kind: 'search', terms };
  return { kind: 'inbox' };
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
    case 'channel':
      return m.type === 'stream' && m.stream_id === v.streamId;
    case 'topic':
      return m.type === 'stream' && m.stream_id === v.streamId && m.subject.toLowerCase() === v.topic.toLowerCase();
    case 'dm':
      return m.type === 'private' && dmPeers(m, selfId).join(',') === v.userIds.join(',');
  }
}
