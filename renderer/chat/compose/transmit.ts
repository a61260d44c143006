/**
 * Sending a message: it shows in the open feed at once when that feed would show it (the local echo,
 * echo.ts), then goes out (unsent.ts: no answer in 10 s leaves it as "Not sent", with Retry and
 * Cancel); a refusal takes the echo out again.
 */
import { mutedForFeed } from '../store/apply-event.js';
import { keyOf, matches, type FeedView } from '../store/narrow.js';
import { store, updateFeed, type Message } from '../store/state.js';
import type { TypingTarget } from './typing.js';
import { markUnsent, sendWithTimeout, unanswered, type SendParams } from './unsent.js';
import { localEcho, sendParams } from './echo.js';

export interface Echo {
  /** Whether the open feed shows the message (else compose says where it went). */
  shown: boolean;
  key: string;
  message: Message;
  localId: string;
  params: SendParams;
}

/** Shows `content` to `t` in the feed `v` if that feed would show it. */
export function showEcho(v: FeedView, t: TypingTarget, content: string): Echo {
  const key = keyOf(v);
  const { echo, localId } = localEcho(t, content);
  const shown = store.feeds.value.get(key)?.foundNewest === true && matches(v, echo, store.selfId.value, mutedForFeed); // as message-events.ts
  if (shown) updateFeed(key, (f) => ({ ...f, messages: [...f.messages, echo] }));
  return { shown, key, message: echo, localId, params: sendParams(t, content) };
}

/**
 * Sends the echoed message: 'sent', or 'unsent' when the server never answered (the message stays in
 * the feed as not sent); a refusal is thrown, the echo taken out.
 */
export async function deliver(e: Echo): Promise<'sent' | 'unsent'> {
  try {
    await sendWithTimeout(e.params, e.localId);
    return 'sent';
  } catch (err) {
    // No answer (not reached, too slow, failing): the message stays in the feed as not sent, with Retry and Cancel.
    if (e.shown && unanswered(err)) {
      markUnsent(e.localId, e.params);
      return 'unsent';
    }
    updateFeed(e.key, (f) => ({ ...f, messages: f.messages.filter((m) => m !== e.message) }));
    throw err;
  }
}
