/**
 * Search: the box in the top bar (Zulip's operators, search.ts) and the results view,
 * grouped by conversation, each heading and each message's time a link that opens the
 * conversation at that message. The search lives in the hash (`#narrow/…/search/word`), so it
 * can be shared and Back returns to it; Escape or "Close search" go back to where the person was.
 * On phones (720 px and less) the box waits behind a "Search" button in the top bar and opens over
 * the bar (`searchOpen`); Escape, its close button, a search, or focus going elsewhere close it.
 */
import { Reactions } from '../messages/MessageItem.js';
import { signal } from '@preact/signals';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { conversationKey } from '../../../server/protocol/conversation-keys.js';
import { CondensedContent } from '../messages/condense.js';
import { sanitize } from '../messages/html.js';
import { dmPeers, hashOf } from '../store/narrow.js';
import { beforeSearch, go, href, view, viewOfHash } from '../store/router.js';
import { parseSearch, unparseSearch, type SearchTerm } from './search-terms.js';
import { searchSuggestions } from './search-suggest.js';
import { olderResults, openSearch, searchKey, type Result, type SearchView } from './search-feed.js';
import { useSelection } from '../messages/selection.js';
import { channelName, store, topicLabel, userName } from '../store/state.js';
import { dayOf, fullTimeOf, isoOf, timeOf } from '../ui/time.js';

/** The search box open over the top bar (phones only: wider, it is always there). */
export const searchOpen = signal(false);

/** Opens the search box (on phones) and puts the keyboard in it, its text selected (the / key). */
export function openSearchBox(): void {
  const focus = () => {
    const box = document.querySelector<HTMLInputElement>('[role="search"] input');
    box?.focus();
    box?.select();
  };
  const shown = document.querySelector('[role="search"] input')?.getClientRects().length;
  if (shown) return focus();
  // A phone's closed box: shown once the signal's update is drawn.
  searchOpen.value = true;
  requestAnimationFrame(focus);
}

/** Closes the phone's search box; `focusButton`: the keyboard back to the top bar's Search button. */
function closeSearchBox(focusButton: boolean): void {
  if (!searchOpen.peek()) return;
  searchOpen.value = false;
  if (focusButton) document.querySelector<HTMLElement>('.topbar .search-toggle')?.focus();
}

/** The phones' Search button in the top bar (hidden wider than 720 px, where the box is always shown). */
export function SearchToggle() {
  return (
    <button
      type="button"
      class="search-toggle"
      aria-expanded={searchOpen.value}
      aria-controls="search-box"
      aria-keyshortcuts="/"
      onClick={() => (searchOpen.value ? closeSearchBox(false) : openSearchBox())}
    >
      <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round">
        <circle cx="8.5" cy="8.5" r="5.5" />
        <path d="m13 13 4.5 4.5" />
      </svg>
      <span class="visually-hidden">Search</span>
    </button>
  );
}

export function leaveSearch(): void {
  go(beforeSearch.peek());
  document.getElementById('main')?.focus({ preventScroll: true });
}

export function SearchBox() {
  const v = view.value;
  const current = v.kind === 'search' ? unparseSearch(v.terms) : '';
  const [text, setText] = useState(current);
  const box = useRef<HTMLInputElement>(null);
  // The box follows the view (Back, Forward, a link) in the same frame as the results.
  useLayoutEffect(() => setText(current), [current]);

  function submit(e: Event) {
    e.preventDefault();
    const terms = parseSearch(text);
    if (!terms.length) {
      if (v.kind === 'search') leaveSearch();
      return;
    }
    // A search that names a view (`is:starred`, `channel:5`) opens that view, as its link would.
    go(viewOfHash(hashOf({ kind: 'search', terms })));
    searchOpen.value = false;
    box.current?.blur();
    document.getElementById('main')?.focus({ preventScroll: true });
  }

  return (
    <form
      id="search-box"
      role="search"
      aria-label="Search messages"
      class={`search-box${searchOpen.value ? ' open' : ''}`}
      onSubmit={submit}
      onFocusOut={(e) => {
        // Focus gone elsewhere on the page (not the window left): the phone's box closes.
        const to = e.relatedTarget as Node | null;
        if (to && !e.currentTarget.contains(to)) closeSearchBox(false);
      }}
    >
      <input
        ref={box}
        type="search"
        aria-label="Search"
        placeholder="Search"
        aria-keyshortcuts="/"
        enterKeyHint="search"
        autoComplete="off"
        spellcheck={false}
        list="search-suggestions"
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Escape') return;
          e.preventDefault();
          setText('');
          box.current?.blur();
          if (searchOpen.peek()) {
            // A phone's box closes back to its button, the view unchanged.
            closeSearchBox(true);
            return;
          }
          if (v.kind === 'search') leaveSearch();
          else document.getElementById('main')?.focus({ preventScroll: true });
        }}
      />
      <button type="button" class="search-close" onClick={() => closeSearchBox(true)}>
        <span aria-hidden="true">✕</span>
        <span class="visually-hidden">Close the search box</span>
      </button>
      <datalist id="search-suggestions">
        {searchSuggestions(text).map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
    </form>
  );
}

/** "channel: general", "not sender: me", "words: pizza" */
function termLabel(t: SearchTerm): string {
  const op = t.operator === 'search' ? 'words' : t.operator;
  return `${t.negated ? 'not ' : ''}${op}: ${t.operand || '(none)'}`;
}


/** The message's conversation, opened at the message (`/near/ID`). */
const inContext = (m: Result) =>
  href(m.type === 'stream' ? { kind: 'topic', streamId: m.stream_id!, topic: m.subject, near: m.id } : { kind: 'dm', userIds: dmPeers(m, store.selfId.value), near: m.id });

function Heading({ m }: { m: Result }) {
  if (m.type === 'stream') {
    // The server's topic with its highlights (escaped HTML), else the topic, escaped here.
    const topic = m.match_subject || topicLabel(m.subject).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    return (
      <a class="conv-heading" href={inContext(m)}>
        #{channelName(m.stream_id!)} &gt; <span dangerouslySetInnerHTML={{ __html: sanitize(topic) }} />
      </a>
    );
  }
  const ids = dmPeers(m, store.selfId.value);
  return (
    <a class="conv-heading" href={inContext(m)}>
      Direct message with {ids.length ? ids.map(userName).join(', ') : 'yourself'}
    </a>
  );
}

function ResultItem({ m, first, unread }: { m: Result; first: boolean; unread: boolean }) {
  const name = m.sender_full_name || userName(m.sender_id);
  const at = inContext(m);
  const when = `${dayOf(m.timestamp)}, ${timeOf(m.timestamp)}`;
  return (
    <li class={`message result${first ? ' first' : ''}${unread ? ' unread' : ''}`} data-id={m.id}>
      <div class="sender">
        <img class="avatar" src={m.avatar_url ?? `/avatar/${m.sender_id}`} alt="" width={32} height={32} loading="lazy" />
        <span class="name">{name}</span>
        <a class="in-context" href={at} title={`${fullTimeOf(m.timestamp)}: open in the conversation`}>
          <time dateTime={isoOf(m.timestamp)}>{when}</time>
          <span class="visually-hidden">, open in the conversation</span>
        </a>
      </div>
      <CondensedContent id={m.id} html={sanitize(m.content)} />
      {m.flags.includes('starred') && <p class="marks">★ starred</p>}
      {/* Kept current by reaction events, like every loaded copy of a message (message-events.ts). */}
      <Reactions m={m} add={false} />
    </li>
  );
}

export function SearchResults({ v }: { v: SearchView }) {
  const key = searchKey(v);
  const feed = store.feeds.value.get(key);
  const results = (feed?.messages ?? []) as Result[];
  const scroller = useRef<HTMLDivElement>(null);
  const place = useRef<{ key: string; firstId: number; height: number; top: number } | null>(null);

  useEffect(() => {
    void openSearch(v);
  }, [key, store.ready.value && store.feeds.value.has(key) ? 1 : 0]);
  useSelection(key, scroller);

  // Newest results at the bottom, in view; older ones arriving above keep the reader's place.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !results.length) return;
    const p = place.current;
    if (!p || p.key !== key) el.scrollTop = el.scrollHeight;
    else if (p.firstId !== results[0]!.id) el.scrollTop = el.scrollHeight - p.height + p.top;
    place.current = { key, firstId: results[0]!.id, height: el.scrollHeight, top: el.scrollTop };
  }, [key, results[0]?.id, results.length]);

  const older = () => {
    const el = scroller.current;
    if (el && place.current) place.current = { ...place.current, height: el.scrollHeight, top: el.scrollTop };
    void olderResults(v);
  };

  const items: preact.ComponentChildren[] = [];
  let prev: Result | undefined;
  for (const m of results) {
    const newConv = !prev || conversationKey(prev) !== conversationKey(m);
    if (newConv) items.push(<li key={`c${m.id}`} class="conv">{<Heading m={m} />}</li>);
    const first = newConv || prev!.sender_id !== m.sender_id;
    items.push(<ResultItem key={m.id} m={m} first={first} unread={store.unread.value.has(m.id)} />);
    prev = m;
  }

  const n = results.length;
  return (
    <section class="pane feed search-results" aria-labelledby="search-title">
      <header class="feed-header">
        <h1 id="search-title">Search results</h1>
        <button type="button" onClick={leaveSearch}>
          Close search
        </button>
      </header>
      <ul class="search-terms" aria-label="Searching for">
        {v.terms.map((t, i) => (
          <li key={i} class={t.negated ? 'negated' : undefined}>
            {termLabel(t)}
          </li>
        ))}
      </ul>
      <div
        class="scroller"
        ref={scroller}
        tabIndex={0}
        aria-label="Search results"
        onScroll={(e) => e.currentTarget.scrollTop < 200 && feed && !feed.foundOldest && !feed.loading && older()}
      >
        {feed && !feed.foundOldest && n > 0 && (
          <p class="edge">
            <button type="button" class="link" onClick={older} disabled={feed.loading}>
              Show older results
            </button>
          </p>
        )}
        {feed?.foundOldest && n > 0 && <p class="edge">{n === 1 ? 'One message matches.' : `${n} messages match.`}</p>}
        {feed?.loading && (
          <p class="edge" role="status">
            Searching…
          </p>
        )}
        {feed?.error && (
          <p class="edge error" role="alert">
            {feed.error}
          </p>
        )}
        {feed && !feed.loading && !feed.error && n === 0 && (
          <p class="edge" role="status">
            No messages match this search.
          </p>
        )}
        <ol class="messages results">{items}</ol>
      </div>
    </section>
  );
}
