import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

/**
 * Zulip (feature level 303+): a deactivated user leaves the anonymous group-setting values
 * that name them, every user hears the new values, and reactivation does not give them back.
 */
describe('deactivation removes the user from anonymous group settings', () => {
  let ts: TestServer;
  let admin: Client;
  let watcher: Client;
  let leaver: Account;
  let stays: Account;
  let channelId: number;
  let groupId: number;
  const anon = (ids: number[]) => ({ direct_members: ids, direct_subgroups: [] });
  before(async () => {
    ts = await startTestServer();
    admin = ts.client(await ts.addUser('Adam', 200));
    watcher = ts.client(await ts.addUser('Wanda'));
    leaver = await ts.addUser('Leo');
    stays = await ts.addUser('Stan');
    const both = anon([leaver.id, stays.id].sort((a, b) => a - b));
    assert.equal((await admin.patch('/realm', { can_add_subscribers_group: { new: both } })).status, 200);
    channelId = await createChannel(ts, admin, 'ops', { principals: [] });
    const ch = await admin.patch(`/streams/${channelId}`, { can_send_message_group: { new: both } });
    assert.equal(ch.status, 200, JSON.stringify(ch.body));
    const g = await admin.post('/user_groups/create', { name: 'crew', description: 'crew', members: [stays.id], can_manage_group: both });
    assert.equal(g.status, 200, JSON.stringify(g.body));
    groupId = g.body.group_id;
  });
  after(() => ts.stop());

  it('sends realm, user_group and stream updates without the user, and stores them so', async () => {
    const events = await verifyAction(watcher, async () => {
      const res = await admin.delete(`/users/${leaver.id}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    const only = anon([stays.id]);
    assert.ok(
      events.some((e) => e.type === 'realm' && e.op === 'update_dict' && JSON.stringify((e.data as Record<string, unknown>).can_add_subscribers_group) === JSON.stringify(only)),
      JSON.stringify(events),
    );
    assert.ok(events.some((e) => e.type === 'user_group' && e.op === 'update' && e.group_id === groupId), JSON.stringify(events));
    assert.ok(
      events.some((e) => e.type === 'stream' && e.stream_id === channelId && e.property === 'can_send_message_group' && JSON.stringify(e.value) === JSON.stringify(only)),
      JSON.stringify(events),
    );
    assert.deepEqual(ts.store.realm.data.realm!.settings.can_add_subscribers_group, only);
    assert.deepEqual(ts.store.channels.data.channels.find((c) => c.id === channelId)!.settings.can_send_message_group, only);
    assert.deepEqual(ts.store.groups.data.groups.find((g) => g.id === groupId)!.settings.can_manage_group, only);
  });

  it('reactivation gives no permission back (and sends no setting events)', async () => {
    const events = await verifyAction(watcher, async () => {
      const res = await admin.post(`/users/${leaver.id}/reactivate`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    assert.ok(!events.some((e) => e.type === 'realm' || e.type === 'stream' || (e.type === 'user_group' && e.op === 'update')), JSON.stringify(events));
    const reg = await watcher.post('/register', { fetch_event_types: ['realm'] });
    assert.deepEqual(reg.body.realm_can_add_subscribers_group, anon([stays.id]));
  });
});
