/**
 * Where the compose box sends: fixed by a topic or direct-message view, else chosen here
 * (channel or direct message, the channel, the topic, the people). Changes go to the
 * compose box as one `Address` (it keeps the draft's address in step).
 */
import { useMemo } from 'preact/hooks';
import { PeoplePicker } from './PeoplePicker.js';
import { channelName, store, topicsOf } from '../store/state.js';

export interface Address {
  mode: 'channel' | 'dm';
  channel: number;
  topic: string;
  people: number[];
}

interface Props extends Address {
  fixedChannel: number | null;
  fixedPeople: number[] | null;
  onChange: (next: Address) => void;
}

export function ComposeTo({ fixedChannel, fixedPeople, onChange, ...a }: Props) {
  // Suggestions: worked out when the channel or what is known of its topics changes, not per keystroke.
  const recent = store.recent.value;
  const unread = store.unread.value;
  const topics = useMemo(() => (a.channel ? topicsOf(a.channel).slice(0, 50) : []), [a.channel, recent, unread]);
  return (
    <div class="compose-to">
      {fixedChannel === null && fixedPeople === null && (
        <label>
          <span class="visually-hidden">Send to</span>
          <select value={a.mode} onChange={(e) => onChange({ ...a, mode: e.currentTarget.value as Address['mode'] })}>
            <option value="channel">Channel</option>
            <option value="dm">Direct message</option>
          </select>
        </label>
      )}
      {a.mode === 'channel' && fixedChannel === null && (
        <label>
          <span class="visually-hidden">Channel</span>
          <select value={a.channel} onChange={(e) => onChange({ ...a, channel: Number(e.currentTarget.value) })}>
            <option value={0} disabled>
              Choose a channel
            </option>
            {a.channel !== 0 && !store.subscriptions.value.some((s) => s.stream_id === a.channel) && (
              <option value={a.channel}>#{channelName(a.channel)} (not subscribed)</option>
            )}
            {store.subscriptions.value.map((s) => (
              <option key={s.stream_id} value={s.stream_id}>
                #{s.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {a.mode === 'channel' && (
        <label class="topic">
          Topic
          <input
            value={a.topic}
            maxLength={store.maxTopicLength.value}
            onInput={(e) => onChange({ ...a, topic: e.currentTarget.value })}
            placeholder="general chat"
            list={a.channel ? 'compose-topics' : undefined}
            autoComplete="off"
          />
          {/* The channel's topics, newest first, as suggestions (the browser's own list, also on phones). */}
          {a.channel !== 0 && (
            <datalist id="compose-topics">
              {topics.map((t) => (
                <option key={t.topic} value={t.topic} />
              ))}
            </datalist>
          )}
        </label>
      )}
      {a.mode === 'dm' && fixedPeople === null && <PeoplePicker value={a.people} onChange={(people) => onChange({ ...a, people })} />}
    </div>
  );
}
