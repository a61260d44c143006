import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CHANNEL_SETTING_NAMES } from '../../../server/lib/channels/settings.js';
import { createChannel, watch } from '../../helpers/channels.js';
import { groupId, castOf, type Cast } from '../../helpers/people.js';
import { startTestServer, type Account, type TestServer } from '../../helpers/server.js';

type Dict = Record<string, unknown>;

/**
 * A private channel must never reach anyone without metadata access: every
 * action on it (creation, subscribing others, every PATCH parameter, personal
 * settings, archiving and unarchiving, folders, group changes that give a
 * third user access) is run while outsiders of every kind (a member, a
 * moderator, a guest, a user who later gets deactivated; with and without
 * each client capability) hold queues, and none may receive a single event
 * naming the channel, by ID or by name.
 */
describe('private channels never leak through events', () => {
  let ts: TestServer;
  let cast: Cast;
  let outsider: Account;
  let friend: Account;
  const NAME = 'Zanzibar Plans';
  let id = 0;
  let group = 0;

  before(async () => {
    ts = await startTestServer({ config: { webPublicStreamsEnabled: true } });
    cast = await castOf(ts, { owner: ts.owner });
    outsider = await ts.addUser('Otto', 400);
    friend = await ts.addUser('Fred', 400);
    const g = await ts.ownerClient.post('/user_groups/create', { name: 'planners', description: '', members: [] });
    group = g.body.group_id;
  });
  after(() => ts.stop());

  /** Whether an event names the channel (by ID in any ID field, or by name). */
  function mentions(e: Dict): boolean {
    const text = JSON.stringify(e);
    if (text.includes(NAME) || text.includes('Zanzibar')) return true;
    const ids = [e.stream_id, ...((e.stream_ids as number[] | undefined) ?? [])];
    for (const list of ['streams', 'subscriptions'] as const) {
      for (const s of (e[list] as Dict[] | undefined) ?? []) ids.push(s.stream_id);
    }
    return ids.includes(id);
  }

  it('through the whole life of the channel', async () => {
    const kinds = [{}, { client_capabilities: { archived_channels: true, notification_settings_null: true } }];
    const eventTypes = { event_types: ['stream', 'subscription', 'default_streams', 'channel_folder', 'user_group', 'message'] };
    const queues: { label: string; read: () => Promise<Dict[]> }[] = [];
    for (const [label, who] of [
      ['member', cast.member],
      ['moderator', cast.moderator],
      ['guest', cast.guest],
      ['outsider', outsider],
    ] as const) {
      for (const k of kinds) queues.push({ label: `${label} ${JSON.stringify(k)}`, read: await watch(ts.client(who), { ...eventTypes, ...k }) });
    }

    // A queue that may know the channel, to prove the check sees what it looks for.
    const insider = await watch(ts.client(cast.admin), eventTypes);
    const ok = (res: { status: number; body: Dict }, what: string) => assert.equal(res.status, 200, `${what}: ${JSON.stringify(res.body)}`);
    const owner = ts.ownerClient;
    id = await createChannel(ts, owner, NAME, { invite_only: true, principals: [cast.owner.id], description: 'Zanzibar' } as never);
    ok(await owner.post('/users/me/subscriptions', { subscriptions: [{ name: NAME }], principals: [friend.id, cast.admin.id] }), 'subscribe others');
    ok(await owner.delete('/users/me/subscriptions', { subscriptions: [NAME], principals: [cast.admin.id] }), 'unsubscribe another');
    ok(await owner.post('/users/me/subscriptions/properties', {
      subscription_data: [
        { stream_id: id, property: 'color', value: '#abcdef' },
        { stream_id: id, property: 'is_muted', value: true },
        { stream_id: id, property: 'desktop_notifications', value: false },
      ],
    }), 'properties');
    const folder = await owner.post('/channel_folders/create', { name: 'Plans folder', description: '' });
    // The folder itself is public knowledge; moving the channel into it is not.
    const folderId = folder.body.channel_folder_id as number;
    const patches: Dict[] = [
      { description: 'Zanzibar, the plan' },
      { new_name: `${NAME} II` },
      { new_name: NAME },
      { history_public_to_subscribers: true },
      { history_public_to_subscribers: false },
      { message_retention_days: 30 },
      { message_retention_days: 'unlimited' },
      { folder_id: folderId },
      { folder_id: null },
      { topics_policy: 'disable_empty_topic' },
    ];
    for (const name of CHANNEL_SETTING_NAMES) {
      if (name === 'can_create_topic_group') continue; // must stay role:everyone while history is protected
      patches.push({ [name]: { new: groupId(ts, 'role:administrators') } });
    }
    for (const p of patches) ok(await owner.patch(`/streams/${id}`, p as never), JSON.stringify(p));
    // Refused changes leak nothing either.
    assert.equal((await owner.patch(`/streams/${id}`, { is_default_stream: true })).status, 400);
    assert.equal((await owner.patch(`/streams/${id}`, { is_web_public: true })).status, 400);

    // A group change that gives a third user (the admin already knows it; the friend is subscribed) access.
    ok(await owner.patch(`/streams/${id}`, { can_subscribe_group: { new: group } }), 'can_subscribe_group');
    const third = await ts.addUser('Thea', 400);
    ok(await owner.post(`/user_groups/${group}/members`, { add: [third.id] }), 'add to group');
    ok(await ts.client(third).post('/users/me/subscriptions', { subscriptions: [{ name: NAME }] }), 'third joins');
    ok(await ts.client(third).delete('/users/me/subscriptions', { subscriptions: [NAME] }), 'third leaves');
    ok(await owner.post(`/user_groups/${group}/members`, { delete: [third.id] }), 'remove from group');
    // A message in the channel.
    const sent = await owner.post('/messages', { type: 'stream', to: id, topic: 'Zanzibar', content: 'Zanzibar at dawn' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));

    ok(await owner.delete(`/streams/${id}`), 'archive');
    ok(await owner.patch(`/streams/${id}`, { is_archived: false }), 'unarchive');
    ok(await owner.delete('/users/me/subscriptions', { subscriptions: [NAME], principals: [friend.id] }), 'friend removed');

    const insiderEvents = (await insider()).filter(mentions);
    assert.ok(insiderEvents.length >= patches.length, `an administrator hears of it: ${insiderEvents.length} events`);
    assert.ok(insiderEvents.some((e) => e.type === 'stream' && e.op === 'create'));
    for (const q of queues) {
      const events = await q.read();
      const leaked = events.filter(mentions);
      assert.deepEqual(leaked, [], `${q.label} learnt about the private channel`);
      assert.ok(events.some((e) => e.type === 'user_group'), `${q.label}: the queue was live (it got the group events)`);
    }
  });
});
