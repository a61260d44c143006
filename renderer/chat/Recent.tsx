/** Recent conversations: topics and direct conversations by their newest message. */
import { href } from './router.js';
import { channelName, store, topicLabel, unreadCounts, userName } from './state.js';

export function Recent() {
  const counts = unreadCounts.value;
  const rows = [...store.recent.value.values()].sort((a, b) => b.maxId - a.maxId).slice(0, 100);
  return (
    <section class="pane recent" aria-labelledby="recent-title">
      <header class="feed-header">
        <h1 id="recent-title">Recent conversations</h1>
      </header>
      <div class="scroller">
        {rows.length === 0 && <p class="edge">No conversations yet. Pick a channel and start a topic.</p>}
        <ul class="rows">
          {rows.map(({ place }) => {
            if ('peers' in place) {
              const ids = place.peers ? place.peers.split(',').map(Number) : [];
              const n = counts.dms.get(place.peers) ?? 0;
              return (
                <li key={`dm${place.peers}`}>
                  <a href={href({ kind: 'dm', userIds: ids })}>{ids.length ? ids.map(userName).join(', ') : 'Yourself'}</a>
                  <span class="muted">Direct message</span>
                  {n > 0 && <span class="count" aria-label={`${n} unread messages`}>{n}</span>}
                </li>
              );
            }
            const n = counts.topics.get(`${place.streamId}:${place.topic.toLowerCase()}`) ?? 0;
            return (
              <li key={`t${place.streamId}:${place.topic}`}>
                <a href={href({ kind: 'topic', streamId: place.streamId, topic: place.topic })}>{topicLabel(place.topic)}</a>
                <span class="muted">#{channelName(place.streamId)}</span>
                {n > 0 && <span class="count" aria-label={`${n} unread messages`}>{n}</span>}
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
