/**
 * A topic's menu, as Zulip's topic popover offers it, from a "⋮" button by the topic wherever it
 * is listed (the sidebar, Inbox, Recent conversations, the heading above a topic's messages):
 * follow / unfollow, mute / unmute (`POST /user_topics`: visibility policy 0 inherit, 1 muted,
 * 2 unmuted in a muted channel, 3 followed), mark all as read, move or rename and resolve (the
 * message dialogs, on the topic's newest message, every message of the topic), copy the link.
 * The menu is a role=menu: arrows, Home/End, Enter; Escape or Tab close it and focus returns to
 * its button. `TopicMarks` shows a topic's visibility by its name (followed, muted).
 */
import { render } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { topicKey } from '../../../server/protocol/conversation-keys.js';
import { get, post } from '../store/api.js';
import { DotsIcon, onMenuKey, usePopover } from '../ui/Dialog.js';
import { markChannelRead } from './feeds.js';
import { MoveDialog } from './MessageDialogs.js';
import * as act from './message-actions.js';
import { href } from '../store/router.js';
import { channelName, mutedInViews, store, topicLabel, unreadCounts, type Message } from '../store/state.js';
import { announce } from '../ui/Toast.js';

export const MUTED = 1;
export const UNMUTED = 2;
export const FOLLOWED = 3;

/** The topic's visibility policy for me (0: the channel's default). */
export const policyOf = (streamId: number, topic: string) => store.userTopics.value.get(topicKey(streamId, topic))?.visibility_policy ?? 0;

const channelMuted = (streamId: number) => store.subscriptions.value.find((s) => s.stream_id === streamId)?.is_muted === true;


const FollowIcon = () => (
  <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round">
    <path d="M3.5 11.5V7a4.5 4.5 0 0 1 9 0v4.5l1 1.5h-11z" />
    <path d="M6.5 14.5h3" />
  </svg>
);

const MutedIcon = () => (
  <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round">
    <path d="M3.5 11.5V7a4.5 4.5 0 0 1 7.4-3.4M12.5 7v4.5l1 1.5H6M6.5 14.5h3M2 14 14 2" />
  </svg>
);

/**
 * A followed topic's bell (and, with `muted`, a muted one's crossed bell), with words for screen
 * readers; `silent` leaves the words to the caller (the sidebar says them last in its link).
 */
export function TopicMarks({ streamId, topic, muted, silent }: { streamId: number; topic: string; muted?: boolean; silent?: boolean }) {
  const p = policyOf(streamId, topic);
  if (p === FOLLOWED) {
    return (
      <span class="topic-mark followed" title="You follow this topic">
        <FollowIcon />
        {!silent && <span class="visually-hidden"> (followed)</span>}
      </span>
    );
  }
  if (muted && mutedInViews(streamId, topic)) {
    return (
      <span class="topic-mark muted" title="You muted this topic">
        <MutedIcon />
        <span class="visually-hidden"> (muted)</span>
      </span>
    );
  }
  return null;
}

const where = (streamId: number, topic: string) => `#${channelName(streamId)} > ${topicLabel(topic)}`;

/** Sets my visibility policy for the topic; the user_topic event updates every view. */
export async function setVisibility(streamId: number, topic: string, policy: number): Promise<void> {
  await post('/user_topics', { stream_id: streamId, topic, visibility_policy: policy });
}

/** This client's link to the topic (Zulip's `#narrow/channel/ID-name/topic/…` form). */
export const topicLink = (streamId: number, topic: string) => `${location.origin}/${href({ kind: 'topic', streamId, topic })}`;

/** The topic's newest message, which moving and resolving act on (with every other message of the topic). */
async function newestOf(streamId: number, topic: string): Promise<Message> {
  const res = await get<{ messages: Message[] }>('/messages', {
    anchor: 'newest',
    num_before: 1,
    num_after: 0,
    narrow: [
      { operator: 'channel', operand: streamId },
      { operator: 'topic', operand: topic },
    ],
    apply_markdown: true,
    client_gravatar: false,
    allow_empty_topic_name: true,
  });
  const m = res.messages[res.messages.length - 1];
  if (!m) throw new Error('This topic has no messages.');
  return m;
}

/**
 * The move dialog for a whole topic, opened outside any message: the overlay names no message
 * of the feed (a negative ID), so it is drawn here once, and its host goes when it closes.
 */
function openMoveDialog(m: Message, anchor: HTMLElement): void {
  const host = document.createElement('div');
  document.body.append(host);
  const id = -m.id;
  const Host = () => {
    const o = act.overlay.value;
    const mine = o?.kind === 'move' && o.id === id;
    useEffect(() => {
      if (mine) return;
      setTimeout(() => {
        render(null, host);
        host.remove();
      });
    }, [mine]);
    return mine ? <MoveDialog m={m} wholeTopic /> : null;
  };
  act.open({ kind: 'move', id, anchor });
  render(<Host />, host);
}

type Item = { label: string; run: () => void | Promise<unknown> };

function menuItems(streamId: number, topic: string, anchor: HTMLElement): Item[] {
  const p = policyOf(streamId, topic);
  const inMutedChannel = channelMuted(streamId);
  const named = where(streamId, topic);
  const visibility = (policy: number, done: string) => async () => {
    await setVisibility(streamId, topic, policy);
    announce(`${done} ${named}`);
  };
  const unread = unreadCounts.value.topics.get(topicKey(streamId, topic)) ?? 0;
  const items: (Item | false)[] = [
    p === FOLLOWED ? { label: 'Unfollow topic', run: visibility(0, 'Unfollowed') } : { label: 'Follow topic', run: visibility(FOLLOWED, 'Following') },
    inMutedChannel
      ? p === UNMUTED || p === FOLLOWED
        ? { label: 'Mute topic', run: visibility(0, 'Muted') }
        : { label: 'Unmute topic', run: visibility(UNMUTED, 'Unmuted') }
      : p === MUTED
        ? { label: 'Unmute topic', run: visibility(0, 'Unmuted') }
        : { label: 'Mute topic', run: visibility(MUTED, 'Muted') },
    unread > 0 && {
      label: 'Mark all as read',
      run: async () => {
        await markChannelRead(streamId, topic);
        announce(`Marked ${named} as read`);
      },
    },
    act.canMoveTopics() && { label: 'Move or rename topic', run: async () => openMoveDialog(await newestOf(streamId, topic), anchor) },
    act.canResolveTopics() && {
      label: act.isResolved(topic) ? 'Unresolve topic' : 'Resolve topic',
      run: async () => {
        await act.toggleResolved(await newestOf(streamId, topic));
        announce(`${act.isResolved(topic) ? 'Unresolved' : 'Resolved'} ${named}`);
      },
    },
    {
      label: 'Copy link to topic',
      run: async () => {
        const url = topicLink(streamId, topic);
        announce((await act.copyText(url)) ? 'Link copied.' : `Copy this link: ${url}`);
      },
    },
  ];
  return items.filter((i): i is Item => !!i);
}

function Menu({ streamId, topic, anchor, onClose }: { streamId: number; topic: string; anchor: HTMLElement; onClose: (refocus: boolean) => void }) {
  const ref = usePopover(anchor, () => onClose(false), () => onClose(true));
  useLayoutEffect(() => ref.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus(), []);
  const items = menuItems(streamId, topic, anchor);

  const choose = (item: Item) => {
    onClose(true);
    const done = item.run();
    if (done instanceof Promise) done.catch((err: Error) => announce(err.message));
  };

  const onKey = (e: KeyboardEvent) => onMenuKey(e, ref.current!, () => onClose(true));

  return (
    <div ref={ref} class="popover menu topic-menu" role="menu" aria-label={`Topic actions: ${where(streamId, topic)}`} onKeyDown={onKey}>
      {items.map((item) => (
        <button key={item.label} type="button" role="menuitem" tabIndex={-1} onClick={() => choose(item)}>
          {item.label}
        </button>
      ))}
    </div>
  );
}

/** The "⋮" button by a topic, and its menu while open. */
export function TopicMenu({ streamId, topic }: { streamId: number; topic: string }) {
  const button = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const label = `Topic actions for ${topicLabel(topic)}`;
  return (
    <>
      <button
        ref={button}
        type="button"
        class={`icon topic-menu-button${open ? ' open' : ''}`}
        aria-label={label}
        title="Topic actions"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        <DotsIcon size={16} />
      </button>
      {open && button.current && <Menu streamId={streamId} topic={topic} anchor={button.current} onClose={close} />}
    </>
  );
}
