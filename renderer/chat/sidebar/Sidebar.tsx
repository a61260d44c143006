/**
 * The left sidebar: views (Inbox, Recent conversations, Combined feed, Mentions, Starred),
 * subscribed channels with unread counts, grouped under the organization's channel folders
 * (sidebar-state.ts), with the open channel's topics (SidebarTopics.tsx), and direct-message
 * conversations; a filter box narrows all of them. On phones it is a drawer.
 */
import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { go, href, view } from '../store/router.js';
import { store, unreadCounts, userName, type Subscription } from '../store/state.js';
import type { View } from '../store/narrow.js';
import { channelSections, collapsedSections, toggleSection } from './sidebar-state.js';
import { SidebarTopics, zoomedChannel, zoomOut } from './SidebarTopics.js';

const Count = ({ n, label }: { n: number; label: string }) =>
  n > 0 ? (
    <span class="count" aria-label={`${n} unread ${label}`}>
      {n}
    </span>
  ) : null;

function Item({ to, label, count, current, extra, muted }: { to: View; label: string; count?: number; current: boolean; extra?: preact.ComponentChildren; muted?: boolean }) {
  return (
    <li class={muted ? 'muted-channel' : undefined}>
      <a href={href(to)} aria-current={current ? 'page' : undefined} class={current ? 'current' : undefined}>
        {extra}
        <span class="label">{label}</span>
        <Count n={count ?? 0} label="messages" />
      </a>
    </li>
  );
}

/** The same place (a message link, `/near/ID`, is still its conversation). */
const same = (a: View, b: View) => href({ ...a, near: undefined } as View) === href(b);

export function Sidebar({ onNavigate }: { onNavigate: () => void }) {
  const [filter, setFilter] = useState('');
  const q = filter.trim().toLowerCase();
  const counts = unreadCounts.value;
  const current = view.value;
  const openChannel = current.kind === 'channel' || current.kind === 'topic' ? current.streamId : null;
  const activeTopic = current.kind === 'topic' ? current.topic : null;
  // "More topics" lists one channel's topics in place of the channel list, until the view leaves that channel.
  const zoomed = zoomedChannel.value !== null && zoomedChannel.value === openChannel ? zoomedChannel.value : null;
  useEffect(() => {
    if (zoomedChannel.value !== null && zoomedChannel.value !== openChannel) zoomOut();
  }, [openChannel]);
  const zoomedSub = zoomed !== null ? store.subscriptions.value.find((s) => s.stream_id === zoomed) : undefined;
  const sections = zoomedSub ? [] : channelSections(filter);
  const channelRow = (s: Subscription) => (
    <Fragment key={s.stream_id}>
      <Item
        to={{ kind: 'channel', streamId: s.stream_id }}
        label={s.name}
        count={s.is_muted ? 0 : counts.channels.get(s.stream_id)}
        current={same(current, { kind: 'channel', streamId: s.stream_id })}
        muted={s.is_muted}
        extra={<span class="swatch" aria-hidden="true" style={{ background: s.color }} />}
      />
      {openChannel === s.stream_id && <SidebarTopics streamId={s.stream_id} channelName={s.name} activeTopic={activeTopic} />}
    </Fragment>
  );
  const dms = [...store.recent.value.values()]
    .filter((r) => 'peers' in r.place)
    .sort((a, b) => b.maxId - a.maxId)
    .map((r) => (r.place as { peers: string }).peers)
    .filter((peers) => {
      const name = peers ? peers.split(',').map((id) => userName(Number(id))).join(', ') : userName(store.selfId.value);
      return !q || name.toLowerCase().includes(q);
    })
    .slice(0, 20);

  return (
    <nav class="sidebar" aria-label="Conversations" onClick={(e) => (e.target as HTMLElement).closest('a') && onNavigate()}>
      <label class="filter">
        <span class="visually-hidden">Filter channels and conversations</span>
        <input
          type="search"
          placeholder="Filter"
          value={filter}
          onInput={(e) => setFilter(e.currentTarget.value)}
          onKeyDown={(e) => {
            // Enter opens the first match (a channel, else a direct conversation), as Zulip's channel filter does.
            if (e.key !== 'Enter' || !q) return;
            const channel = sections.flatMap((sec) => sec.channels)[0];
            const peers = dms[0];
            const to = channel ? { kind: 'channel' as const, streamId: channel.stream_id } : peers !== undefined ? { kind: 'dm' as const, userIds: peers ? peers.split(',').map(Number) : [] } : null;
            if (!to) return;
            e.preventDefault();
            setFilter('');
            go(to);
            onNavigate();
          }}
        />
      </label>
      <h2 class="visually-hidden">Views</h2>
      <ul class="views">
        <Item to={{ kind: 'inbox' }} label="Inbox" count={counts.total} current={current.kind === 'inbox'} />
        <Item to={{ kind: 'recent' }} label="Recent conversations" current={current.kind === 'recent'} />
        <Item to={{ kind: 'feed' }} label="Combined feed" current={current.kind === 'feed'} />
        <Item to={{ kind: 'mentions' }} label="Mentions" count={counts.mentions} current={current.kind === 'mentions'} />
        <Item to={{ kind: 'starred' }} label="Starred messages" current={current.kind === 'starred'} />
        <Item to={{ kind: 'reactions' }} label="Reactions" current={current.kind === 'reactions'} />
        <Item to={{ kind: 'drafts' }} label="Drafts" current={current.kind === 'drafts'} />
        <Item to={{ kind: 'scheduled' }} label="Scheduled messages" current={current.kind === 'scheduled'} />
        <Item to={{ kind: 'people' }} label="People" current={current.kind === 'people'} />
      </ul>
      <h2 class="section">
        <span>Channels</span>
        <a href={href({ kind: 'channels' })} class="section-action" aria-label="Browse and create channels">
          Browse
        </a>
      </h2>
      {zoomedSub ? (
        <ul class="channels">
          {channelRow(zoomedSub)}
        </ul>
      ) : (
        sections.map((sec) => {
          // A folded section (never while filtering) keeps only the open channel, and its unread count moves to the heading.
          const folded = sec.title !== null && !q && collapsedSections.value.has(sec.id);
          const unread = sec.channels.reduce((n, s) => n + (s.is_muted ? 0 : (counts.channels.get(s.stream_id) ?? 0)), 0);
          const shownChannels = folded ? sec.channels.filter((s) => s.stream_id === openChannel) : sec.channels;
          const id = `channel-section-${sec.id}`;
          return (
            <div key={sec.id} class="channel-section">
              {sec.title !== null && (
                <h3 class="folder">
                  <button type="button" aria-expanded={!folded} aria-controls={`${id}-list`} onClick={() => toggleSection(sec.id)}>
                    <span class="fold" aria-hidden="true">
                      {folded ? '▸' : '▾'}
                    </span>
                    <span id={id}>{sec.title}</span>
                    {folded && <Count n={unread} label="messages" />}
                  </button>
                </h3>
              )}
              <ul class="channels" id={`${id}-list`} aria-labelledby={sec.title !== null ? id : undefined}>
                {shownChannels.map(channelRow)}
              </ul>
            </div>
          );
        })
      )}
      {!zoomedSub && sections.length === 0 && (
        <ul class="channels">
          <li class="empty">{q ? 'No channels match.' : 'No channels yet: browse to join one.'}</li>
        </ul>
      )}
      <h2 class="section">
        <span>Direct messages</span>
      </h2>
      <ul class="dms">
        {dms.map((peers) => {
          const ids = peers ? peers.split(',').map(Number) : [];
          const name = ids.length ? ids.map(userName).join(', ') : `${userName(store.selfId.value)} (you)`;
          return <Item key={peers} to={{ kind: 'dm', userIds: ids }} label={name} count={counts.dms.get(peers)} current={same(current, { kind: 'dm', userIds: ids })} />;
        })}
        {dms.length === 0 && <li class="empty">No direct messages yet.</li>}
      </ul>
    </nav>
  );
}
