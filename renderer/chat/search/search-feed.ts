/**
 * Search results (`GET /messages` with the search view's terms): newest first fetched, older
 * ones on demand. With words, the server returns `match_content` / `match_subject` with
 * `<span class="highlight">` around the matches; those are shown instead of the content and
 * topic. Results sit in the store's feeds like any feed, so flag, reaction and edit events
 * reach them; new messages are not added (as in Zulip, a search is a snapshot).
 */
import type { MessagesAnswer } from '../../../server/protocol/messages-answer.js';
import { ApiError, get } from '../store/api.js';
import { hashOf, type View } from '../store/narrow.js';
import { hasWords, searchNarrow } from './search-terms.js';
import { store, updateFeed, type Message } from '../store/state.js';

export type SearchView = Extract<View, { kind: 'search' }>;

/** A result: a message, with the server's highlighted topic when the search had words. */
export interface Result extends Message {
  match_subject?: string;
}

const PAGE = 50;

export const searchKey = (v: SearchView) => hashOf(v);

function fetchResults(v: SearchView, anchor: string, before: number): Promise<MessagesAnswer> {
  return get<MessagesAnswer>('/messages', {
    anchor,
    num_before: before,
    num_after: 0,
    include_anchor: anchor === 'newest',
    narrow: searchNarrow(v.terms),
    apply_markdown: true,
    client_gravatar: false,
  });
}

const asResults = (res: MessagesAnswer, words: boolean): Result[] =>
  res.messages.map(({ match_content, match_subject, ...m }) => ({
    ...m,
    reactions: m.reactions ?? [],
    content: words && match_content !== undefined ? match_content : m.content,
    match_subject: words ? match_subject : undefined,
  }));

/** A message the person can act on, from an error the server gave. */
export function searchError(err: unknown): string {
  if (err instanceof ApiError && err.code === 'BAD_NARROW') return `This search cannot be run: ${err.message.replace(/^Invalid narrow operator: /, '')}.`;
  return (err as Error).message;
}

/** Fetches the newest results the first time the search is shown (again after a re-register). */
export async function openSearch(v: SearchView): Promise<void> {
  const key = searchKey(v);
  const f = store.feeds.value.get(key);
  if (f && (f.loading || f.messages.length || f.foundOldest)) return;
  updateFeed(key, (x) => ({ ...x, loading: true, error: null }));
  try {
    const res = await fetchResults(v, 'newest', PAGE);
    updateFeed(key, (x) => ({ ...x, messages: asResults(res, hasWords(v.terms)), foundOldest: res.found_oldest, foundNewest: true, loading: false }));
  } catch (err) {
    // A refused search stays refused; a network failure is tried again when the search is shown again.
    const refused = err instanceof ApiError && err.status === 400;
    updateFeed(key, (x) => ({ ...x, loading: false, foundOldest: refused, error: searchError(err) }));
  }
}

/** Fetches older results (scrolling up, or the "Show older results" button). */
export async function olderResults(v: SearchView): Promise<void> {
  const key = searchKey(v);
  const f = store.feeds.value.get(key);
  if (!f || f.loading || f.foundOldest || !f.messages.length) return;
  updateFeed(key, (x) => ({ ...x, loading: true }));
  try {
    const res = await fetchResults(v, String(f.messages[0]!.id), PAGE * 2);
    const older = asResults(res, hasWords(v.terms)).filter((m) => m.id < f.messages[0]!.id);
    updateFeed(key, (x) => ({ ...x, messages: [...older, ...x.messages], foundOldest: res.found_oldest, loading: false }));
  } catch (err) {
    updateFeed(key, (x) => ({ ...x, loading: false, error: searchError(err) }));
  }
}
