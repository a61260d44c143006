import assert from 'node:assert/strict';
import type { ChannelRecord } from '../../server/store/channel-records.js';
import type { Account, Client, ParamValue, TestServer } from './server.js';

/** One account of each role, plus a deactivated member. */
export interface Cast {
  owner: Account;
  admin: Account;
  moderator: Account;
  member: Account;
  guest: Account;
  deactivated: Account;
}

export async function makeCast(ts: TestServer): Promise<Cast> {
  const admin = await ts.addUser('Ada', 200);
  const moderator = await ts.addUser('Mo', 300);
  const member = await ts.addUser('Mel', 400);
  const guest = await ts.addUser('Gus', 600);
  const deactivated = await ts.addUser('Dee', 400);
  const d = ts.store.users.get(deactivated.id)!;
  d.is_active = false;
  await ts.store.users.collection.save();
  return { owner: ts.owner, admin, moderator, member, guest, deactivated };
}

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

/** System group IDs by name. */
export function groupId(ts: TestServer, name: string): number {
  const g = ts.store.groups.data.groups.find((x) => x.is_system_group && x.name === name);
  assert.ok(g, name);
  return g.id;
}

/** Asserts a Zulip error response. */
export function assertError(res: { status: number; body: Record<string, unknown> }, msg: string | RegExp, code = 'BAD_REQUEST') {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.result, 'error');
  assert.equal(res.body.code, code, JSON.stringify(res.body));
  if (typeof msg === 'string') assert.equal(res.body.msg, msg);
  else assert.match(String(res.body.msg), msg);
}

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
