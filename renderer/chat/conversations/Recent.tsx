/**
 * Recent conversations, as Zulip's: topics and direct conversations by their newest message, with
 * who took part (avatars), when the last message came and how many are unread; filters for
 * unread, participated and muted conversations, and a text filter.
 */
import { useState } from 'preact/hooks';
import { topicKey } from '../../../server/protocol/conversation-keys.js';
import { href } from '../store/router.js';
import { channelName, mutedInViews, store, topicLabel, unreadCounts, userName, type RecentConversation } from '../store/state.js';
import { dayOf, fullTimeOf, timeOf } from '../ui/time.js';
import { TopicMarks, TopicMenu } from '../messages/TopicMenu.js';

const SHOWN = 100;
const AVATARS = 4;

/** "just now", "5 min ago", the time today, "Yesterday" or the date, as Zulip's recent view says it. */
export function whenOf(seconds: number, now = Date.now() / 1000): string {
  const ago = now - seconds;
  if (ago < 60) return 'just now';
  if (ago < 3600) return `${Math.floor(ago / 60)} min ago`;
  const day = dayOf(seconds);
  return day === 'Today' ? timeOf(seconds) : day;
}

type Filter = 'unread' | 'participated' | 'muted';

function mutedRow(r: RecentConversation): boolean {
  if ('peers' in r.place) return false;
  const { streamId, topic } = r.place;
  return mutedInViews(streamId, topic);
}

function Participants({ ids }: { ids: number[] }) {
  const shown = ids.slice(0, AVATARS);
  const more = ids.length - shown.length;
  const names = ids.map(userName).join(', ');
  return (
    <span class="participants" role="img" title={names} aria-label={ids.length ? `Participants: ${names}` : 'Participants not known yet'}>
      {shown.map((id) => (
        <img key={id} class="avatar" src={store.users.value.get(id)?.avatar_url ?? `/avatar/${id}`} alt="" width={24} height={24} loading="lazy" />
      ))}
      {more > 0 && <span class="more">+{more}</span>}
    </span>
  );
}

export function Recent() {
  const counts = unreadCounts.value;
  const me = store.selfId.value;
  const [on, setOn] = useState<Record<Filter, boolean>>({ unread: false, participated: false, muted: false });
  const [text, setText] = useState('');
  const unreadOf = (r: RecentConversation) =>
    'peers' in r.place ? (counts.dms.get(r.place.peers) ?? 0) : (counts.topics.get(topicKey(r.place.streamId, r.place.topic)) ?? 0);
  const labelOf = (r: RecentConversation) => {
    if ('peers' in r.place) {
      const ids = r.place.peers ? r.place.peers.split(',').map(Number) : [];
      return ids.length ? ids.map(userName).join(', ') : 'Yourself';
    }
    return `#${channelName(r.place.streamId)} ${topicLabel(r.place.topic)}`;
  };
  const needle = text.trim().toLowerCase();
  const rows = [...store.recent.value.values()]
    .filter((r) => (on.muted || !mutedRow(r)) && (!on.unread || unreadOf(r) > 0) && (!on.participated || r.senders.includes(me)))
    .filter((r) => !needle || labelOf(r).toLowerCase().includes(needle))
    .sort((a, b) => b.maxId - a.maxId)
    .slice(0, SHOWN);
  const toggle = (f: Filter, label: string) => (
    <button type="button" class="small" aria-pressed={on[f]} onClick={() => setOn({ ...on, [f]: !on[f] })}>
      {label}
    </button>
  );
  return (
    <section class="pane recent" aria-labelledby="recent-title">
      <header class="feed-header">
        <h1 id="recent-title">Recent conversations</h1>
      </header>
      <div class="recent-filters" role="group" aria-label="Filters">
        <input type="search" placeholder="Filter conversations" aria-label="Filter conversations" value={text} onInput={(e) => setText(e.currentTarget.value)} />
        {toggle('unread', 'Unread')}
        {toggle('participated', 'Participated')}
        {toggle('muted', 'Include muted')}
      </div>
      <div class="scroller">
        {store.recent.value.size === 0 && <p class="edge">No conversations yet. Pick a channel and start a topic.</p>}
        {store.recent.value.size > 0 && rows.length === 0 && <p class="edge">No conversations match these filters.</p>}
        {rows.length > 0 && (
          <table class="recent-table">
            <thead>
              <tr>
                <th scope="col">Conversation</th>
                <th scope="col">Participants</th>
                <th scope="col">Time</th>
                <th scope="col">
                  <span class="visually-hidden">Unread</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const n = unreadOf(r);
                const muted = mutedRow(r);
                if ('peers' in r.place) {
                  const ids = r.place.peers ? r.place.peers.split(',').map(Number) : [];
                  return (
                    <tr key={`dm${r.place.peers}`} class={n > 0 ? 'unread' : undefined}>
                      <td>
                        <a href={href({ kind: 'dm', userIds: ids })}>{labelOf(r)}</a>
                        <span class="muted">Direct message</span>
                      </td>
                      <td>
                        <Participants ids={r.senders.length ? r.senders : [...ids, me]} />
                      </td>
                      <td class="when">{r.timestamp ? <time title={fullTimeOf(r.timestamp)}>{whenOf(r.timestamp)}</time> : ''}</td>
                      <td>{n > 0 && <span class="count" aria-label={`${n} unread messages`}>{n}</span>}</td>
                    </tr>
                  );
                }
                const { streamId, topic } = r.place;
                return (
                  <tr key={`t${streamId}:${topic}`} class={[n > 0 ? 'unread' : '', muted ? 'is-muted' : ''].join(' ').trim() || undefined}>
                    <td>
                      <a class="channel-link" href={href({ kind: 'channel', streamId })}>
                        #{channelName(streamId)}
                      </a>
                      <a href={href({ kind: 'topic', streamId, topic })}>{topicLabel(topic)}</a>
                      <TopicMarks streamId={streamId} topic={topic} />
                      {muted && <span class="muted">Muted</span>}
                    </td>
                    <td>
                      <Participants ids={r.senders} />
                    </td>
                    <td class="when">{r.timestamp ? <time title={fullTimeOf(r.timestamp)}>{whenOf(r.timestamp)}</time> : ''}</td>
                    <td class="row-end">
                      {n > 0 && <span class="count" aria-label={`${n} unread messages`}>{n}</span>}
                      <TopicMenu streamId={streamId} topic={topic} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
