import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isSubscribedInStore, stored, storedByName, watch } from '../helpers/channels.js';
import { groupId, castOf, type Cast, type CastRole } from '../helpers/people.js';
import { startTestServer, type TestServer, assertError } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

/** POST /channels/create (feature level 417): create one channel, subscribing `subscribers`. */
describe('POST /channels/create', () => {
  let ts: TestServer;
  let cast: Cast;
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts, { owner: ts.owner });
  });
  after(() => ts.stop());

  const as = (who: CastRole) => ts.client(cast[who]);
  const create = (who: CastRole, params: Record<string, unknown>) => as(who).post('/channels/create', params as never);
  const REG = { fetch_event_types: ['subscription', 'stream'], event_types: ['subscription', 'stream'], include_subscribers: 'true' };

  it('creates the channel with its settings and subscribes exactly the subscribers', async () => {
    let res: { status: number; body: Record<string, unknown> } = { status: 0, body: {} };
    const memberEvents = await verifyAction(
      as('member'),
      async () => {
        res = await create('moderator', {
          name: ' Roadmap ',
          description: 'What *comes* next',
          subscribers: [cast.member.id, cast.guest.id],
          invite_only: true,
          history_public_to_subscribers: true,
          can_send_message_group: groupId(ts, 'role:members'),
        });
      },
      REG,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['id', 'msg', 'result']);
    const c = stored(ts, res.body.id as number);
    assert.deepEqual(
      [c.name, c.description, c.rendered_description, c.invite_only, c.history_public_to_subscribers, c.creator_id],
      ['Roadmap', 'What *comes* next', '<p>What <em>comes</em> next</p>', true, true, cast.moderator.id],
    );
    assert.equal(c.settings.can_send_message_group, groupId(ts, 'role:members'));
    assert.deepEqual(c.settings.can_administer_channel_group, { direct_members: [cast.moderator.id], direct_subgroups: [] });
    assert.ok(isSubscribedInStore(ts, cast.member.id, c.id));
    assert.ok(isSubscribedInStore(ts, cast.guest.id, c.id));
    assert.ok(!isSubscribedInStore(ts, cast.moderator.id, c.id), 'the creator is not subscribed unless listed');
    assert.ok(memberEvents.some((e) => e.type === 'subscription' && e.op === 'add'));
  });

  it('tells only those who may know a private channel', async () => {
    const outsider = await watch(as('admin'));
    const stranger = await watch(ts.client(await ts.addUser('Stan', 400)));
    const res = await create('member', { name: 'Hideout', subscribers: [cast.member.id], invite_only: true });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok((await outsider()).some((e) => e.type === 'stream' && e.op === 'create'), 'administrators know it');
    assert.deepEqual(await stranger(), []);
  });

  it('refuses taken names (409), bad input and missing permissions, creating nothing', async () => {
    const before = JSON.stringify([ts.store.channels.data, ts.store.subscriptions.data]);
    const taken = await create('member', { name: 'roadmap', subscribers: [] });
    assert.equal(taken.status, 409, JSON.stringify(taken.body));
    assert.deepEqual([taken.body.code, taken.body.msg, taken.body.channel_name], ['CHANNEL_ALREADY_EXISTS', "Channel 'roadmap' already exists", 'roadmap']);
    assertError(await create('member', { subscribers: [] }), "Missing 'name' argument", 'REQUEST_VARIABLE_MISSING');
    assertError(await create('member', { name: 'x' }), "Missing 'subscribers' argument", 'REQUEST_VARIABLE_MISSING');
    assertError(await create('member', { name: '', subscribers: [] }), "Channel name can't be empty.");
    assertError(await create('member', { name: 'n'.repeat(61), subscribers: [] }), 'Channel name too long (limit: 60 characters).');
    assertError(await create('member', { name: 'ok', subscribers: [9999] }), 'No such user');
    assertError(await create('member', { name: 'ok', subscribers: [cast.deactivated.id] }), 'User is deactivated');
    assertError(await create('member', { name: 'ok', subscribers: [], is_web_public: true }), 'Web-public channels are not enabled.');
    assertError(await create('member', { name: 'ok', subscribers: [], message_retention_days: 5 }), 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    assertError(await create('member', { name: 'ok', subscribers: [], is_default_stream: true }), 'Insufficient permission');
    assertError(await create('guest', { name: 'ok', subscribers: [] }), 'Not allowed for guest users');
    ts.store.realm.data.realm!.settings.can_create_public_channel_group = groupId(ts, 'role:administrators');
    try {
      assertError(await create('member', { name: 'ok', subscribers: [] }), 'Insufficient permission');
    } finally {
      delete ts.store.realm.data.realm!.settings.can_create_public_channel_group;
    }
    const dead = await ts.client(cast.deactivated).post('/channels/create', { name: 'ok', subscribers: [] });
    assert.equal(dead.status, 401);
    assert.equal(JSON.stringify([ts.store.channels.data, ts.store.subscriptions.data]), before);
    assert.equal(storedByName(ts, 'ok'), undefined);
  });
});
