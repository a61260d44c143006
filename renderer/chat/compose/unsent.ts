/**
 * Messages whose send got no answer: they stay in the feed marked "Not sent", with Retry and
 * Cancel (Zulip's failed local echo), instead of the text going back into the compose box. A
 * send is given SEND_TIMEOUT_MS; a refusal by the server (a 4xx with its reason) is not a
 * failure of this kind: the compose box shows the reason with the text.
 */
import { ApiError, call } from '../store/api.js';
import { insertIntoCompose } from './compose-bus.js';
import { onReload, queueId } from '../store/events.js';
import { store, updateFeed, type Message } from '../store/state.js';

/** No answer in this long, and the message shows as not sent. */
export const SEND_TIMEOUT_MS = 10_000;

export interface SendParams {
  type: 'direct' | 'stream';
  to: number | number[];
  topic?: string;
  content: string;
}

/** Local echo ID → what to send again; the message itself sits in the feeds with `failed`. */
const unsent = new Map<string, SendParams>();

/** Whether an error means the server never answered (not reached, timed out, or failing), so a retry may work. */
export const unanswered = (err: unknown): boolean =>
  !(err instanceof ApiError) || err.status === 0 || err.status >= 500 || err.code === 'NOT_ANSWERING';

/** Sends, giving up after SEND_TIMEOUT_MS (an ApiError with code NOT_ANSWERING). */
export async function sendWithTimeout(params: SendParams, localId: string): Promise<void> {
  const gaveUp = new AbortController();
  const timer = setTimeout(() => gaveUp.abort(), SEND_TIMEOUT_MS);
  try {
    await call('POST', '/messages', { ...params, queue_id: queueId(), local_id: localId }, { signal: gaveUp.signal });
  } catch (err) {
    if (gaveUp.signal.aborted) throw new ApiError(0, 'NOT_ANSWERING', 'Hearth did not answer in time.');
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** Rewrites the echo with this local ID in every feed. */
function mapEcho(localId: string, change: (m: Message) => Message | null): void {
  for (const [key, f] of store.feeds.value) {
    if (!f.messages.some((m) => m.pending && String(m.id) === localId)) continue;
    updateFeed(key, (x) => ({
      ...x,
      messages: x.messages.flatMap((m) => (m.pending && String(m.id) === localId ? (change(m) ?? []) : [m])),
    }));
  }
}

/** Marks the echo as not sent (it keeps `pending`, so the server's event still replaces it if the send landed). */
export function markUnsent(localId: string, params: SendParams): void {
  unsent.set(localId, params);
  mapEcho(localId, (m) => ({ ...m, failed: true }));
}

/** Retry: sends again with the same local ID (a late event for either replaces the echo once). */
export async function retryUnsent(localId: string): Promise<void> {
  const params = unsent.get(localId);
  if (!params) return;
  mapEcho(localId, (m) => ({ ...m, failed: false }));
  try {
    await sendWithTimeout(params, localId);
    unsent.delete(localId);
  } catch (err) {
    if (!unanswered(err)) {
      // Refused now (the channel was archived meanwhile, say): the text goes back to the box with the reason.
      cancelUnsent(localId);
      return;
    }
    mapEcho(localId, (m) => ({ ...m, failed: true }));
  }
}

/** Cancel: the message leaves the feed and its text goes back into the compose box. */
export function cancelUnsent(localId: string): void {
  const params = unsent.get(localId);
  unsent.delete(localId);
  mapEcho(localId, () => null);
  if (params) insertIntoCompose(params.content);
}

// A re-register reloads every feed, echoes included: what was not sent goes back into the compose box.
onReload.add(() => {
  if (!unsent.size) return;
  const texts = [...unsent.values()].map((p) => p.content);
  unsent.clear();
  insertIntoCompose(texts.join('\n\n'));
});
