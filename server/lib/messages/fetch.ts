/**
 * GET /messages (Zulip's get_messages_backend with limit_query_to_range and
 * post_process_limited_query): walk the narrow's smallest index from the
 * anchor in both directions, keeping the messages the user may read that
 * match every term.
 */
import type { App } from '../../context.js';
import type { Message } from '../../protocol/message.js';
import { renderedOf, type MessageRecord } from '../../store/message-records.js';
import type { UserRecord } from '../../store/records.js';
import { canReadMessage } from './access.js';
import { formatForViewer, type FormatOptions } from './format.js';
import { compileNarrow, withConversation, type CompiledNarrow } from './narrow.js';
import type { NarrowTerm } from './narrow-terms.js';
import { highlighterFor, type Highlighter } from './search.js';
import { messageTopic } from './format.js';
import { escapeHtml } from '../../protocol/html.js';
import { unmutedInView } from '../topics/visibility.js';

/** Zulip's LARGER_THAN_MAX_MESSAGE_ID: the `newest` anchor. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;
export const MAX_MESSAGES_PER_FETCH = 5000;

export interface RangeRequest {
  /** null: the first unread message matching the narrow. */
  anchor: number | null;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
}

export interface PreparedNarrow {
  compiled: CompiledNarrow;
  /** Whether the user may see the message under this narrow (readable, and a row unless history is included). */
  accept(m: MessageRecord): boolean;
}

export function prepareNarrow(app: App, user: UserRecord | null, terms: NarrowTerm[]): PreparedNarrow {
  const cache = new Map<number, boolean>();
  const readable = (m: MessageRecord) => canReadMessage(app, user, m, cache);
  const compiled = compileNarrow(app, user, withConversation(app, terms, readable));
  const store = app.store.messages;
  return {
    compiled,
    accept(m) {
      if (!user) return m.stream_id !== null && readable(m) && compiled.matches(m, null);
      const flags = store.rowFlags(m, user.id);
      if (flags === null && (!compiled.includeHistory || !readable(m))) return false;
      return compiled.matches(m, flags);
    },
  };
}

/**
 * Zulip's find_first_unread_anchor: the oldest unread message of the narrow
 * that the view does not show as muted (exclude_muting_conditions).
 */
function firstUnread(app: App, user: UserRecord | null, n: PreparedNarrow): number {
  const store = app.store.messages;
  if (!user) return LARGER_THAN_MAX_MESSAGE_ID;
  const unmuted = unmutedInView(app, user, n.compiled.mutingChannelId);
  for (const id of store.unread(user.id)) {
    const m = store.get(id);
    if (m && n.accept(m) && unmuted(m)) return id;
  }
  return LARGER_THAN_MAX_MESSAGE_ID;
}

/** Adds `match_content` / `match_subject` for search narrows (`hl`: the request's highlighter, null without search words). */
export function withMatches(m: MessageRecord, dict: Pick<Message, 'match_content' | 'match_subject'>, hl: Highlighter | null, allowEmpty: boolean) {
  const topic = messageTopic(m, allowEmpty);
  if (!hl) {
    dict.match_content = renderedOf(m);
    dict.match_subject = escapeHtml(topic);
    return;
  }
  dict.match_content = hl.html(renderedOf(m));
  dict.match_subject = hl.text(topic);
}

export interface SelectedRange {
  anchor: number;
  rows: MessageRecord[];
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
  narrow: PreparedNarrow;
}

/** The messages of a range request under a narrow (GET /messages and POST /messages/flags/narrow). */
/** A range's scan holds the event loop at most this long at a time (a narrow that matches little reads every message). */
const SCAN_SLICE_MS = 10;

export async function selectRange(app: App, user: UserRecord | null, terms: NarrowTerm[], r: RangeRequest, readOnly = false): Promise<SelectedRange> {
  const store = app.store.messages;
  const n = prepareNarrow(app, user, terms);
  const anchor = r.anchor ?? firstUnread(app, user, n);
  const anchoredLeft = anchor === 0;
  const anchoredRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
  const list = n.compiled.candidates;
  const take = (id: number): MessageRecord | null => {
    // Only shown (`readOnly`): messages of old history read alone are not kept (a search may scan many).
    const m = readOnly ? store.peek(id) : store.get(id);
    return m && n.accept(m) ? m : null;
  };
  // Between slices other requests are served; positions are found again by ID (messages come and go meanwhile).
  let sliceEnd = performance.now() + SCAN_SLICE_MS;
  const pause = async (looked: number): Promise<boolean> => {
    if ((looked & 127) !== 0 || performance.now() < sliceEnd) return false;
    await new Promise((resolve) => setTimeout(resolve, 0));
    sliceEnd = performance.now() + SCAN_SLICE_MS;
    return true;
  };
  const before: MessageRecord[] = [];
  if (!anchoredLeft && r.numBefore > 0) {
    for (let i = list.lowerBound(anchor) - 1, looked = 1; i >= 0 && before.length < r.numBefore; i--, looked++) {
      const id = list.at(i);
      const m = take(id);
      if (m) before.push(m);
      if (await pause(looked)) i = list.lowerBound(id);
    }
  }
  before.reverse();
  let anchorRow: MessageRecord | null = null;
  if (r.includeAnchor && !anchoredRight && list.has(anchor)) anchorRow = take(anchor);
  const afterRows: MessageRecord[] = [];
  if (!anchoredRight && r.numAfter > 0) {
    for (let i = list.lowerBound(anchor + 1), looked = 1; i < list.length && afterRows.length < r.numAfter; i++, looked++) {
      const id = list.at(i);
      const m = take(id);
      if (m) afterRows.push(m);
      if (await pause(looked)) i = list.lowerBound(id + 1) - 1;
    }
  }
  return {
    anchor,
    rows: [...before, ...(anchorRow ? [anchorRow] : []), ...afterRows],
    foundAnchor: anchorRow !== null,
    foundOldest: anchoredLeft || before.length < r.numBefore,
    foundNewest: anchoredRight || afterRows.length < r.numAfter,
    narrow: n,
  };
}

export async function fetchRange(
  app: App,
  user: UserRecord | null,
  terms: NarrowTerm[],
  r: RangeRequest,
  format: FormatOptions,
): Promise<Record<string, unknown>> {
  const range = await selectRange(app, user, terms, r, true);
  const words = range.narrow.compiled.searchWords;
  const hl = highlighterFor(words);
  const messages = range.rows.map((m) => {
    const dict = formatForViewer(app, user, m, format);
    if (words) withMatches(m, dict, hl, format.allowEmptyTopicName);
    return dict;
  });
  return {
    anchor: range.anchor,
    found_anchor: range.foundAnchor,
    found_oldest: range.foundOldest,
    found_newest: range.foundNewest,
    history_limited: false,
    messages,
  };
}

/** `message_ids` fetches: the requested messages the user may see under the narrow, ascending. */
export function fetchByIds(
  app: App,
  user: UserRecord | null,
  terms: NarrowTerm[],
  ids: number[],
  format: FormatOptions,
): Record<string, unknown> {
  const n = prepareNarrow(app, user, terms);
  const words = n.compiled.searchWords;
  const hl = highlighterFor(words);
  const messages = [...new Set(ids)]
    .sort((a, b) => a - b)
    .map((id) => app.store.messages.get(id))
    .filter((m): m is MessageRecord => m !== undefined && n.accept(m))
    .map((m) => {
      const dict = formatForViewer(app, user, m, format);
      if (words) withMatches(m, dict, hl, format.allowEmptyTopicName);
      return dict;
    });
  // Zulip answers the found_* flags, always false: there is no anchor.
  return { messages, history_limited: false, found_anchor: false, found_oldest: false, found_newest: false };
}
