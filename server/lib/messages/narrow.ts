/**
 * Narrows (Zulip's zerver/lib/narrow.py; the parameter's parsing: narrow-terms.ts): resolving
 * operands (BAD_NARROW for unknown operators, channels, users and operands),
 * a predicate per term, the most selective index to scan, and whether the
 * narrow may include history the user never received (ok_to_include_history).
 */
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import type { SortedIds } from '../../store/message-ids.js';
import { FLAG, MSG_BIT, WILDCARD_MENTION_BITS, conversationKey, type MessageRecord } from '../../store/message-records.js';
import type { UserRecord } from '../../store/records.js';
import { channelById, channelByName, subscriptionOf } from '../channels/access.js';
import { isGuest } from '../people/people.js';
import { canReadChannelHistory } from './access.js';
import { EMPTY_TOPIC_DISPLAY_NAME, LEGACY_EMPTY_TOPIC } from './format.js';
import { searchWords, wordMatcher } from './search.js';
import { topicPolicyLookup, unmutedInView, VISIBILITY } from '../topics/visibility.js';
import { userByKeyFor } from '../people/lookup.js';
import type { NarrowTerm } from './narrow-terms.js';
import { own } from '../own.js';
import { canonicalIn, OPERATOR_ALIASES } from '../../protocol/narrow-operators.js';

const badNarrow = errors.badNarrow;

/** An operator's canonical name (`stream` -> `channel`...); unknown ones as given. */
const canonical = (operator: string): string => canonicalIn(OPERATOR_ALIASES, operator);

/** Operators (after aliasing) that only channel messages, or only direct messages, can match. */
const CHANNEL_OPERATORS: ReadonlySet<string> = new Set(['channel', 'channels', 'topic']);
const DM_OPERATORS: ReadonlySet<string> = new Set(['dm', 'dm-including', 'group-pm-with']);

type Pred = (m: MessageRecord, flags: number | null) => boolean;

export interface CompiledNarrow {
  /** All predicates of the narrow hold (call with the viewer's flags, null without a row). */
  matches: Pred;
  includeHistory: boolean;
  /** The index list to scan (ascending), already as small as the narrow allows. */
  candidates: SortedIds;
  /** Search words, when the narrow searches (for highlighting). */
  searchWords: string[] | null;
  /** The message ID of a `near`/`id` term (an anchor hint). */
  near: number | null;
  /**
   * The channel of the narrow's first channel term, negated or not (Zulip's
   * get_channel_from_narrow_access_unchecked): muting is judged within it.
   */
  mutingChannelId: number | null;
}

const operandString = (t: NarrowTerm): string => {
  if (typeof t.operand === 'string') return t.operand;
  if (typeof t.operand === 'number') return String(t.operand);
  throw badNarrow(`invalid operand for ${t.operator}`);
};

/** A user the viewer may name, by ID or address (hidden addresses and people are unknown, as in lookup.ts). */
function resolveUser(app: App, viewer: UserRecord | null, operand: unknown): UserRecord {
  const u = typeof operand === 'number' || typeof operand === 'string' ? userByKeyFor(app, viewer, operand) : undefined;
  if (!u) throw badNarrow(`unknown user ${String(operand)}`);
  return u;
}

function resolveUsers(app: App, viewer: UserRecord | null, operand: unknown): number[] {
  if (Array.isArray(operand)) {
    if (!operand.every((x) => typeof x === 'number')) throw badNarrow('invalid user ID list');
    return operand.map((id) => resolveUser(app, viewer, id).id);
  }
  if (typeof operand === 'number') return [resolveUser(app, viewer, operand).id];
  if (typeof operand !== 'string') throw badNarrow('invalid dm operand');
  return operand
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => resolveUser(app, viewer, s).id);
}

function resolveChannelId(app: App, t: NarrowTerm): number {
  const s = operandString(t);
  const byId = /^\d+$/.test(s) ? channelById(app, Number(s)) : undefined;
  const c = byId ?? channelByName(app, s);
  if (!c) throw badNarrow(`unknown channel ${s}`);
  return c.id;
}

const topicOperand = (s: string) => (s === LEGACY_EMPTY_TOPIC || s === EMPTY_TOPIC_DISPLAY_NAME ? '' : s).toLowerCase();
const messageIdOperand = (t: NarrowTerm): number => {
  const s = operandString(t);
  if (!/^\d+$/.test(s)) throw badNarrow(`invalid message ID ${s}`);
  return Number(s);
};

/**
 * Compiles a narrow for a viewer: `with` is replaced by the conversation of its
 * message (when readable), operands are resolved, and predicates built.
 */
export function compileNarrow(app: App, user: UserRecord | null, input: NarrowTerm[]): CompiledNarrow {
  const store = app.store.messages;
  /** The viewer, for the operators only a logged-in user has (the view keeps spectators away from them). */
  const me = (): UserRecord => {
    if (!user) throw errors.unauthorized();
    return user;
  };
  const preds: Pred[] = [];
  const lists: SortedIds[] = [];
  let includeHistory = false;
  let usesUserFlags = false;
  let words: string[] | null = null;
  let near: number | null = null;
  let channelId: number | null = null;
  let mutingChannelId: number | null = null;
  let topic: string | null = null;
  const terms = input.map((t) => ({ ...t, operator: canonical(t.operator) }));
  // Zulip's check_not_both_channel_and_dm_narrow (negated terms do not count).
  const positive = terms.filter((t) => !t.negated);
  const isDm = (t: NarrowTerm) => DM_OPERATORS.has(t.operator) || (t.operator === 'is' && (t.operand === 'dm' || t.operand === 'private'));
  if (positive.some((t) => CHANNEL_OPERATORS.has(t.operator)) && positive.some(isDm)) {
    throw badNarrow('No message can be both a channel message and direct message');
  }

  for (const t of terms) {
    let pred: Pred;
    switch (t.operator) {
      case 'channel': {
        const id = resolveChannelId(app, t);
        pred = (m) => m.stream_id === id;
        mutingChannelId ??= id;
        if (!t.negated) {
          channelId = id;
          if (canReadChannelHistory(app, user, channelById(app, id)!)) includeHistory = true;
        }
        break;
      }
      case 'channels': {
        const s = operandString(t);
        if (s === 'archived') {
          // Zulip 12 (feature level 489): messages the user received in archived channels (never shared history).
          pred = (m) => m.stream_id !== null && channelById(app, m.stream_id)?.is_archived === true;
          break;
        }
        if (s !== 'public' && s !== 'web-public') throw badNarrow(`unknown channels operand ${s}`);
        const webOnly = s === 'web-public';
        const ok = new Set(
          app.store.channels.data.channels.filter((c) => !c.invite_only && (!webOnly || c.is_web_public)).map((c) => c.id),
        );
        pred = (m) => m.stream_id !== null && ok.has(m.stream_id);
        if (!t.negated && user !== null && !isGuest(user)) includeHistory = true;
        break;
      }
      case 'topic': {
        const key = topicOperand(operandString(t));
        pred = (m) => m.stream_id !== null && m.topic.toLowerCase() === key;
        if (!t.negated) topic = key;
        break;
      }
      case 'dm': {
        const ids = [...new Set([...resolveUsers(app, user, t.operand), me().id])].sort((a, b) => a - b);
        const key = conversationKey(ids);
        pred = (m) => m.dm !== undefined && conversationKey(m.dm) === key;
        if (!t.negated) lists.push(store.conversation(key));
        break;
      }
      case 'dm-including': {
        const id = resolveUser(app, user, t.operand).id;
        pred = (m) => m.dm !== undefined && m.dm.includes(id);
        if (!t.negated) lists.push(store.directOf(me().id));
        break;
      }
      case 'group-pm-with': {
        // Deprecated by dm-including, and narrower: group conversations (three or more people) only.
        const id = resolveUser(app, user, t.operand).id;
        pred = (m) => m.dm !== undefined && m.dm.length > 2 && m.dm.includes(id);
        if (!t.negated) lists.push(store.directOf(me().id));
        break;
      }
      case 'mentions': {
        // Zulip 12 (feature level 446): a visible personal mention of the user (not silent, not a wildcard or group).
        const needle = `<span class="user-mention" data-user-id="${resolveUser(app, user, t.operand).id}">`;
        pred = (m) => m.rendered !== undefined && m.rendered.includes(needle);
        break;
      }
      case 'sender': {
        const s = t.operand === 'me' ? me().id : resolveUser(app, user, t.operand).id;
        pred = (m) => m.sender_id === s;
        if (!t.negated) lists.push(store.sender(s));
        break;
      }
      case 'is': {
        const s = operandString(t);
        pred = isPredicate(app, me(), s);
        if (!['resolved', 'followed'].includes(s)) usesUserFlags = true;
        if (!t.negated && s === 'starred') lists.push(store.starred(me().id));
        if (!t.negated && s === 'unread') lists.push(store.unread(me().id));
        if (!t.negated && (s === 'dm' || s === 'private')) lists.push(store.directOf(me().id));
        break;
      }
      case 'has': {
        const s = operandString(t);
        const bit = own({ link: MSG_BIT.has_link, image: MSG_BIT.has_image, attachment: MSG_BIT.has_attachment }, s);
        if (bit !== undefined) pred = (m) => ((m.bits ?? 0) & bit) !== 0;
        else if (s === 'reaction') pred = (m) => (m.reactions?.length ?? 0) > 0;
        else throw badNarrow(`unknown 'has' operand ${s}`);
        break;
      }
      case 'in': {
        const s = operandString(t);
        if (s === 'all') pred = () => true;
        // Zulip's exclude_muting_conditions with no narrow: muted topics and (unless the topic is unmuted or followed) muted channels.
        else if (s === 'home') pred = unmutedInView(app, me(), null);
        else throw badNarrow(`unknown 'in' operand ${s}`);
        break;
      }
      case 'search': {
        const w = searchWords(operandString(t));
        pred = wordMatcher(w);
        if (!t.negated) {
          words = [...(words ?? []), ...w];
          // The word index narrows the candidates (a superset; the predicate still checks each).
          const indexed = store.search.candidates(w);
          if (indexed) lists.push(indexed);
        }
        break;
      }
      case 'id': {
        const id = messageIdOperand(t);
        pred = (m) => m.id === id;
        if (!t.negated) near = id;
        break;
      }
      case 'near':
        near = messageIdOperand(t);
        continue;
      case 'with':
        messageIdOperand(t);
        continue; // resolved by withConversation() before compiling
      default:
        throw badNarrow(`unknown operator ${t.operator}`);
    }
    preds.push(t.negated ? (m, f) => !pred(m, f) : pred);
  }
  if (channelId !== null) lists.push(topic !== null ? store.topic(channelId, topic) : store.channel(channelId));
  if (usesUserFlags) includeHistory = false;
  lists.push(includeHistory || !user ? store.allIds : store.userMessages(user.id));
  const candidates = lists.reduce((a, b) => (b.length < a.length ? b : a));
  return {
    matches: (m, f) => preds.every((p) => p(m, f)),
    includeHistory,
    candidates,
    searchWords: words,
    near,
    mutingChannelId,
  };
}

function isPredicate(app: App, user: UserRecord, s: string): Pred {
  const flag = (bits: number): Pred => (_m, f) => f !== null && (f & bits) !== 0;
  switch (s) {
    case 'dm':
    case 'private':
      return (m) => m.stream_id === null;
    case 'starred':
      return flag(FLAG.starred);
    case 'unread':
      return (_m, f) => f !== null && (f & FLAG.read) === 0;
    case 'mentioned':
      return flag(FLAG.mentioned | WILDCARD_MENTION_BITS);
    case 'alerted':
      return flag(FLAG.has_alert_word);
    case 'resolved':
      return (m) => m.stream_id !== null && m.topic.startsWith('✔ ');
    case 'followed': {
      const policy = topicPolicyLookup(user);
      return (m) => m.stream_id !== null && policy(m.stream_id, m.topic) === VISIBILITY.FOLLOWED;
    }
    case 'muted':
      return (m) => m.stream_id !== null && subscriptionOf(app, user.id, m.stream_id)?.is_muted === true;
    default:
      throw badNarrow(`unknown 'is' operand ${s}`);
  }
}

/** Zulip's can_narrow_define_conversation: a `dm` term, or both a channel and a topic. */
function definesConversation(terms: NarrowTerm[]): boolean {
  const ops = new Set(terms.map((t) => canonical(t.operator)));
  return ops.has('dm') || (ops.has('channel') && ops.has('topic'));
}

/**
 * Zulip's `with` operator: the narrow becomes the conversation of that message
 * (its channel and topic, or its direct conversation) when the user may read it.
 */
export function withConversation(
  app: App,
  terms: NarrowTerm[],
  canRead: (m: MessageRecord) => boolean,
): NarrowTerm[] {
  const withTerms = terms.filter((t) => t.operator === 'with');
  if (withTerms.length > 1) throw errors.badNarrowCombination("Duplicate 'with' operators.");
  const w = withTerms[0];
  if (!w) return terms;
  const id = Number(typeof w.operand === 'number' ? w.operand : String(w.operand));
  const m = Number.isSafeInteger(id) ? app.store.messages.get(id) : undefined;
  const rest = terms.filter((t) => t !== w);
  if (!m || !canRead(m)) {
    // Zulip: an unreadable message leaves a narrow that names a conversation by itself; any other is refused.
    if (definesConversation(rest)) return rest;
    throw badNarrow("Invalid 'with' operator");
  }
  const kept = rest.filter((t) => !['channel', 'stream', 'topic', 'subject', 'dm', 'pm-with'].includes(t.operator));
  if (m.stream_id !== null) {
    return [
      { operator: 'channel', operand: m.stream_id, negated: false },
      { operator: 'topic', operand: m.topic, negated: false },
      ...kept,
    ];
  }
  return [{ operator: 'dm', operand: m.dm ?? [m.sender_id], negated: false }, ...kept];
}

/** Operators a spectator may use (Zulip's is_spectator_compatible). */
const SPECTATOR_OPERATORS: ReadonlySet<string> = new Set(['channel', 'channels', 'topic', 'sender', 'has', 'search', 'near', 'id', 'with']);

/**
 * A logged-out fetch needs a narrow of spectator-compatible operators naming a
 * web-public channel (or `channels:web-public`); otherwise it needs a login.
 */
export function checkSpectatorNarrow(app: App, terms: NarrowTerm[]): void {
  let webPublic = false;
  for (const t of terms) {
    const op = canonical(t.operator);
    if (!SPECTATOR_OPERATORS.has(op)) throw errors.unauthorized();
    if (t.negated) continue;
    if (op === 'channels' && t.operand === 'web-public') webPublic = true;
    if (op === 'channel') {
      const c = typeof t.operand === 'number' || /^\d+$/.test(String(t.operand))
        ? channelById(app, Number(t.operand))
        : channelByName(app, String(t.operand));
      if (c?.is_web_public) webPublic = true;
    }
  }
  if (!webPublic) throw errors.unauthorized();
}
