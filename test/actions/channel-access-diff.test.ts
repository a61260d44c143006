import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { emitChannelAccessDiff, snapshotChannelAccess } from '../../server/actions/channel-access-diff.js';
import { commit } from '../../server/actions/commit.js';
import { hasMetadataAccess } from '../../server/lib/channels/access.js';
import { createChannel, isSubscribedInStore, stored, watch } from '../helpers/channels.js';
import { startTestServer, type Account, type Client, type TestServer, assertError } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

type Dict = Record<string, unknown>;

/**
 * Group membership moves channel visibility (server/actions/channel-access-diff.ts):
 * a user who gains metadata access to a private channel through a group used
 * in its can_* settings gets the channel (`stream` create, then its
 * subscribers as `peer_add`); one who loses it gets a `stream` delete; nobody
 * else hears anything about the channel.
 */
describe('channel access follows group membership', () => {
  let ts: TestServer;
  let mia: Account, nat: Account, oli: Account, gus: Account, ada: Account;
  let team = 0;
  let inner = 0;
  let secret = 0;
  const REG = {
    event_types: ['stream', 'subscription', 'user_group'],
    fetch_event_types: ['stream', 'subscription', 'user_group'],
    include_subscribers: 'true',
  } as const;

  const members = (groupId: number, body: Dict) => ts.ownerClient.post(`/user_groups/${groupId}/members`, body as never);
  const ok = (res: { status: number; body: Dict }) => assert.equal(res.status, 200, JSON.stringify(res.body));
  /** The channel events that mention channel `id` (by stream_id anywhere, or in stream_ids). */
  const about = (events: Dict[], id: number) =>
    events.filter(
      (e) =>
        e.type !== 'user_group' &&
        (JSON.stringify(e).includes(`"stream_id":${id}`) || (e.stream_ids as number[] | undefined)?.includes(id)),
    );

  before(async () => {
    ts = await startTestServer();
    mia = await ts.addUser('Mia');
    nat = await ts.addUser('Nat');
    oli = await ts.addUser('Oli');
    gus = await ts.addUser('Gus', 600);
    ada = await ts.addUser('Ada', 200);
    const g = await ts.ownerClient.post('/user_groups/create', { name: 'team', description: '', members: [] });
    team = g.body.group_id;
    const h = await ts.ownerClient.post('/user_groups/create', { name: 'inner', description: '', members: [] });
    inner = h.body.group_id;
    secret = await createChannel(ts, ts.ownerClient, 'secret', { invite_only: true });
    ok(await ts.ownerClient.patch(`/streams/${secret}`, { can_subscribe_group: { new: team } }));
    assert.equal(stored(ts, secret).settings.can_subscribe_group, team);
  });
  after(() => ts.stop());

  it('gives the channel to a user added to a group in can_subscribe_group, and nothing to others', async () => {
    const natQueue = await watch(ts.client(nat));
    const gusQueue = await watch(ts.client(gus));
    const adaQueue = await watch(ts.client(ada));
    const events = await verifyAction(ts.client(mia), async () => ok(await members(team, { add: [mia.id] })), REG);
    const channel = events.filter((e) => e.type !== 'user_group');
    assert.deepEqual(
      channel.map((e) => `${e.type}/${e.op}`),
      ['stream/create', 'subscription/peer_add'],
    );
    assert.equal(((channel[0]!.streams as Dict[])[0]!).stream_id, secret);
    assert.deepEqual(channel[1]!.user_ids, [ts.owner.id]);
    // Content access came with it: Mia may now subscribe herself.
    ok(await ts.client(mia).post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }] }));
    assert.ok(isSubscribedInStore(ts, mia.id, secret));
    ok(await ts.client(mia).delete('/users/me/subscriptions', { subscriptions: ['secret'] }));
    assert.ok(!isSubscribedInStore(ts, mia.id, secret));

    for (const read of [natQueue, gusQueue]) {
      const seen = await read();
      assert.deepEqual(about(seen, secret), [], JSON.stringify(seen));
    }
    const adminSeen = await adaQueue();
    assert.ok(!adminSeen.some((e) => e.type === 'stream'), 'an administrator already knew the channel');
  });

  it('takes the channel from a user removed from the group', async () => {
    // Mia's row from subscribing and leaving would put the channel in `unsubscribed`; start from a user without one.
    ok(await members(team, { add: [oli.id] }));
    const natQueue = await watch(ts.client(nat));
    const events = await verifyAction(ts.client(oli), async () => ok(await members(team, { delete: [oli.id] })), REG);
    assert.deepEqual(
      events.filter((e) => e.type === 'stream').map((e) => [e.op, e.stream_ids]),
      [['delete', [secret]]],
    );
    assert.deepEqual(about(await natQueue(), secret), []);
    const refused = await ts.client(oli).post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }] });
    assertError(refused, "Unable to access channel (secret).");
    assert.ok(!isSubscribedInStore(ts, oli.id, secret));
  });

  it('follows subgroups: adding or removing a subgroup, and members of a nested group', async () => {
    ok(await members(inner, { add: [nat.id] }));
    const add = await verifyAction(ts.client(nat), async () => ok(await members(team, { add_subgroups: [inner] })), REG);
    assert.deepEqual(add.filter((e) => e.type === 'stream').map((e) => e.op), ['create']);

    // A member joining the nested group gains the channel too.
    const joined = await verifyAction(ts.client(oli), async () => ok(await members(inner, { add: [oli.id] })), REG);
    assert.deepEqual(joined.filter((e) => e.type === 'stream').map((e) => e.op), ['create']);

    const drop = await verifyAction(
      ts.client(nat),
      async () => ok(await ts.ownerClient.post(`/user_groups/${team}/subgroups`, { delete: [inner] })),
      REG,
    );
    assert.deepEqual(drop.filter((e) => e.type === 'stream').map((e) => e.op), ['delete']);
    ok(await members(inner, { delete: [oli.id, nat.id] }));
  });

  it('counts anonymous group settings (can_administer_channel_group naming a subgroup) and never guests', async () => {
    const other = await createChannel(ts, ts.ownerClient, 'vault', { invite_only: true });
    ok(await ts.ownerClient.patch(`/streams/${other}`, {
      can_administer_channel_group: { new: { direct_members: [ts.owner.id], direct_subgroups: [inner] } },
    }));
    const events = await verifyAction(ts.client(nat), async () => ok(await members(inner, { add: [nat.id] })), REG);
    assert.deepEqual(
      events.filter((e) => e.type === 'stream').map((e) => (e.streams as Dict[])[0]!.name),
      ['vault'],
    );
    const gusQueue = await watch(ts.client(gus));
    ok(await members(inner, { add: [gus.id] }));
    assert.deepEqual(about(await gusQueue(), other), [], 'guests never get access through these settings');
    ok(await members(inner, { delete: [gus.id, nat.id] }));
  });

  it('leaves archived channels to clients that handle them', async () => {
    const old = await createChannel(ts, ts.ownerClient, 'attic', { invite_only: true });
    ok(await ts.ownerClient.patch(`/streams/${old}`, { can_subscribe_group: { new: team } }));
    ok(await ts.ownerClient.delete(`/streams/${old}`));
    const legacy = await watch(ts.client(nat));
    const capable = await watch(ts.client(nat), { client_capabilities: { archived_channels: true } });
    await verifyAction(ts.client(nat), async () => ok(await members(team, { add: [nat.id] })), {
      ...REG,
      client_capabilities: { archived_channels: true },
    });
    assert.deepEqual(about(await legacy(), old), [], 'no archived channel for clients without archived_channels');
    const seen = about(await capable(), old);
    assert.deepEqual(seen.map((e) => `${e.type}/${e.op}`), ['stream/create', 'subscription/peer_add']);
    assert.equal(((seen[0]!.streams as Dict[])[0]!).is_archived, true);
    assert.deepEqual(Object.keys(seen[1]!).sort(), ['id', 'op', 'stream_ids', 'type', 'user_ids'], 'no internal flag');
    ok(await members(team, { delete: [nat.id] }));
  });

  it('computes the same access per channel (many users) as per user (few) and as hasMetadataAccess', async () => {
    // Enough users for the per-channel path, of every role, some in the groups the channels use.
    const roles = [100, 200, 300, 400, 400, 600] as const;
    const crowd: number[] = [];
    for (let i = 0; i < 110; i++) {
      const u = ts.store.users.add({
        email: `many${i}@example.com`, full_name: `Many ${i}`, role: roles[i % roles.length]!, is_active: i % 17 !== 0,
        is_bot: false, bot_type: null, bot_owner_id: null, api_key: `m${i}`.padEnd(32, 'x'), password_hash: null,
        date_joined: new Date().toISOString(), timezone: '', avatar_version: 1, is_imported_stub: false,
      });
      crowd.push(u.id);
    }
    const active = crowd.filter((id) => ts.store.users.get(id)!.is_active);
    ok(await members(team, { add: active.filter((_, i) => i % 3 === 0) }));
    ok(await members(inner, { add: active.filter((_, i) => i % 5 === 1) }));
    const web = await createChannel(ts, ts.ownerClient, 'open house');
    stored(ts, web).is_web_public = true;
    ok(await ts.ownerClient.post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], principals: active.slice(0, 7) }));
    const all = snapshotChannelAccess(ts.app);
    assert.ok(all.userIds.length > 100);
    const few = snapshotChannelAccess(ts.app, all.userIds.slice(0, 8));
    for (const channel of ts.store.channels.data.channels) {
      const want = all.userIds.filter((id) => hasMetadataAccess(ts.app, ts.store.users.get(id)!, channel));
      assert.deepEqual([...all.access.get(channel.id)!].sort((a, b) => a - b), want.sort((a, b) => a - b), channel.name);
      assert.deepEqual(
        [...few.access.get(channel.id)!].sort((a, b) => a - b),
        want.filter((id) => all.userIds.slice(0, 8).includes(id)).sort((a, b) => a - b),
        `${channel.name} (few users, checked one by one)`,
      );
    }
    assert.ok(!all.userIds.some((id) => !ts.store.users.get(id)!.is_active), 'deactivated users are left out');
    stored(ts, web).is_web_public = false;
    ok(await members(team, { delete: active.filter((_, i) => i % 3 === 0) }));
    ok(await members(inner, { delete: active.filter((_, i) => i % 5 === 1) }));
    ok(await ts.ownerClient.delete('/users/me/subscriptions', { subscriptions: ['secret'], principals: active.slice(0, 7) }));
  });

  it('snapshotChannelAccess / emitChannelAccessDiff: a role change seen through the same two calls', async () => {
    const q = await watch(ts.client(oli));
    const queue = async (c: Client) => (await c.post('/register', REG)).body;
    const before = await queue(ts.client(oli));
    assert.ok(!(before.streams as Dict[]).some((s) => s.stream_id === secret));
    const changed = await commit(ts.app, (tx) => {
      const snap = snapshotChannelAccess(ts.app, [oli.id]);
      ts.store.users.get(oli.id)!.role = 200;
      tx.touch(ts.store.users.collection);
      return emitChannelAccessDiff(ts.app, tx, snap);
    });
    assert.ok(changed >= 1);
    const seen = await q();
    assert.ok(seen.some((e) => e.type === 'stream' && e.op === 'create' && (e.streams as Dict[])[0]!.stream_id === secret));
    const back = await commit(ts.app, (tx) => {
      const snap = snapshotChannelAccess(ts.app);
      ts.store.users.get(oli.id)!.role = 400;
      tx.touch(ts.store.users.collection);
      return emitChannelAccessDiff(ts.app, tx, snap);
    });
    assert.ok(back >= 1);
    assert.ok((await q()).some((e) => e.type === 'stream' && e.op === 'delete' && (e.stream_ids as number[]).includes(secret)));
  });
});
