import type { App } from '../context.js';
import type { StateSection } from '../events/state.js';
import { BULK_FORM } from '../events/types.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../lib/messages/format.js';
import { recentPrivateConversations, unreadMessages } from '../lib/messages/unreads.js';

/** `max_message_id`: the newest message the user received (-1 when none). */
export const maxMessageSection: StateSection = {
  wants: ['message'],
  fetch: ({ app, user }) => ({ max_message_id: user ? app.store.messages.maxMessageIdOf(user.id) || -1 : -1 }),
};

/** `unread_msgs` (Zulip sends it when both `message` and `update_message_flags` are wanted). */
export const unreadSection: StateSection = {
  wants: ['update_message_flags'],
  alsoWhen: (want) => want('message'),
  fetch({ app, user, queue }) {
    if (!user) return {};
    return { unread_msgs: unreadMessages(app, user, queue.clientCapabilities.empty_topic_name === true) };
  },
};

export const recentPrivateSection: StateSection = {
  wants: ['recent_private_conversations'],
  fetch: ({ app, user }) => ({ recent_private_conversations: user ? recentPrivateConversations(app, user) : [] }),
};

export const starredSection: StateSection = {
  wants: ['starred_messages'],
  fetch: ({ app, user }) => ({ starred_messages: user ? app.store.messages.starred(user.id).toArray() : [] }),
};

export const emptyTopicNameSection: StateSection = {
  wants: ['realm'],
  fetch: () => ({ realm_empty_topic_display_name: EMPTY_TOPIC_DISPLAY_NAME }),
};

/**
 * `delete_message` events (server/actions/message-delete-events.ts emits both of Zulip's
 * forms): each queue sees only its form (`bulk_message_deletion`), and the empty topic as
 * `realm_empty_topic_display_name` without the `empty_topic_name` capability.
 */
export function installDeleteMessageFilter(app: App): void {
  app.events.addFilter('delete_message', (queue, event) => {
    const bulk = event[BULK_FORM];
    if (bulk !== undefined && bulk !== queue.capability('bulk_message_deletion')) return null;
    if (event.message_type === 'stream' && event.topic === '' && !queue.capability('empty_topic_name')) {
      return { ...event, topic: EMPTY_TOPIC_DISPLAY_NAME };
    }
    return event;
  });
}
