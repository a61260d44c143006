/**
 * The open channel's topics in the sidebar, as Zulip's left sidebar lists them: the most
 * recent ones with unread counts, and "More topics" (a button) to list every topic of the
 * channel with a filter box; "Back to channels" (or Escape in the filter) returns.
 * The topics come from the server (sidebar-state.ts), not from the messages loaded.
 */
import { useEffect, useRef } from 'preact/hooks';
import { signal } from '@preact/signals';
import { href } from '../store/router.js';
import { store, topicLabel } from '../store/state.js';
import { loadTopicHistory, sidebarTopics, topicHistory } from './sidebar-state.js';
import { FOLLOWED, policyOf, TopicMarks, TopicMenu } from '../messages/TopicMenu.js';

/** The channel whose topics are all listed ("More topics"), and the filter typed there. */
export const zoomedChannel = signal<number | null>(null);
export const topicFilter = signal('');

export function zoomOut(): void {
  zoomedChannel.value = null;
  topicFilter.value = '';
}

/** Lists every topic of a subscribed channel in the sidebar (also Zulip's Y); false for another channel. */
export function showChannelTopics(streamId: number | null): boolean {
  if (streamId === null || !store.subscriptions.value.some((s) => s.stream_id === streamId)) return false;
  topicFilter.value = '';
  zoomedChannel.value = streamId;
  return true;
}

/** The list is drawn anew when it zooms in or out: where focus goes then (the filter box, or back to "More topics"). */
const focusMoreNext = signal<number | null>(null);

const countLabel = (n: number) => `${n} unread ${n === 1 ? 'message' : 'messages'}`;

export function SidebarTopics({ streamId, channelName, activeTopic }: { streamId: number; channelName: string; activeTopic: string | null }) {
  const zoomed = zoomedChannel.value === streamId;
  const filterRef = useRef<HTMLInputElement>(null);
  const moreRef = useRef<HTMLButtonElement>(null);
  useEffect(() => loadTopicHistory(streamId), [streamId]);
  useEffect(() => {
    if (zoomed) filterRef.current?.focus();
    else if (focusMoreNext.peek() === streamId) moreRef.current?.focus();
    focusMoreNext.value = null;
  }, [zoomed]);

  const state = topicHistory.value.get(streamId)?.state;
  const { items, total, hiddenUnread } = sidebarTopics(streamId, activeTopic, zoomed, topicFilter.value, topicLabel);
  const back = () => {
    focusMoreNext.value = streamId;
    zoomOut();
  };

  return (
    <li class={`topics${zoomed ? ' zoomed' : ''}`}>
      {zoomed && (
        <div class="topic-zoom">
          <button type="button" class="more-topics" onClick={back}>
            <span aria-hidden="true">←</span> Back to channels
          </button>
          <label class="topic-filter">
            <span class="visually-hidden">Filter topics in {channelName}</span>
            <input
              ref={filterRef}
              type="search"
              placeholder="Filter topics"
              value={topicFilter.value}
              onInput={(e) => (topicFilter.value = e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key !== 'Escape') return;
                e.preventDefault();
                e.stopPropagation();
                if (topicFilter.value) topicFilter.value = '';
                else back();
              }}
            />
          </label>
        </div>
      )}
      <ul aria-label={`Topics in ${channelName}`}>
        {items.map((t) => (
          <li key={t.name} class={`topic-row${t.muted ? ' muted-topic' : ''}`}>
            <a
              href={href({ kind: 'topic', streamId, topic: t.name })}
              aria-current={t.active ? 'page' : undefined}
              class={t.active ? 'current' : undefined}
              title={t.muted ? `${topicLabel(t.name)} (muted)` : undefined}
            >
              <span class={`label${t.name === '' ? ' empty-topic' : ''}`}>{topicLabel(t.name)}</span>
              {t.muted && <span class="visually-hidden"> (muted)</span>}
              <TopicMarks streamId={streamId} topic={t.name} silent />
              {t.mentioned && (
                <span class="mention-marker" title="You are mentioned here">
                  <span aria-hidden="true">@</span>
                  <span class="visually-hidden">, mentions you</span>
                </span>
              )}
              {t.unread > 0 && (
                <span class={`count${t.muted ? ' quiet' : ''}`} aria-label={countLabel(t.unread)}>
                  {t.unread}
                </span>
              )}
              {policyOf(streamId, t.name) === FOLLOWED && <span class="visually-hidden">, followed</span>}
            </a>
            <TopicMenu streamId={streamId} topic={t.name} />
          </li>
        ))}
        {items.length === 0 && state === 'loaded' && <li class="empty">{zoomed && topicFilter.value.trim() ? 'No topics match.' : 'No topics yet.'}</li>}
        {items.length === 0 && state === 'loading' && <li class="empty">Loading topics…</li>}
        {state === 'failed' && (
          <li class="empty">
            The topics could not be loaded.{' '}
            <button type="button" class="link" onClick={() => loadTopicHistory(streamId, true)}>
              Try again
            </button>
          </li>
        )}
      </ul>
      {!zoomed && total > items.length && (
        <button
          ref={moreRef}
          type="button"
          class="more-topics"
          aria-label={`More topics in ${channelName}${hiddenUnread ? `, ${countLabel(hiddenUnread)}` : ''}`}
          onClick={() => showChannelTopics(streamId)}
        >
          <span>More topics</span>
          {hiddenUnread > 0 && (
            <span class="count" aria-hidden="true">
              {hiddenUnread}
            </span>
          )}
        </button>
      )}
    </li>
  );
}
