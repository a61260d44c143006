/** Inbox: every conversation with unread messages, direct messages first, then by channel. */
import { markChannelRead } from './feeds.js';
import { href } from './router.js';
import { channelName, store, unreadCounts, userName } from './state.js';

export function Inbox() {
  const counts = unreadCounts.value;
  const dms = [...counts.dms.entries()];
  const byChannel = new Map<number, { topic: string; n: number }[]>();
  for (const [key, n] of counts.topics) {
    const [sid] = key.split(':');
    const streamId = Number(sid);
    const sub = store.subscriptions.value.find((s) => s.stream_id === streamId);
    if (!sub || sub.is_muted) continue;
    const place = [...store.unread.value.values()].find((p) => !('peers' in p) && p.streamId === streamId && `${p.streamId}:${p.topic.toLowerCase()}` === key);
    const topic = place && !('peers' in place) ? place.topic : '';
    if (store.mutedTopics.value.has(key)) continue;
    byChannel.set(streamId, [...(byChannel.get(streamId) ?? []), { topic, n }]);
  }
  const empty = dms.length === 0 && byChannel.size === 0;
  return (
    <section class="pane inbox" aria-labelledby="inbox-title">
      <header class="feed-header">
        <h1 id="inbox-title">Inbox</h1>
      </header>
      <div class="scroller">
        {empty && <p class="edge">You have no unread messages. All caught up!</p>}
        {dms.length > 0 && (
          <section aria-labelledby="inbox-dms">
            <h2 id="inbox-dms">Direct messages</h2>
            <ul class="rows">
              {dms.map(([peers, n]) => {
                const ids = peers ? peers.split(',').map(Number) : [];
                return (
                  <li key={peers}>
                    <a href={href({ kind: 'dm', userIds: ids })}>{ids.length ? ids.map(userName).join(', ') : 'Yourself'}</a>
                    <span class="count" aria-label={`${n} unread messages`}>
                      {n}
                    </span>
                  </li>
                );
              })}
            </ul>
          </section>
        )}
        {[...byChannel.entries()].map(([streamId, topics]) => (
          <section key={streamId} aria-label={`#${channelName(streamId)}`}>
            <h2>
              <a href={href({ kind: 'channel', streamId })}>#{channelName(streamId)}</a>
              <button type="button" class="small" onClick={() => void markChannelRead(streamId)}>
                Mark as read
              </button>
            </h2>
            <ul class="rows">
              {topics.map((t) => (
                <li key={t.topic}>
                  <a href={href({ kind: 'topic', streamId, topic: t.topic })}>{t.topic || 'general chat'}</a>
                  <span class="count" aria-label={`${t.n} unread messages`}>
                    {t.n}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </section>
  );
}
