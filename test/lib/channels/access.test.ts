import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel, stored, watch } from '../../helpers/channels.js';
import { castOf, type Cast, type CastRole } from '../../helpers/people.js';
import { startTestServer, type TestServer, assertError } from '../../helpers/server.js';
import { verifyAction } from '../../helpers/verify-action.js';

/**
 * Who learns about a channel: private channels never reach anyone without
 * metadata access, through events, register or endpoints.
 */
describe('channel visibility and private-channel leaks', () => {
  let ts: TestServer;
  let cast: Cast;
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts, { owner: ts.owner });
  });
  after(() => ts.stop());

  const as = (who: CastRole) => ts.client(cast[who]);
  const SECRET = 'Hush Project';

  it('sends nothing about a private channel to those who may not know it, through its whole life', async () => {
    const outsiders = await Promise.all((['moderator', 'guest'] as const).map((w) => watch(as(w), { client_capabilities: { archived_channels: true } })));
    const outsidersLegacy = await Promise.all((['moderator', 'guest'] as const).map((w) => watch(as(w))));
    const adminQueue = await watch(as('admin'));
    const memberQueue = await watch(as('member'));

    const id = await createChannel(ts, as('owner'), SECRET, { invite_only: true, principals: [cast.owner.id] });
    assert.equal((await as('owner').post('/users/me/subscriptions', { subscriptions: [{ name: SECRET }], principals: [cast.member.id] })).status, 200);
    for (const params of [
      { description: 'the plan' },
      { new_name: `${SECRET} 2` },
      { can_send_message_group: { new: ts.store.groups.data.groups.find((g) => g.name === 'role:administrators')!.id } },
      { topics_policy: 'allow_empty_topic' },
      { history_public_to_subscribers: true },
    ]) {
      assert.equal((await as('owner').patch(`/streams/${id}`, params as never)).status, 200);
    }
    await as('owner').post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: id, property: 'pin_to_top', value: true }],
    });
    assert.equal((await as('member').delete('/users/me/subscriptions', { subscriptions: [`${SECRET} 2`] })).status, 200);
    assert.equal((await as('owner').delete(`/streams/${id}`)).status, 200);
    assert.equal((await as('owner').patch(`/streams/${id}`, { is_archived: false })).status, 200);

    for (const read of [...outsiders, ...outsidersLegacy]) {
      const events = await read();
      assert.deepEqual(events, [], JSON.stringify(events));
    }
    const adminEvents = await adminQueue();
    assert.ok(adminEvents.some((e) => e.type === 'stream' && e.op === 'create'), 'administrators know every channel');
    assert.ok(adminEvents.every((e) => e.type !== 'subscription' || String(e.op).startsWith('peer_')));
    const memberEvents = await memberQueue();
    assert.deepEqual(
      memberEvents.map((e) => `${e.type}/${e.op}`).slice(0, 2),
      ['stream/create', 'subscription/add'],
    );
    assert.ok(memberEvents.some((e) => e.type === 'stream' && e.op === 'delete'), 'leaving a private channel forgets it');
    const afterLeaving = memberEvents.slice(memberEvents.findIndex((e) => e.type === 'stream' && e.op === 'delete') + 1);
    assert.deepEqual(afterLeaving, [], 'nothing after losing access');
  });

  it('keeps private channels out of the register and the endpoints for outsiders', async () => {
    const id = await createChannel(ts, as('owner'), 'Quiet Room', { invite_only: true });
    for (const who of ['moderator', 'member', 'guest'] as const) {
      const reg = await as(who).post('/register', { include_subscribers: 'true' });
      assert.equal(JSON.stringify(reg.body).includes('Quiet Room'), false, `${who} register`);
      const streams = await as(who).get('/streams', { include_all: true, include_web_public: true });
      assert.equal(JSON.stringify(streams.body).includes('Quiet Room'), false);
      assertError(await as(who).get(`/streams/${id}`), 'Invalid channel ID');
      assertError(await as(who).get(`/streams/${id}/members`), 'Invalid channel ID');
      assertError(await as(who).get('/get_stream_id', { stream: 'quiet room' }), "Invalid channel name 'quiet room'");
      assertError(await as(who).patch(`/streams/${id}`, { description: 'x' }), 'Invalid channel ID');
      assertError(await as(who).delete(`/streams/${id}`), 'Invalid channel ID');
    }
    // Administrators may know it (metadata), not read it (content).
    assert.equal((await as('admin').get(`/streams/${id}`)).body.stream.name, 'Quiet Room');
    assert.deepEqual((await as('admin').get(`/streams/${id}/members`)).body.subscribers, [cast.owner.id]);
    assertError(await as('admin').get('/get_stream_id', { stream: 'Quiet Room' }), "Invalid channel name 'Quiet Room'");
    const adminReg = await as('admin').post('/register', { fetch_event_types: ['subscription'], include_subscribers: 'true' });
    const seen = adminReg.body.never_subscribed.find((s: { stream_id: number }) => s.stream_id === id);
    assert.deepEqual(seen.subscribers, [cast.owner.id]);
    assert.equal((await as('owner').get('/get_stream_id', { stream: 'quiet ROOM' })).body.stream_id, id);
  });

  it('lists channels with the GET /streams include options', async () => {
    const ids = {
      pub: await createChannel(ts, as('owner'), 'Open Plaza', { principals: [cast.owner.id] }),
      mine: await createChannel(ts, as('member'), 'Member Nook', { invite_only: true }),
      def: await createChannel(ts, as('owner'), 'Welcome', { is_default_stream: true }),
      old: await createChannel(ts, as('owner'), 'Old News'),
    };
    await as('owner').delete(`/streams/${ids.old}`);
    const names = async (who: CastRole, params: Record<string, boolean> = {}) =>
      ((await as(who).get('/streams', params)).body.streams as { name: string }[]).map((s) => s.name);
    const memberDefault = await names('member');
    assert.ok(memberDefault.includes('Open Plaza') && memberDefault.includes('Member Nook'));
    assert.ok(!memberDefault.includes('Old News') && !memberDefault.includes('Quiet Room'));
    assert.deepEqual(memberDefault, [...memberDefault].sort(), 'sorted by name');
    assert.deepEqual(await names('member', { include_public: false }), ['Member Nook']);
    assert.deepEqual(await names('member', { include_public: false, include_subscribed: false }), []);
    assert.ok((await names('member', { exclude_archived: false })).includes('Old News'));
    assert.ok(!(await names('guest')).includes('Open Plaza'), 'guests see no public channels they are not in');
    assert.ok((await names('admin', { include_all: true })).includes('Member Nook'), 'administrators know all');
    assert.ok(!(await names('admin')).includes('Member Nook'));
    assert.ok((await names('admin', { include_all_active: true })).includes('Member Nook'));
    assert.ok(!(await names('admin', { include_can_access_content: true })).includes('Member Nook'));
    const withDefault = (await as('member').get('/streams', { include_default: true })).body.streams;
    assert.equal(withDefault.find((s: { name: string }) => s.name === 'Welcome').is_default, true);
    assert.equal(withDefault.find((s: { name: string }) => s.name === 'Open Plaza').is_default, false);
    assertError(await as('member').get('/streams', { include_public: 'yes' as never }), 'include_public is not valid JSON');
  });

  it('gives bots the channels their owner is in with include_owner_subscribed', async () => {
    const bot = await ts.addUser('Bottle', 400);
    Object.assign(ts.store.users.get(bot.id)!, { is_bot: true, bot_type: 1, bot_owner_id: cast.member.id });
    const names = ((await ts.client(bot).get('/streams', { include_public: false, include_owner_subscribed: true })).body
      .streams as { name: string }[]).map((s) => s.name);
    assert.ok(names.includes('Member Nook'));
  });

  it('manages default channels: administrators only, public only, events to non-guests', async () => {
    const id = await createChannel(ts, as('owner'), 'Town Hall');
    const priv = await createChannel(ts, as('owner'), 'Back Room', { invite_only: true });
    assertError(await as('member').post('/default_streams', { stream_id: id }), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    assertError(await as('owner').post('/default_streams', { stream_id: priv }), 'Private channels cannot be made default.');
    assertError(await as('owner').post('/default_streams', { stream_id: 9999 }), 'Invalid channel ID');
    assertError(await as('owner').post('/default_streams', {}), "Missing 'stream_id' argument", 'REQUEST_VARIABLE_MISSING');
    const guestQueue = await watch(as('guest'));
    const events = await verifyAction(as('member'), async () => {
      assert.equal((await as('admin').post('/default_streams', { stream_id: id })).status, 200);
    });
    const defaults = ts.store.channels.data.channels.filter((c) => c.is_default_stream).map((c) => c.id);
    assert.deepEqual(events.map((e) => e.type), ['default_streams']);
    assert.deepEqual(events[0]!.default_streams, defaults);
    assert.ok(defaults.includes(id));
    assert.equal(stored(ts, id).is_default_stream, true);
    assert.deepEqual(await guestQueue(), [], 'guests see no default channels');
    const list = await as('member').get('/default_streams');
    assert.ok(list.body.default_streams.some((s: { stream_id: number }) => s.stream_id === id));
    assert.deepEqual((await as('guest').get('/default_streams')).body.default_streams, []);
    await verifyAction(as('member'), async () => {
      assert.equal((await as('owner').delete('/default_streams', { stream_id: id })).status, 200);
    });
    assert.equal(stored(ts, id).is_default_stream, false);
    const quiet = await verifyAction(as('member'), async () => {
      assert.equal((await as('owner').delete('/default_streams', { stream_id: id })).status, 200);
    });
    assert.deepEqual(quiet, [], 'no change, no event');
  });

  it('archives with DELETE: history and subscriptions stay; capable clients get is_archived, others a delete', async () => {
    const id = await createChannel(ts, as('owner'), 'Retired', { principals: [cast.owner.id, cast.member.id], is_default_stream: true });
    assertError(await as('member').delete(`/streams/${id}`), 'You do not have permission to administer this channel.');
    const capable = await verifyAction(
      as('member'),
      async () => {
        assert.equal((await as('owner').delete(`/streams/${id}`)).status, 200);
      },
      { client_capabilities: { archived_channels: true } },
    );
    assert.deepEqual(
      capable.map((e) => `${e.type}/${e.op}/${e.property ?? ''}`),
      ['default_streams/undefined/', 'stream/update/is_archived'],
    );
    assert.equal(stored(ts, id).is_archived, true);
    assert.equal(stored(ts, id).is_default_stream, false);
    assert.ok(ts.store.subscriptions.data.subscriptions.some((s) => s.stream_id === id && s.user_id === cast.member.id && s.active));
    const withCap = await as('member').post('/register', { fetch_event_types: ['subscription'], client_capabilities: { archived_channels: true } });
    assert.equal(withCap.body.subscriptions.find((s: { stream_id: number }) => s.stream_id === id).is_archived, true);
    const without = await as('member').post('/register', { fetch_event_types: ['subscription'] });
    assert.equal(without.body.subscriptions.some((s: { stream_id: number }) => s.stream_id === id), false);

    const legacy = await verifyAction(as('member'), async () => {
      assert.equal((await as('owner').patch(`/streams/${id}`, { is_archived: false })).status, 200);
    });
    assert.deepEqual(
      legacy.map((e) => `${e.type}/${e.op}`),
      ['stream/create', 'subscription/peer_add', 'subscription/add'],
    );
    assert.equal('for_unarchiving' in legacy[0]!, false, 'internal flags stay on the server');
    const archivedAgain = await verifyAction(as('member'), async () => {
      assert.equal((await as('owner').delete(`/streams/${id}`)).status, 200);
    });
    assert.deepEqual(archivedAgain.map((e) => `${e.type}/${e.op}`), ['stream/delete']);
    assert.deepEqual(archivedAgain[0]!.stream_ids, [id]);
  });

  it("answers a user's subscription status, with Zulip's errors", async () => {
    const id = await createChannel(ts, as('owner'), 'Status Room', { invite_only: true, principals: [cast.owner.id, cast.member.id] });
    const status = (who: CastRole, userId: number, streamId = id) => as(who).get(`/users/${userId}/subscriptions/${streamId}`);
    assert.deepEqual((await status('owner', cast.member.id)).body.is_subscribed, true);
    assert.deepEqual((await status('member', cast.admin.id)).body.is_subscribed, false);
    assertError(await status('owner', 9999), 'No such user');
    assertError(await status('owner', cast.deactivated.id), 'User is deactivated');
    assertError(await status('owner', cast.member.id, 9999), 'Invalid channel ID');
    assertError(await status('moderator', cast.member.id), 'Invalid channel ID');
    const bot = await ts.addUser('Botty', 400);
    Object.assign(ts.store.users.get(bot.id)!, { is_bot: true, bot_type: 1, bot_owner_id: cast.owner.id });
    // Bots are targets since Zulip 12 (feature level 458).
    const botStatus = await status('owner', bot.id);
    assert.equal(botStatus.status, 200, JSON.stringify(botStatus.body));
    assert.equal(botStatus.body.is_subscribed, false);
    const bad = await ts.ownerClient.get(`/users/abc/subscriptions/${id}`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'REQUEST_VARIABLE_INVALID');
  });

  it('answers an empty channel email address (no email gateway) to those who may read the channel', async () => {
    const id = await createChannel(ts, as('owner'), 'Mailroom', { invite_only: true, principals: [cast.owner.id, cast.member.id] });
    const res = await as('member').get(`/streams/${id}/email_address`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.email, '');
    assert.equal((await as('member').get(`/streams/${id}/email_address`, { sender_id: cast.member.id })).status, 200);
    assertError(await as('admin').get(`/streams/${id}/email_address`), 'Invalid channel ID');
    assertError(await as('moderator').get(`/streams/${id}/email_address`), 'Invalid channel ID');
    assertError(await as('member').get('/streams/9999/email_address'), 'Invalid channel ID');
    assertError(await as('member').get(`/streams/${id}/email_address`, { sender_id: 'me' as never }), /sender_id/, 'BAD_REQUEST');
  });

  it('counts only active subscribers', async () => {
    const id = await createChannel(ts, as('owner'), 'Headcount', { principals: [cast.owner.id, cast.member.id, cast.admin.id] });
    const admin = ts.store.users.get(cast.admin.id)!;
    admin.is_active = false;
    try {
      assert.deepEqual((await as('owner').get(`/streams/${id}/members`)).body.subscribers, [cast.owner.id, cast.member.id]);
      assert.equal((await as('owner').get(`/streams/${id}`)).body.stream.subscriber_count, 2);
    } finally {
      admin.is_active = true;
    }
  });

  it('a private channel\'s first message is announced (stream update events) to exactly those who may know the channel', async () => {
    const id = await createChannel(ts, as('owner'), 'Quiet Room', { invite_only: true, principals: [cast.owner.id, cast.member.id] });
    const queues = {
      admin: await watch(as('admin')),
      member: await watch(as('member')),
      moderator: await watch(as('moderator')),
      guest: await watch(as('guest')),
    };
    let messageId = 0;
    const events = await verifyAction(as('member'), async () => {
      const res = await as('member').post('/messages', { type: 'stream', to: id, topic: 'hello', content: 'first!' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      messageId = res.body.id as number;
    });
    assert.equal(stored(ts, id).first_message_id, messageId);
    const firstIdEvents = (list: Record<string, unknown>[]) =>
      list.filter((e) => e.type === 'stream' && e.property === 'first_message_id').map(({ id: _id, ...e }) => e);
    const want = [{ type: 'stream', op: 'update', stream_id: id, name: 'Quiet Room', property: 'first_message_id', value: messageId }];
    assert.deepEqual(firstIdEvents(events), want);
    for (const who of ['admin', 'member'] as const) assert.deepEqual(firstIdEvents(await queues[who]()), want, who);
    for (const who of ['moderator', 'guest'] as const) assert.deepEqual(await queues[who](), [], who);
  });
});
