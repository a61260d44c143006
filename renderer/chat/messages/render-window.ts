/**
 * Long feeds stay light: at most WINDOW messages are in the page at once, to keep the page under
 * 2,000 DOM nodes with every message's tools (Zulip's web app
 * renders a window of 250; Campfire keeps about 300). Scrolling near an edge moves the
 * window by STEP messages, or fetches more from the server once the window reaches the
 * end of what is loaded. Whatever changes, the message the reader looks at stays put.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { beforeReload } from '../store/events.js';
import { loadMore, markSeen, resumePlaces } from './feeds.js';
import type { FeedView } from '../store/narrow.js';
import { store, type Feed, type Message } from '../store/state.js';

export const WINDOW = 70;
const STEP = 25;
const EDGE_PX = 300;

interface Win {
  /** Following the newest messages (the window ends at the last one loaded). */
  follow: boolean;
  /** Otherwise: the first message in the window. */
  startId: number;
}

export interface RenderWindow {
  shown: Message[];
  /** More loaded (or loadable) messages below the window, or the reader is a screen or more above the newest: show "Jump to newest". */
  hiddenBelow: boolean;
  /** Messages from others that arrived while the reader was not at the bottom. */
  newBelow: number;
  onScroll: () => void;
  jumpToNewest: () => void;
}

export function useRenderWindow(
  v: FeedView,
  feedKey: string,
  feed: Feed | undefined,
  scroller: { current: HTMLDivElement | null },
  firstUnread: (messages: Message[]) => Message | undefined,
): RenderWindow {
  const messages = feed?.messages ?? [];
  const [win, setWin] = useState<Win>({ follow: true, startId: 0 });
  const positioned = useRef(false);
  const atBottom = useRef(true);
  const keep = useRef<{ id: number; offset: number } | null>(null);
  /** "Jump to newest" was pressed: the bottom wins over any place held, until the newest is shown. */
  const jumping = useRef(false);
  const [far, setFar] = useState(false);
  const [newBelow, setNewBelow] = useState(0);
  const newestSeen = useRef(0);
  /** Whether the feed had its newest messages before the latest change (a newer page that ends the history is not news). */
  const hadNewest = useRef(false);

  useEffect(() => {
    positioned.current = false;
    jumping.current = false;
    setFar(false);
    setNewBelow(0);
    newestSeen.current = 0;
    hadNewest.current = false;
    setWin({ follow: true, startId: 0 });
  }, [feedKey]);

  // The list made shorter (a phone's compose box opening when first used, the keyboard coming up):
  // a reader at the newest messages stays there, instead of the newest going out of view below.
  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    let height = el.clientHeight;
    const watch = new ResizeObserver(() => {
      if (el.clientHeight < height && atBottom.current) el.scrollTop = el.scrollHeight;
      height = el.clientHeight;
    });
    watch.observe(el);
    return () => watch.disconnect();
  }, [feedKey]);

  // Count what others send while the reader is elsewhere in the feed.
  const newest = messages[messages.length - 1];
  useEffect(() => {
    const had = hadNewest.current;
    hadNewest.current = feed?.foundNewest === true;
    if (!newest) return;
    const before = newestSeen.current;
    newestSeen.current = Math.max(before, newest.id);
    // Only messages that arrived live: the feed already had the newest before them.
    if (!before || newest.id <= before || atBottom.current || !had) return;
    const arrived = messages.filter((m) => m.id > before && m.sender_id !== store.selfId.value && !m.pending).length;
    if (arrived) setNewBelow((n) => n + arrived);
  }, [newest?.id, feed?.foundNewest]);

  const len = messages.length;
  let start = win.follow ? Math.max(0, len - WINDOW) : messages.findIndex((m) => m.id >= win.startId);
  if (start < 0) start = Math.max(0, len - WINDOW);
  const end = Math.min(len, start + WINDOW);
  const shown = messages.slice(start, end);

  /** Remembers the first message on screen and where it is, to put it back after a change. */
  function holdPlace(): void {
    const el = scroller.current;
    if (!el) return;
    for (const li of el.querySelectorAll<HTMLElement>('li.message')) {
      if (li.offsetTop + li.offsetHeight > el.scrollTop) {
        keep.current = { id: Number(li.dataset.id), offset: li.offsetTop - el.scrollTop };
        return;
      }
    }
  }

  // A re-register is about to clear the feeds: note where the reader is, to come back there.
  useEffect(() => {
    const note = () => {
      const el = scroller.current;
      if (!el) return;
      // The reloaded feed is positioned afresh: from this place.
      positioned.current = false;
      if (atBottom.current) return void resumePlaces.set(feedKey, { id: 0, offset: 0, bottom: true });
      holdPlace();
      if (keep.current) resumePlaces.set(feedKey, { ...keep.current, bottom: false });
      keep.current = null;
    };
    beforeReload.add(note);
    return () => void beforeReload.delete(note);
  }, [feedKey]);

  function moveUp(): boolean {
    if (start === 0) return false;
    holdPlace();
    setWin({ follow: false, startId: messages[Math.max(0, start - STEP)]!.id });
    return true;
  }

  function moveDown(): boolean {
    if (end >= len) return false;
    holdPlace();
    const next = start + STEP;
    setWin(next + WINDOW >= len ? { follow: true, startId: 0 } : { follow: false, startId: messages[next]!.id });
    return true;
  }

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !shown.length) return;
    if (jumping.current) {
      // Once: later pages (loaded as the reader stays at the bottom) follow through atBottom; a failed
      // load or a scroll up must not pull the reader back down.
      jumping.current = false;
      el.scrollTop = el.scrollHeight;
      keep.current = null;
    } else if (!positioned.current) {
      positioned.current = true;
      // Back after a re-register: the reader's place, as it was.
      const resume = resumePlaces.get(feedKey);
      resumePlaces.delete(feedKey);
      const held = resume && !resume.bottom ? el.querySelector<HTMLElement>(`[data-id="${resume.id}"]`) : null;
      if (resume?.bottom || held) {
        el.scrollTop = held ? held.offsetTop - resume!.offset : el.scrollHeight;
        atBottom.current = resume!.bottom;
        return;
      }
      const target = firstUnread(shown);
      const li = target && el.querySelector<HTMLElement>(`[data-id="${target.id}"]`);
      el.scrollTop = li ? Math.max(0, li.offsetTop - 80) : el.scrollHeight;
    } else if (keep.current) {
      const li = el.querySelector<HTMLElement>(`[data-id="${keep.current.id}"]`);
      if (li) el.scrollTop = li.offsetTop - keep.current.offset;
      keep.current = null;
    } else if (atBottom.current && win.follow) {
      el.scrollTop = el.scrollHeight;
    }
    // Older messages arrived while the reader waits at the top: bring them in, in a task of its
    // own (one window move per task keeps each under the 100 ms a person notices).
    if (el.scrollTop < EDGE_PX && start > 0) setTimeout(() => el.dispatchEvent(new Event('scroll')), 0);
  }, [shown[0]?.id, shown[shown.length - 1]?.id, shown.length, len]);

  function onScroll(): void {
    const el = scroller.current!;
    const below = el.scrollHeight - el.scrollTop - el.clientHeight;
    atBottom.current = below < 40;
    setFar(below > el.clientHeight);
    if (atBottom.current && end >= len && feed?.foundNewest && document.visibilityState === 'visible') {
      setNewBelow(0);
      // At the very bottom of everything: the whole view counts as read (Zulip's process_scrolled_to_bottom),
      // also what was scrolled past too fast to be seen, or is taller than the screen.
      markSeen(messages.filter((m) => store.unread.value.has(m.id)).map((m) => m.id), v);
    }
    if (el.scrollTop < EDGE_PX && !moveUp()) {
      holdPlace();
      void loadMore(v, 'older');
    }
    if (el.scrollHeight - el.scrollTop - el.clientHeight < EDGE_PX && !moveDown() && !feed?.foundNewest) void loadMore(v, 'newer');
  }

  function jumpToNewest(): void {
    atBottom.current = true;
    jumping.current = true;
    keep.current = null;
    setWin({ follow: true, startId: 0 });
    // The window may already end at the newest (nothing to re-render): go there now.
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
    if (!feed?.foundNewest) void loadMore(v, 'newer');
  }

  return { shown, hiddenBelow: end < len || feed?.foundNewest === false || far, newBelow, onScroll, jumpToNewest };
}
