import assert from 'node:assert/strict';
import type { Client, ParamValue } from './server.js';
import { applyEvents } from './apply-events.js';

/** Register fields that differ between two registers by design. */
// server_timestamp is the time of the register; presence_last_update_id counts every presence update (clients get it again from POST /users/me/presence).
const VOLATILE = ['queue_id', 'last_event_id', 'result', 'msg', 'idle_queue_timeout_secs', 'server_timestamp', 'presence_last_update_id'];

/**
 * stream_weekly_traffic is a statistic Zulip recomputes from its analytics
 * tables, never announced by an event; a fresh register may see a new value.
 */
const CHANNEL_LISTS = ['subscriptions', 'unsubscribed', 'never_subscribed', 'streams'];

export function stateOf(body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };
  for (const k of VOLATILE) delete out[k];
  return out;
}

/** The state without the channels' stream_weekly_traffic (see CHANNEL_LISTS). */
export function withoutTraffic(state: Record<string, unknown>): Record<string, unknown> {
  const out = { ...state };
  for (const k of CHANNEL_LISTS) {
    const list = out[k];
    if (!Array.isArray(list)) continue;
    out[k] = list.map((c: Record<string, unknown>) => {
      if (!c || typeof c !== 'object' || !('stream_weekly_traffic' in c)) return c;
      const { stream_weekly_traffic: _traffic, ...rest } = c;
      return rest;
    });
  }
  return out;
}

/** Reads every pending event of a queue without blocking, acknowledging nothing. */
export async function drain(client: Client, queueId: string, lastEventId: number) {
  const res = await client.get('/events', { queue_id: queueId, last_event_id: lastEventId, dont_block: true });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.events as Record<string, unknown>[];
}

/**
 * Zulip's verify_action: register, run the action, apply the events the
 * queue received to the registered state, and require that to equal what a
 * fresh register returns. Returns the events for further assertions.
 */
export async function verifyAction(
  client: Client,
  action: () => Promise<unknown>,
  registerParams: Record<string, ParamValue> = {},
): Promise<Record<string, unknown>[]> {
  const reg = await client.post('/register', registerParams);
  assert.equal(reg.status, 200, JSON.stringify(reg.body));
  await action();
  const events = await drain(client, reg.body.queue_id, reg.body.last_event_id);
  const includeSubscribers = ['true', 'partial', true].includes(registerParams.include_subscribers as string | boolean);
  const partial = registerParams.include_subscribers === 'partial';
  const applied = applyEvents(stateOf(reg.body), events, { includeSubscribers, partial, userId: client.account?.id });
  const fresh = await client.post('/register', registerParams);
  assert.equal(fresh.status, 200);
  const freshState = stateOf(fresh.body);
  // Zulip's apply_event recomputes max_message_id from the database after a deletion or a move
  // out of reach, which a client cannot; unread_msgs needs `message` asked for too, so it is there.
  if (events.some((e) => e.type === 'delete_message')) {
    delete applied.max_message_id;
    delete freshState.max_message_id;
  }
  assert.deepEqual(withoutTraffic(applied), withoutTraffic(freshState));
  await client.delete('/events', { queue_id: reg.body.queue_id });
  await client.delete('/events', { queue_id: fresh.body.queue_id });
  return events;
}
