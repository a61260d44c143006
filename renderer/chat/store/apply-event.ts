/**
 * Applies server events to the page's one store (appliers.ts: one applier per event type) with the
 * browser's effects: sounds and desktop notifications, the typing indicators' expiry timers, and
 * the sidebar's topic lists (fetched from the server), and calls (chat/calls/call-store.ts).
 */
import type { ClientEvent } from '../../../server/protocol/events.js';
import { applyTo, TYPING_EXPIRY_MS } from './appliers.js';
import type { Effects } from './effects.js';
import { mutedForFeedIn, placeOf } from './message-events.js';
import { notifyNewMessage } from '../notifications.js';
import { forgetTopicHistory, noteTopicMessage, refetchTopicHistory } from '../sidebar/sidebar-state.js';
import { placeKey, store } from './state.js';
import { onCallEvent } from '../calls/call-store.js';
import type { MessageLike } from './narrow.js';

/** The typing indicators' expiry timers, by conversation and person. */
const typingTimers = new Map<string, ReturnType<typeof setTimeout>>();

const browserEffects: Effects = {
  newMessage: notifyNewMessage,
  typing(timer, on, expire) {
    clearTimeout(typingTimers.get(timer));
    if (on) typingTimers.set(timer, setTimeout(expire, TYPING_EXPIRY_MS));
  },
  topicSeen: noteTopicMessage,
  topicsChanged: refetchTopicHistory,
  topicsForgotten: forgetTopicHistory,
  call: onCallEvent,
};

/** Applies one server event to the store (the client half of Zulip's event system). */
export function applyEvent(e: ClientEvent): void {
  applyTo(store, e, browserEffects);
}

/** Whether the combined feed leaves a message out (a muted channel or topic). */
export const mutedForFeed = (m: MessageLike) => mutedForFeedIn(store, m);

export { placeKey, placeOf };
