/**
 * `message` events. The send action emits one internal event, built here, carrying the
 * message and per-event caches; the queue filter (server/register/messages.ts) turns it into
 * each queue's client event.
 */
import { MESSAGE_PAYLOAD, type MessageEvent, type MessageEventPayload } from '../../events/types.js';

export function messageEvent(p: Omit<MessageEventPayload, 'cache' | 'flagLists' | 'events'>): MessageEvent {
  const payload: MessageEventPayload = { ...p, cache: new Map(), flagLists: new Map(), events: new Map() };
  return { type: 'message', [MESSAGE_PAYLOAD]: payload };
}
