/**
 * Live updates: `POST /register` fills the store and allocates an event queue, then
 * `GET /events` long-polls it. A lost queue (`BAD_EVENT_QUEUE_ID`: the server restarted
 * or the queue expired) means registering again and reloading what is shown; a dropped
 * network means "Reconnecting…" and retries with growing pauses. Nothing is lost or shown
 * twice: after a re-register every feed is fetched afresh.
 */
import { ApiError, call, get, post } from './api.js';
import { applyEvent } from './apply-event.js';
import { loadRecentConversations } from './feeds.js';
import { loadState } from './load-state.js';
import { store } from './state.js';

const FETCH = [
  'message', 'update_message_flags', 'realm', 'realm_user', 'subscription', 'stream', 'user_topic',
  'presence', 'user_settings', 'typing', 'reaction', 'update_message', 'delete_message', 'recent_private_conversations',
  'drafts', 'scheduled_messages', 'reminders', 'realm_user_groups', 'realm_emoji',
  'user_status', 'custom_profile_fields', 'muted_users', 'alert_words', 'channel_folders', 'channel_folder',
];

interface Queue {
  id: string;
  lastEventId: number;
}

const queue: { current: Queue | null; stopped: boolean; generation: number } = { current: null, stopped: false, generation: 0 };

/** Called after each (re-)register, so views can refetch what they show. */
export const onReload = new Set<() => void>();

async function register(): Promise<void> {
  const res = await post<Record<string, unknown>>('/register', {
    apply_markdown: true,
    client_gravatar: false,
    include_subscribers: false,
    slim_presence: true,
    fetch_event_types: FETCH,
    event_types: FETCH,
    client_capabilities: {
      notification_settings_null: true,
      bulk_message_deletion: true,
      user_avatar_url_field_optional: false,
      stream_typing_notifications: true,
      user_settings_object: true,
      simplified_presence_events: true,
    },
  });
  loadState(res);
  queue.current = { id: String(res.queue_id), lastEventId: Number(res.last_event_id) };
  store.ready.value = true;
  void loadRecentConversations();
  for (const f of onReload) f();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Registers, then polls until stop(); survives restarts of the server and network loss. */
export async function start(): Promise<void> {
  queue.stopped = false;
  const generation = ++queue.generation;
  let failures = 0;
  while (!queue.stopped && generation === queue.generation) {
    try {
      if (!queue.current) await register();
      const q = queue.current!;
      const res = await get<{ events: Record<string, unknown>[] }>('/events', {
        queue_id: q.id,
        last_event_id: q.lastEventId,
        dont_block: failures > 0,
      });
      if (generation !== queue.generation) return;
      for (const e of res.events) {
        q.lastEventId = Math.max(q.lastEventId, Number(e.id));
        applyEvent(e);
      }
      failures = 0;
      store.connection.value = 'connected';
    } catch (err) {
      if (generation !== queue.generation) return;
      if (err instanceof ApiError && err.code === 'BAD_EVENT_QUEUE_ID') {
        queue.current = null;
        continue;
      }
      if (err instanceof ApiError && err.status === 401) throw err;
      failures++;
      store.connection.value = 'reconnecting';
      // 0.5 s, 1 s, 2 s ... up to 15 s, with jitter so many browsers do not return at once.
      await sleep(Math.min(15_000, 500 * 2 ** Math.min(failures - 1, 5)) * (0.75 + Math.random() / 2));
    }
  }
}

/** Stops polling and releases the queue (sign-out, page close). */
export function stop(): void {
  queue.stopped = true;
  queue.generation++;
  const q = queue.current;
  queue.current = null;
  if (q) call('DELETE', '/events', { queue_id: q.id }).catch(() => undefined);
}

/** The queue ID, for sends that want their local echo matched (`queue_id` + `local_id`). */
export const queueId = () => queue.current?.id;
