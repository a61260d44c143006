/**
 * What applying an event does beyond the store (appliers.ts): the parts that need a browser or the
 * network. The page passes its own (apply-event.ts: sounds and desktop notifications, the typing
 * indicators' expiry timers, the sidebar's topic lists); a test passes `noEffects` or records them.
 */
import type { HearthCallEvent } from '../../../server/protocol/events.js';
import type { Message } from './state.js';

export interface Effects {
  /** A new message came (sound, desktop notification, as the settings decide). */
  newMessage(m: Message): void;
  /** A typing indicator was set (`on`) or cleared: `expire` clears it again once it is stale (timer: its name). */
  typing(timer: string, on: boolean, expire: () => void): void;
  /** A channel message: its topic goes to the top of its channel's topic list. */
  topicSeen(streamId: number, topic: string, id: number): void;
  /** Topics moved or deleted in these channels: their topic lists are fetched again. */
  topicsChanged(streamIds: (number | undefined)[]): void;
  /** Unsubscribed from a channel: its topic list is forgotten (asked for anew if joined again). */
  topicsForgotten(streamId: number): void;
  /** A call's signalling, ringing or who is in a room (chat/calls/call-store.ts). */
  call(e: HearthCallEvent): void;
}

/** No effects at all (a test's store). */
export const noEffects: Effects = {
  newMessage: () => undefined,
  typing: () => undefined,
  topicSeen: () => undefined,
  topicsChanged: () => undefined,
  topicsForgotten: () => undefined,
  call: () => undefined,
};
