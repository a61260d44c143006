/**
 * A message feed: the narrow's messages grouped by conversation, day and sender, older
 * ones loading when scrolling up; opens at the first unread message; messages seen are
 * marked read; new messages from others are announced politely to screen readers.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { conversationKey, topicKey } from '../../../server/protocol/conversation-keys.js';
import { markChannelRead, markIdsRead, markSeen, marksReadWhenSeen, openFeed } from './feeds.js';
import { useRenderWindow } from './render-window.js';
import { MessageItem } from './MessageItem.js';
import { keyOf, type FeedView } from '../store/narrow.js';
import { href } from '../store/router.js';
import { channelName, store, topicLabel, userName, type Message } from '../store/state.js';
import { Compose } from '../compose/Compose.js';
import { dayKey, dayOf } from '../ui/time.js';
import { HeaderMenu } from '../HeaderMenu.js';
import { NextUnreadButton } from './next-unread.js';
import { NotSubscribed } from './NotSubscribed.js';
import { useSelection } from './selection.js';
import { TopicMarks, TopicMenu } from './TopicMenu.js';

export function titleOf(v: FeedView): string {
  switch (v.kind) {
    case 'feed':
      return 'Combined feed';
    case 'mentions':
      return 'Mentions';
    case 'starred':
      return 'Starred messages';
    case 'reactions':
      return 'Reactions';
    case 'channel':
      return `#${channelName(v.streamId)}`;
    case 'topic':
      return `#${channelName(v.streamId)} > ${topicLabel(v.topic)}`;
    case 'dm':
      return v.userIds.length ? v.userIds.map(userName).join(', ') : `${userName(store.selfId.value)} (you)`;
  }
}


function ConversationHeading({ m }: { m: Message }) {
  if (m.type === 'stream') {
    return (
      <>
        <a class="conv-heading" href={href({ kind: 'topic', streamId: m.stream_id!, topic: m.subject })}>
          #{channelName(m.stream_id!)} &gt; {topicLabel(m.subject)}
        </a>
        <TopicMarks streamId={m.stream_id!} topic={m.subject} muted />
        <TopicMenu streamId={m.stream_id!} topic={m.subject} />
      </>
    );
  }
  const ids = (m.display_recipient as { id: number }[]).map((r) => r.id).filter((id) => id !== store.selfId.value);
  return (
    <a class="conv-heading" href={href({ kind: 'dm', userIds: ids.sort((a, b) => a - b) })}>
      Direct message with {ids.length ? ids.map(userName).join(', ') : 'yourself'}
    </a>
  );
}

function Announcer({ messages }: { messages: Message[] }) {
  const last = useRef<number>(0);
  const [text, setText] = useState('');
  useEffect(() => {
    const newest = messages[messages.length - 1];
    if (!newest) return;
    if (last.current && newest.id > last.current && newest.sender_id !== store.selfId.value && !newest.pending) {
      const body = new DOMParser().parseFromString(newest.content, 'text/html').body.textContent ?? '';
      setText(`New message from ${userName(newest.sender_id)}: ${body.slice(0, 140)}`);
    }
    last.current = Math.max(last.current, newest.id);
  }, [messages]);
  return (
    <div class="visually-hidden" aria-live="polite" role="status">
      {text}
    </div>
  );
}

/** "Mel is typing…" for the open conversation. */
function TypingNotice({ v }: { v: FeedView }) {
  const key = v.kind === 'topic' ? `topic:${topicKey(v.streamId, v.topic)}` : v.kind === 'dm' ? `dm:${v.userIds.join(',')}` : null;
  const who = key ? (store.typing.value.get(key) ?? []) : [];
  return (
    <p class="typing" aria-live="polite">
      {who.length === 1 ? `${userName(who[0]!)} is typing…` : who.length > 1 ? `${who.map(userName).join(', ')} are typing…` : ''}
    </p>
  );
}

export function FeedPane({ v }: { v: FeedView }) {
  const key = keyOf(v);
  const feed = store.feeds.value.get(key);
  const unread = store.unread.value;
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    void openFeed(v);
  }, [key, store.ready.value && store.feeds.value.has(key) ? 1 : 0]);

  const messages = feed?.messages ?? [];
  const { shown, hiddenBelow, newBelow, onScroll, jumpToNewest } = useRenderWindow(v, key, feed, scroller, (ms) => ms.find((m) => unread.has(m.id)));
  // J/K's selected message (a message link selects its message and brings it to the middle).
  useSelection(key, scroller, 'near' in v ? v.near : undefined);
  const atStart = shown[0]?.id === messages[0]?.id;

  // Mark read what has been on screen while the page is in view.
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const seen = new IntersectionObserver(
      (entries) => {
        if (document.visibilityState !== 'visible') return;
        markSeen(entries.filter((e) => e.isIntersecting).map((e) => Number((e.target as HTMLElement).dataset.id)), v);
      },
      { root: el, threshold: 0.6 },
    );
    el.querySelectorAll('li.message.unread').forEach((li) => seen.observe(li));
    return () => seen.disconnect();
  }, [shown, unread]);

  const items: preact.ComponentChildren[] = [];
  let prev: Message | undefined;
  for (const m of shown) {
    const newDay = !prev || dayKey(prev.timestamp) !== dayKey(m.timestamp);
    const newConv = !prev || conversationKey(prev) !== conversationKey(m);
    if (newDay) {
      items.push(
        <li key={`d${m.id}`} class="day">
          {dayOf(m.timestamp)}
        </li>,
      );
    }
    const showConv = newConv && (v.kind === 'feed' || v.kind === 'mentions' || v.kind === 'starred' || v.kind === 'reactions' || v.kind === 'channel');
    if (showConv) items.push(<li key={`c${m.id}`} class="conv">{<ConversationHeading m={m} />}</li>);
    const first = newDay || newConv || prev!.sender_id !== m.sender_id || m.timestamp - prev!.timestamp > 300;
    items.push(<MessageItem key={m.id} m={m} first={first} unread={unread.has(m.id)} />);
    prev = m;
  }

  const markable = v.kind === 'channel' || v.kind === 'topic';
  // Where the person's setting keeps seen messages unread, the view offers to mark what it shows.
  const unreadShown = marksReadWhenSeen(v) ? [] : messages.filter((m) => unread.has(m.id)).map((m) => m.id);
  return (
    <section class="feed" aria-labelledby="feed-title">
      <header class="feed-header">
        <h1 id="feed-title">{titleOf(v)}</h1>
        {v.kind === 'topic' && <TopicMarks streamId={v.streamId} topic={v.topic} muted />}
        {v.kind === 'topic' && <TopicMenu streamId={v.streamId} topic={v.topic} />}
        <HeaderMenu>
          {markable && (
            <button type="button" onClick={() => void markChannelRead(v.streamId, v.kind === 'topic' ? v.topic : undefined)}>
              Mark all as read
            </button>
          )}
          {!markable && unreadShown.length > 0 && (
            <button type="button" onClick={() => {
              // The button goes once they are read: the messages keep the keyboard's place.
              scroller.current?.focus();
              void markIdsRead(unreadShown);
            }} title="Your settings keep messages unread here as you read them">
              Mark as read
            </button>
          )}
          <NextUnreadButton />
        </HeaderMenu>
      </header>
      {/* Above the messages: seen first, and reached by Tab before every message's tools. */}
      {(v.kind === 'channel' || v.kind === 'topic') && <NotSubscribed streamId={v.streamId} />}
      <div class="scroller" ref={scroller} onScroll={onScroll} tabIndex={0} aria-label="Messages">
        {feed?.foundOldest && atStart && messages.length > 0 && <p class="edge">This is the beginning of the conversation.</p>}
        {feed?.loading && <p class="edge" role="status">Loading messages…</p>}
        {feed?.error && (
          <p class="edge error" role="alert">
            {feed.error}
          </p>
        )}
        {!feed?.loading && messages.length === 0 && !feed?.error && <p class="edge">No messages here yet.</p>}
        <ol class="messages">{items}</ol>
      </div>
      {(hiddenBelow || newBelow > 0) && (
        <button type="button" class="jump" onClick={jumpToNewest}>
          {newBelow > 0 && <span class="new-below">{newBelow === 1 ? '1 new message' : `${newBelow} new messages`} · </span>}
          Jump to newest
        </button>
      )}
      <Announcer messages={messages} />
      <TypingNotice v={v} />
      <Compose v={v} />
    </section>
  );
}
