/**
 * What sending a message shows at once and what it sends, from where it goes and what it says: the
 * local echo (a fractional ID above every real one, matched by `local_message_id` when the event
 * comes), the parameters of `POST /messages`, and how the box names where it sends.
 */
import { escapeHtml } from '../../../server/protocol/html.js';
import { channelName, store, topicLabel, userName, type Message } from '../store/state.js';
import type { TypingTarget } from './typing.js';
import type { SendParams } from './unsent.js';


/** The message shown in the feed until the server's copy replaces it. */
export function localEcho(t: TypingTarget, content: string): { echo: Message; localId: string } {
  // A fractional ID above every real one: shown last, and matched by `local_message_id` when the event comes.
  const localNum = Date.now() + Math.floor(Math.random() * 999 + 1) / 1000;
  const echo: Message = {
    id: localNum,
    type: t.kind === 'dm' ? 'private' : 'stream',
    stream_id: t.kind === 'channel' ? t.streamId : undefined,
    subject: t.kind === 'channel' ? t.topic : '',
    sender_id: store.selfId.value,
    sender_full_name: store.users.value.get(store.selfId.value)?.full_name ?? '',
    avatar_url: store.users.value.get(store.selfId.value)?.avatar_url ?? null,
    display_recipient: t.kind === 'dm' ? [...t.to, store.selfId.value].map((id) => ({ id })) : '',
    content: `<p>${escapeHtml(content)}</p>`,
    timestamp: Math.floor(Date.now() / 1000),
    flags: ['read'],
    reactions: [],
    pending: true,
  };
  return { echo, localId: String(localNum) };
}

/** `POST /messages` (and `/scheduled_messages`) parameters for `content` sent to `t`. */
export const sendParams = (t: TypingTarget, content: string): SendParams => ({
  type: t.kind === 'dm' ? 'direct' : 'stream',
  to: t.kind === 'dm' ? t.to : t.streamId,
  topic: t.kind === 'channel' ? t.topic : undefined,
  content,
});

/** Where a message goes, as the drop overlay names it. */
export function placeOf(t: TypingTarget): string {
  if (t.kind === 'channel') return `#${channelName(t.streamId)} > ${topicLabel(t.topic)}`;
  const others = t.to.filter((id) => id !== store.selfId.value);
  return others.length ? others.map(userName).join(', ') : 'yourself';
}

/** Zulip's "Message #channel > topic": where the text goes, also while the phone's box is one line. */
export function placeholderOf(destination: TypingTarget | null): string {
  if (!destination) return 'Message';
  if (destination.kind === 'channel') {
    return `Message #${channelName(destination.streamId)}${destination.topic ? ` > ${destination.topic}` : ''}`;
  }
  return `Message ${placeOf(destination)}`;
}
