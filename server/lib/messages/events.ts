/**
 * `message` events. The send action emits one internal event; this queue
 * filter turns it into each queue's client event (Zulip's
 * process_message_event): only recipients, plus `all_public_streams` queues
 * for public channels; the queue's `narrow`; `apply_markdown`,
 * `client_gravatar` and the `empty_topic_name` capability; the user's flags;
 * `local_message_id` for the sending queue. Dicts are shared between queues
 * with the same options, so 5,000 queues cost a few dicts, not 5,000.
 */
import type { App } from '../../context.js';
import type { EventQueue, QueueNarrow } from '../../events/queue.js';
import {
  MESSAGE_PAYLOAD,
  type EventOf,
  type MessageClientEvent,
  type MessageEvent,
  type MessageEventPayload,
} from '../../events/types.js';
import { flagNames } from '../../store/message-records.js';
import type { UserRecord } from '../../store/records.js';
import { canSeeEmail, isGuest } from '../people/people.js';
import { formatMessage } from './format.js';
import { compileNarrow, termsFromPairs, type CompiledNarrow } from './narrow.js';

export function messageEvent(p: Omit<MessageEventPayload, 'cache' | 'flagLists' | 'events'>): MessageEvent {
  const payload: MessageEventPayload = { ...p, cache: new Map(), flagLists: new Map(), events: new Map() };
  return { type: 'message', [MESSAGE_PAYLOAD]: payload };
}

/** Whether a queue narrow reads the user's muting or following (in:home, is:followed), which a compiled narrow snapshots. */
const readsUserPolicies = (pairs: string[][]) =>
  pairs.some(([op, operand]) => {
    const o = op!.replace(/^-/, '');
    return o === 'in' || (o === 'is' && operand === 'followed');
  });

/** The queue's narrow compiled, once per queue (`queue.compiledNarrow`; null: it no longer resolves, nothing matches). */
function queueNarrow(app: App, queue: EventQueue, user: UserRecord): QueueNarrow | null {
  if (queue.compiledNarrow !== undefined) return queue.compiledNarrow;
  let c: CompiledNarrow | null = null;
  try {
    c = compileNarrow(app, user, termsFromPairs(queue.opts.narrow));
  } catch {
    c = null;
  }
  // Those are compiled afresh for each event, so later mutes and follows count.
  if (!readsUserPolicies(queue.opts.narrow)) queue.compiledNarrow = c;
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

export function installMessageFilter(app: App): void {
  app.events.addFilter('message', (queue, event) => filterMessageEvent(app, queue, event));
}
