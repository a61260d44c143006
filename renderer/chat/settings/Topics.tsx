/** Settings, Topics: muted, unmuted and followed topics, with the way back to the default. */
import { useState } from 'preact/hooks';
import { post } from '../store/api.js';
import { href } from '../store/router.js';
import { channelName, store, topicLabel } from '../store/state.js';
import { fail, ok } from './save.js';

const POLICY: Record<number, string> = { 1: 'Muted', 2: 'Unmuted', 3: 'Followed' };
const UNDO: Record<number, string> = { 1: 'Unmute', 2: 'Reset', 3: 'Unfollow' };

export function Topics() {
  const [which, setWhich] = useState(0);
  const topics = [...store.userTopics.value.values()]
    .filter((t) => !which || t.visibility_policy === which)
    .sort((a, b) => channelName(a.stream_id).localeCompare(channelName(b.stream_id)) || a.topic_name.localeCompare(b.topic_name));
  return (
    <section class="card" aria-labelledby="topics-title">
      <h2 id="topics-title">Topics</h2>
      <label>
        Show
        <select value={which} onChange={(e) => setWhich(Number(e.currentTarget.value))}>
          <option value={0}>All</option>
          <option value={1}>Muted</option>
          <option value={3}>Followed</option>
          <option value={2}>Unmuted</option>
        </select>
      </label>
      <ul class="rows" aria-label="Muted and followed topics">
        {topics.map((t) => (
          <li key={`${t.stream_id}:${t.topic_name}`}>
            <span class="grow">
              <a href={href({ kind: 'topic', streamId: t.stream_id, topic: t.topic_name })}>
                #{channelName(t.stream_id)} &gt; {topicLabel(t.topic_name)}
              </a>
            </span>
            <span class="badge">{POLICY[t.visibility_policy]}</span>
            <button
              type="button"
              class="small"
              aria-label={`${UNDO[t.visibility_policy]} ${topicLabel(t.topic_name)} in #${channelName(t.stream_id)}`}
              onClick={() => void post('/user_topics', { stream_id: t.stream_id, topic: t.topic_name, visibility_policy: 0 }).then(() => ok(), fail)}
            >
              {UNDO[t.visibility_policy]}
            </button>
          </li>
        ))}
        {topics.length === 0 && <li class="muted">No topics here. Mute or follow a topic from its menu.</li>}
      </ul>
    </section>
  );
}
