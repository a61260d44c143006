/**
 * Inbox: every conversation with unread messages, direct messages first, then channels in
 * the sidebar's order (a channel's topics newest first). A section folds away (remembered in
 * this browser); a count, clicked, marks its conversation read, as in Zulip; "Next unread
 * topic" is N. Everything is counted from the store's unread messages, like the sidebar.
 */
import { signal } from '@preact/signals';
import { post } from '../store/api.js';
import { markChannelRead } from '../messages/feeds.js';
import { HeaderMenu } from '../HeaderMenu.js';
import { NextUnreadButton } from '../messages/next-unread.js';
import { href } from '../store/router.js';
import { channelName, mutedInViews, store, topicLabel, unreadCounts, userName } from '../store/state.js';
import { TopicMarks, TopicMenu } from '../messages/TopicMenu.js';

const FOLDED_KEY = 'hearth.inbox.collapsed';

function loadFolded(): Set<string> {
  try {
    const v = JSON.parse(localStorage.getItem(FOLDED_KEY) ?? '[]') as unknown;
    return new Set(Array.isArray(v) ? v.map(String) : []);
  } catch {
    return new Set();
  }
}

/** Folded sections: `dm`, or a channel's ID. */
const folded = signal(loadFolded());

function toggle(section: string): void {
  const next = new Set(folded.value);
  if (!next.delete(section)) next.add(section);
  folded.value = next;
  try {
    localStorage.setItem(FOLDED_KEY, JSON.stringify([...next]));
  } catch {
    /* storage full or off: folding still works until the page reloads */
  }
}

const markIds = (ids: number[]) => post('/messages/flags', { messages: ids, op: 'add', flag: 'read' });

function markAll(): void {
  if (confirm('Mark all messages as read?')) void post('/mark_all_as_read');
}

interface TopicRow {
  topic: string;
  n: number;
  maxId: number;
}

/** Unread topics per unmuted subscribed channel, and unread message IDs per direct conversation. */
function unreadByPlace() {
  const channels = new Map<number, Map<string, TopicRow>>();
  const dms = new Map<string, number[]>();
  const subs = new Map(store.subscriptions.value.map((s) => [s.stream_id, s]));
  for (const [id, p] of store.unread.value) {
    if ('peers' in p) {
      dms.set(p.peers, [...(dms.get(p.peers) ?? []), id]);
      continue;
    }
    const sub = subs.get(p.streamId);
    // A muted channel's topics stay out, but for those unmuted or followed (as in Zulip).
    if (!sub || mutedInViews(p.streamId, p.topic)) continue;
    const topics = channels.get(p.streamId) ?? new Map<string, TopicRow>();
    const key = p.topic.toLowerCase();
    const row = topics.get(key) ?? { topic: p.topic, n: 0, maxId: 0 };
    row.n++;
    row.maxId = Math.max(row.maxId, id);
    topics.set(key, row);
    channels.set(p.streamId, topics);
  }
  const order = [...channels.keys()].sort((a, b) => {
    const x = subs.get(a)!;
    const y = subs.get(b)!;
    return Number(y.pin_to_top) - Number(x.pin_to_top) || x.name.localeCompare(y.name);
  });
  return {
    channels: order.map((streamId) => ({ streamId, topics: [...channels.get(streamId)!.values()].sort((a, b) => b.maxId - a.maxId) })),
    dms: [...dms.entries()].sort((a, b) => Math.max(...b[1]) - Math.max(...a[1])),
  };
}

function Fold({ section, label, controls }: { section: string; label: string; controls: string }) {
  const open = !folded.value.has(section);
  return (
    <button type="button" class="fold" aria-expanded={open} aria-controls={controls} aria-label={label} onClick={() => toggle(section)}>
      <span aria-hidden="true">{open ? '▾' : '▸'}</span>
    </button>
  );
}

const Count = ({ n, what, onClick }: { n: number; what: string; onClick: () => void }) => (
  <button type="button" class="count" aria-label={`${n} unread in ${what}: mark as read`} title="Mark as read" onClick={onClick}>
    {n}
  </button>
);

export function Inbox() {
  const { channels, dms } = unreadByPlace();
  const total = unreadCounts.value.total;
  const empty = dms.length === 0 && channels.length === 0;
  const dmTotal = dms.reduce((n, [, ids]) => n + ids.length, 0);
  return (
    <section class="pane inbox" aria-labelledby="inbox-title">
      <header class="feed-header">
        <h1 id="inbox-title">Inbox</h1>
        <HeaderMenu>
          <NextUnreadButton />
          {total > 0 && (
            <button type="button" onClick={markAll}>
              Mark all as read
            </button>
          )}
        </HeaderMenu>
      </header>
      <div class="scroller">
        {empty && <p class="edge">You have no unread messages. All caught up!</p>}
        {dms.length > 0 && (
          <section aria-labelledby="inbox-dms">
            <h2>
              <Fold section="dm" label="Direct messages" controls="inbox-dm-rows" />
              <span id="inbox-dms">Direct messages</span>
              {folded.value.has('dm') && (
                <span class="count quiet" aria-label={`${dmTotal} unread messages`}>
                  {dmTotal}
                </span>
              )}
            </h2>
            <ul class="rows" id="inbox-dm-rows" hidden={folded.value.has('dm')}>
              {dms.map(([peers, ids]) => {
                const userIds = peers ? peers.split(',').map(Number) : [];
                const who = userIds.length ? userIds.map(userName).join(', ') : 'Yourself';
                return (
                  <li key={peers}>
                    <a href={href({ kind: 'dm', userIds })}>{who}</a>
                    <Count n={ids.length} what={who} onClick={() => void markIds(ids)} />
                  </li>
                );
              })}
            </ul>
          </section>
        )}
        {channels.map(({ streamId, topics }) => {
          const name = `#${channelName(streamId)}`;
          const n = topics.reduce((s, t) => s + t.n, 0);
          const isFolded = folded.value.has(String(streamId));
          const rows = `inbox-rows-${streamId}`;
          return (
            <section key={streamId} aria-label={name}>
              <h2>
                <Fold section={String(streamId)} label={`${name} topics`} controls={rows} />
                <a href={href({ kind: 'channel', streamId })}>{name}</a>
                {isFolded && (
                  <span class="count quiet" aria-label={`${n} unread messages`}>
                    {n}
                  </span>
                )}
                <button type="button" class="small" onClick={() => void markChannelRead(streamId)}>
                  Mark as read
                </button>
              </h2>
              <ul class="rows" id={rows} hidden={isFolded}>
                {topics.map((t) => (
                  <li key={t.topic}>
                    <a href={href({ kind: 'topic', streamId, topic: t.topic })}>{topicLabel(t.topic)}</a>
                    <TopicMarks streamId={streamId} topic={t.topic} />
                    <Count n={t.n} what={topicLabel(t.topic)} onClick={() => void markChannelRead(streamId, t.topic)} />
                    <TopicMenu streamId={streamId} topic={t.topic} />
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
    </section>
  );
}
