/**
 * The messages area: register's message sections, and the `message` and `delete_message`
 * queue filters. The send action emits one internal `message` event (server/lib/messages/events.ts);
 * the filter turns it into each queue's client event (Zulip's process_message_event): only
 * recipients, plus `all_public_streams` queues for public channels; the queue's `narrow`;
 * `apply_markdown`, `client_gravatar` and the `empty_topic_name` capability; the user's flags;
 * `local_message_id` for the sending queue. Dicts are shared between queues with the same
 * options, so 5,000 queues cost a few dicts, not 5,000.
 */
import type { App } from '../context.js';
import type { EventQueue, QueueNarrow } from '../events/queue.js';
import type { StateSection } from '../events/state.js';
import { BULK_FORM, MESSAGE_PAYLOAD, type ClientEvent, type EventOf, type MessageClientEvent } from '../events/types.js';
import { EMPTY_TOPIC_DISPLAY_NAME, formatMessage } from '../lib/messages/format.js';
import { compileNarrow, type CompiledNarrow } from '../lib/messages/narrow.js';
import { termsFromPairs, type NarrowTerm } from '../lib/messages/narrow-terms.js';
import { recentPrivateConversations, unreadMessages } from '../lib/messages/unreads.js';
import { canSeeEmail, isGuest } from '../lib/people/people.js';
import { flagNames } from '../store/message-records.js';
import type { UserRecord } from '../store/records.js';

/** `max_message_id`: the newest message the user received (-1 when none). */
const maxMessageSection: StateSection = {
  wants: ['message'],
  fetch: ({ app, user }) => ({ max_message_id: user ? app.store.messages.maxMessageIdOf(user.id) || -1 : -1 }),
};

/** `unread_msgs` (Zulip sends it when both `message` and `update_message_flags` are wanted). */
const unreadSection: StateSection = {
  wants: ['update_message_flags'],
  alsoWhen: (want) => want('message'),
  fetch({ app, user, queue }) {
    if (!user) return {};
    return { unread_msgs: unreadMessages(app, user, queue.clientCapabilities.empty_topic_name === true) };
  },
};

const recentPrivateSection: StateSection = {
  wants: ['recent_private_conversations'],
  fetch: ({ app, user }) => ({ recent_private_conversations: user ? recentPrivateConversations(app, user) : [] }),
};

const starredSection: StateSection = {
  wants: ['starred_messages'],
  fetch: ({ app, user }) => ({ starred_messages: user ? app.store.messages.starred(user.id).toArray() : [] }),
};

const emptyTopicNameSection: StateSection = {
  wants: ['realm'],
  fetch: () => ({ realm_empty_topic_display_name: EMPTY_TOPIC_DISPLAY_NAME }),
};

export const sections = [maxMessageSection, unreadSection, recentPrivateSection, starredSection, emptyTopicNameSection];

/** Whether a queue narrow reads the user's muting or following (in:home, is:followed), which a compiled narrow snapshots. */
const readsUserPolicies = (terms: NarrowTerm[]) =>
  terms.some((t) => t.operator === 'in' || (t.operator === 'is' && t.operand === 'followed'));

/**
 * The queue's narrow compiled, once per queue (`queue.compiledNarrow`). Register stored it
 * as string pairs (server/lib/messages/narrow-terms.ts); one that does not resolve (or no
 * longer does) matches nothing: null.
 */
function queueNarrow(app: App, queue: EventQueue, user: UserRecord): QueueNarrow | null {
  if (queue.compiledNarrow !== undefined) return queue.compiledNarrow;
  const terms = termsFromPairs(queue.opts.narrow);
  let c: CompiledNarrow | null = null;
  try {
    c = compileNarrow(app, user, terms);
  } catch {
    c = null;
  }
  // Those are compiled afresh for each event, so later mutes and follows count.
  if (!readsUserPolicies(terms)) queue.compiledNarrow = c;
  return c;
}

function filterMessageEvent(app: App, queue: EventQueue, event: EventOf<'message'>): MessageClientEvent | null {
  const p = event[MESSAGE_PAYLOAD];
  const userId = queue.userId;
  if (userId === null) return null;
  const flags = p.flags.get(userId);
  if (flags === undefined && !(p.publicChannel && queue.opts.allPublicStreams)) return null;
  const user = app.store.users.get(userId);
  if (!user || (flags === undefined && isGuest(user))) return null;
  if (queue.opts.narrow.length) {
    const n = queueNarrow(app, queue, user);
    if (!n || !n.matches(p.message, flags ?? null)) return null;
  }
  const allowEmpty = queue.capability('empty_topic_name');
  const variant = `${queue.opts.applyMarkdown ? 1 : 0}${allowEmpty ? 1 : 0}`;
  const sending = p.localId !== null && p.senderQueueId === queue.id;
  // Queues of one user with the same options get the very same event object (it is never mutated).
  const perUser = `${userId}:${variant}`;
  const shared = sending ? undefined : p.events.get(perUser);
  if (shared) return shared;
  const sender = app.store.users.get(p.message.sender_id);
  const emailVisible = sender ? canSeeEmail(app, user, sender) : true;
  const key = `${variant}${emailVisible ? 1 : 0}`;
  let dict = p.cache.get(key);
  if (!dict) {
    dict = formatMessage(app, user, p.message, {
      applyMarkdown: queue.opts.applyMarkdown,
      clientGravatar: queue.opts.clientGravatar,
      allowEmptyTopicName: allowEmpty,
    });
    p.cache.set(key, dict);
  }
  let names = p.flagLists.get(flags ?? 0);
  if (!names) p.flagLists.set(flags ?? 0, (names = flagNames(flags ?? 0)));
  const out: MessageClientEvent = { type: 'message', message: dict, flags: names };
  if (sending) out.local_message_id = p.localId;
  else p.events.set(perUser, out);
  return out;
}

/**
 * `delete_message` events (server/actions/message-delete-events.ts emits both of Zulip's
 * forms): each queue sees only its form (`bulk_message_deletion`), and the empty topic as
 * `realm_empty_topic_display_name` without the `empty_topic_name` capability.
 */
function filterDeleteMessageEvent(queue: EventQueue, event: EventOf<'delete_message'>): ClientEvent | null {
  const bulk = event[BULK_FORM];
  if (bulk !== undefined && bulk !== queue.capability('bulk_message_deletion')) return null;
  if (event.message_type === 'stream' && event.topic === '' && !queue.capability('empty_topic_name')) {
    return { ...event, topic: EMPTY_TOPIC_DISPLAY_NAME };
  }
  return event;
}

export function filters(app: App): void {
  app.events.addFilter('message', (queue, event) => filterMessageEvent(app, queue, event));
  app.events.addFilter('delete_message', filterDeleteMessageEvent);
}
