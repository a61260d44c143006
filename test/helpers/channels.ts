/** Channels for tests: made through the API, read back from the store, and a queue watching their events. */
import assert from 'node:assert/strict';
import type { ChannelRecord } from '../../server/store/channel-records.js';
import type { Client, ParamValue, TestServer } from './server.js';

/** Creates a channel (through the API) as `client`, subscribing `principals` (default: the creator). */
export async function createChannel(
  ts: TestServer,
  client: Client,
  name: string,
  params: Record<string, ParamValue> = {},
): Promise<number> {
  const res = await client.post('/users/me/subscriptions', { subscriptions: [{ name }], ...params });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const c = storedByName(ts, name);
  assert.ok(c, `channel ${name} was created`);
  return c.id;
}

export const stored = (ts: TestServer, id: number): ChannelRecord => {
  const c = ts.store.channels.data.channels.find((x) => x.id === id);
  assert.ok(c, `channel ${id} is stored`);
  return c;
};

export const storedByName = (ts: TestServer, name: string): ChannelRecord | undefined =>
  ts.store.channels.data.channels.find((x) => x.name === name);

export const isSubscribedInStore = (ts: TestServer, userId: number, streamId: number) =>
  ts.store.subscriptions.data.subscriptions.some((s) => s.user_id === userId && s.stream_id === streamId && s.active);

/** Registers a queue; returns a function that reads (without blocking) what arrived since. */
export async function watch(client: Client, params: Record<string, ParamValue> = {}) {
  const reg = await client.post('/register', { event_types: ['stream', 'subscription', 'default_streams', 'channel_folder'], ...params });
  assert.equal(reg.status, 200, JSON.stringify(reg.body));
  return async () => {
    const res = await client.get('/events', { queue_id: reg.body.queue_id, last_event_id: reg.body.last_event_id, dont_block: true });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.events as Record<string, unknown>[]).filter((e) => e.type !== 'heartbeat');
  };
}
